// Parses input values of `sluice write` into the internal representation of a column's type
// (value.h), in the encoding `sluice read --format jsonl` prints and cases.jsonl uses
// (value_json.h): numbers, strings, booleans, null; DECIMAL as a string or number with at most
// the type's scale of fraction digits; DATE "YYYY-MM-DD"; TIME "HH:MM:SS[.fff]"; TIMESTAMP
// "YYYY-MM-DD HH:MM:SS[.f...]" (TIMESTAMP WITH LOCAL TIME ZONE as the UTC instant, or with a
// UTC offset); binary types as {"base64": "..."}; ARRAY as an array, MAP and MULTISET as an
// array of [key, value] pairs, ROW as an object keyed by field name. FLOAT and DOUBLE also take
// "NaN", "Infinity" and "-Infinity".
//
// Errors say what is wrong with the value (quoted) and name the type; the caller adds where
// the value came from (file, line, column).
//
// Thread safety: stateless functions.
#pragma once

#include <string_view>

#include "sluice/cli/json_input.h"
#include "sluice/data_type.h"
#include "sluice/result.h"
#include "sluice/value.h"

namespace sluice::cli {

// A JSON value. Null for JSON null (the caller checks NOT NULL).
Result<Value> ParseJsonValue(const Json& json, const DataType& type);

// A value written as text (a CSV field): strings as they are, nested and binary types as their
// JSON text, every other type as its JSON text without quotes ("12.50", "2024-01-01", "true").
Result<Value> ParseTextValue(std::string_view text, const DataType& type);

// Standard base64 (with '=' padding); InvalidArgument for anything else.
Result<std::string> Base64Decode(std::string_view text);

}  // namespace sluice::cli
