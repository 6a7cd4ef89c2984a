// Values from text, the inverse of value_json.h: what engines and `sluice write` use to bring
// values in. A value is read in the encoding `sluice read` prints (value_json.h): numbers,
// strings, booleans; DECIMAL with at most the type's scale of fraction digits; DATE
// "YYYY-MM-DD"; TIME "HH:MM:SS[.fff]"; TIMESTAMP "YYYY-MM-DD HH:MM:SS[.f...]" (TIMESTAMP WITH
// LOCAL TIME ZONE as the UTC instant, or with a UTC offset); binary types as
// {"base64": "..."}; ARRAY as a JSON array, MAP and MULTISET as an array of [key, value] pairs,
// ROW as an object keyed by field name. FLOAT and DOUBLE also take "NaN", "Infinity" and
// "-Infinity". JSON lines of such values: json_lines_reader.h.
//
// A CHAR / VARCHAR value must be well-formed UTF-8, as every Paimon engine reads strings;
// other bytes are an error rather than a value no reader shows as written.
//
// Errors are InvalidArgument saying what is wrong with the value (quoted) and naming the type;
// the caller adds where the value came from (file, line, column).
//
// Thread safety: stateless functions.
#pragma once

#include <cstdint>
#include <string_view>

#include "sluice/column_vector.h"
#include "sluice/data_type.h"
#include "sluice/result.h"
#include "sluice/value.h"

namespace sluice {

// A value written as text, as AppendValueText writes it (a CSV field): strings as they are,
// nested and binary types as their JSON text, every other type as its JSON text without quotes
// ("12.50", "2024-01-01", "true"). Never null: an absent value is the caller's to recognise.
Result<Value> ParseValueText(std::string_view text, const DataType& type);

// The first row of `column` holding a CHAR / VARCHAR value, at any depth of nesting, that is
// not well-formed UTF-8, or -1: the check ParseValueText makes, for input that arrives as whole
// columns (a Parquet file). One pass over the string bytes when they are well-formed.
int64_t FindInvalidUtf8Row(const ColumnVector& column);

}  // namespace sluice
