// Columnar casts for schema evolution: the type changes Paimon allows on ALTER TABLE
// (Java CastExecutors): integral and floating widening / narrowing, numeric <-> STRING,
// DECIMAL precision and scale changes and DECIMAL <-> numeric, BOOLEAN <-> STRING,
// TIMESTAMP precision changes, DATE <-> TIMESTAMP, DATE / TIMESTAMP <-> STRING,
// CHAR / VARCHAR / BINARY / VARBINARY length changes.
//
// Casts between TIMESTAMP and TIMESTAMP_LTZ and between integral seconds and timestamps depend
// on the session time zone, which the read path does not carry yet (issue 5): they are
// reported as unsupported rather than guessed in UTC.
//
// Each cast is one typed loop per column; casts to STRING format through the value types
// ToString and so allocate per value (they only run on files older than an ALTER TABLE).
//
// Thread safety: free functions; `out` must not be shared while they write it.
#pragma once

#include <string_view>

#include "sluice/base/result.h"
#include "sluice/batch/column_vector.h"

namespace sluice {

// OK if CastColumn can cast values of `from` to `to`; otherwise an error naming `column` and
// both types. Checked once per file, before any row is read.
Status CheckCastSupported(const DataType& from, const DataType& to, std::string_view column);

// Appends every row of `in`, cast to out->type(), to `out`. A value that does not fit the target
// (decimal overflow) becomes null as in Java; a string that does not parse is an error naming
// `column`, the value and both types.
Status CastColumn(const ColumnVector& in, std::string_view column, ColumnVector* out);

}  // namespace sluice
