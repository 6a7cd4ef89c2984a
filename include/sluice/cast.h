// Casting a column to another type with Paimon's cast rules (Java CastExecutors), as reads of
// evolved schemas do: for engines (and `sluice write`) that bring columns of other types.
//
// Thread safety: pure functions.
#pragma once

#include <string_view>

#include "sluice/column_vector.h"
#include "sluice/data_type.h"
#include "sluice/result.h"

namespace sluice {

// OK if CastColumnValues casts values of `from` to `to`; otherwise an error naming `column`
// and both types.
Status CheckColumnCast(const DataType& from, const DataType& to, std::string_view column);

// Appends every row of `in`, cast to out->type(), to `out` (UTC for time-zone casts). A value
// that does not fit (decimal overflow) becomes null, as in Java; a string that does not parse
// is an error naming `column`, the value and both types.
Status CastColumnValues(const ColumnVector& in, std::string_view column, ColumnVector* out);

}  // namespace sluice
