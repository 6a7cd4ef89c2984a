// Renders Values as JSON text, in the encoding the compatibility corpus (cases.jsonl) and
// `sluice read --format jsonl` use:
//   numbers as JSON numbers (FLOAT as the shortest decimal that round-trips the float32);
//   strings; booleans; null; DECIMAL(p, s) as a string with exactly s fraction digits;
//   DATE "YYYY-MM-DD"; TIME "HH:MM:SS" + p fraction digits; TIMESTAMP(p) and TIMESTAMP(p) WITH
//   LOCAL TIME ZONE "YYYY-MM-DD HH:MM:SS" + p fraction digits (LTZ as the UTC instant);
//   binary types as {"base64": "..."}; ARRAY / MULTISET-as-array as arrays; MAP (and MULTISET)
//   as an array of [key, value] pairs; ROW as an object keyed by field name.
//
// Thread safety: stateless functions.
#pragma once

#include <string>
#include <string_view>

#include "sluice/data_type.h"
#include "sluice/value.h"

namespace sluice {

void AppendValueJson(const Value& value, const DataType& type, std::string* out);
std::string ValueToJson(const Value& value, const DataType& type);

// The text of a value in a CSV field or a table cell: what AppendValueJson writes, except that a
// value written as a JSON string (CHAR / VARCHAR, DECIMAL, DATE, TIME, TIMESTAMP) is appended
// bare, without quotes or escapes. Null appends nothing. Both write UTF-8 whatever a string
// holds: ill-formed bytes become U+FFFD as Java's decoding of Paimon strings makes them.
void AppendValueText(const Value& value, const DataType& type, std::string* out);

std::string Base64Encode(std::string_view bytes);

// "HH:MM:SS" followed by `precision` fraction digits, for millis of the day.
std::string FormatTime(int32_t millis_of_day, int precision);

}  // namespace sluice
