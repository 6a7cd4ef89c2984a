// Dates, times and timestamps from text, as a WHERE expression's DATE / TIME / TIMESTAMP
// literals read them: what engines and `sluice write` use to bring such values in; and
// durations as Paimon's options write them.
//
// Thread safety: pure functions.
#pragma once

#include <chrono>
#include <cstdint>
#include <string_view>

#include "sluice/data_type.h"
#include "sluice/result.h"
#include "sluice/value.h"

namespace sluice {

// "YYYY-MM-DD" (year 0000..9999) -> days since 1970-01-01.
Result<int32_t> ParseDateLiteral(std::string_view text);
// "HH:MM[:SS[.fff]]" -> milliseconds of the day (more than 3 fraction digits must be zeros).
Result<int32_t> ParseTimeLiteral(std::string_view text);
// `YYYY-MM-DD[( |T)HH:MM[:SS[.fffffffff]]]` -> a Timestamp Value for `type` (TIMESTAMP or
// TIMESTAMP_LTZ). For TIMESTAMP WITH LOCAL TIME ZONE an optional UTC offset (`+08:00`, `Z`),
// UTC without one; plain TIMESTAMP refuses an offset. InvalidArgument explaining why not.
Result<Value> ParseTimestampLiteral(std::string_view text, const DataType& type);
// A duration as Java's TimeUtils.parseDuration reads an option (`30 s`, `10m`, `1 h`, `2 d`,
// `500` = milliseconds), truncated to milliseconds. InvalidArgument saying why not.
Result<std::chrono::milliseconds> ParseDuration(std::string_view text);

}  // namespace sluice
