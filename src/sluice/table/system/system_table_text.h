// How Java's system tables render values as text: field helpers shared by the system tables.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sluice/data_type.h"
#include "sluice/meta/tag.h"
#include "sluice/result.h"
#include "sluice/value.h"

namespace sluice {

// A field of a system table's row type.
DataField SystemField(int32_t id, std::string name, DataTypePtr type);
// A TIMESTAMP(3) value of epoch millis.
Value MillisTimestamp(int64_t millis);
// A STRING value, or null.
Value OptionalString(const std::optional<std::string>& s);
Value OptionalInt64(const std::optional<int64_t>& v);

// Java's toString of a value as the system tables' converters hold it ("null" for null):
// integers in decimal, strings as they are, the rest as partition directory names show them.
std::string JavaValueText(const Value& value, const DataType& type);
// `[v1, v2]` (Java Arrays.toString of a key) for a serialized BinaryRow of `type`.
Result<std::string> RowArrayText(const std::string& serialized, const DataType& type);
// `{v1, v2}` (Java's ROW-to-STRING cast of a partition).
Result<std::string> RowBraceText(const std::string& serialized, const DataType& type);
// `{k1=v1, k2=v2}` (Java Map.toString).
std::string MapText(const std::vector<std::pair<std::string, std::string>>& entries);
// java.time.Duration.toString: "PT24H", "PT1H30M", "PT0.5S", "PT0S".
std::string JavaDurationText(const TagDuration& d);

}  // namespace sluice
