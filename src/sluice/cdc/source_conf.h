// Reading the values of a database source's `--<x>_conf` (mysql_source_options.h,
// postgres_source_options.h): integers in a range, durations, regexes, and the keys of Flink
// CDC's tuning that have nothing to tune natively. Errors name the argument, the key and the
// (masked) value.
//
// Thread safety: pure functions.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "sluice/result.h"

namespace sluice {

// `text` of `key` in argument `conf` ("--mysql_conf") as an integer from `min` to `max`.
Result<int64_t> ParseConfInteger(std::string_view conf, std::string_view key, std::string_view text,
                                 int64_t min, int64_t max);

// InvalidArgument naming the key when `pattern` is not a regular expression.
Status CheckConfRegex(std::string_view conf, std::string_view key, const std::string& pattern);

// Whether `key` is one of Flink CDC's chunked-snapshot and connector tuning keys (or a
// `debezium.*` / `jdbc.properties.*` pass-through) that a native source accepts with a warning.
bool IsFlinkCdcTuningKey(std::string_view key);

}  // namespace sluice
