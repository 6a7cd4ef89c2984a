// Reading the values of a database source's `--<x>_conf` (mysql_source_options.h,
// postgres_source_options.h): integers in a range, regexes, the keys every database source
// reads alike, and the keys of Flink CDC's tuning that have nothing to tune natively. Errors name
// the argument, the key and the (masked) value.
//
// Thread safety: pure functions.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "sluice/result.h"

namespace sluice {

// What every database source reads alike: scan.snapshot.fetch.size (rows per snapshot
// message), connect.timeout, connect.max-retries (a lost connection is retried that many times,
// with backoff, before the job fails), heartbeat.interval.
struct SourceTuning {
  int32_t snapshot_fetch_size = 1024;
  std::chrono::seconds connect_timeout{30};
  int32_t connect_max_retries = 3;
  std::chrono::milliseconds heartbeat_interval{30000};
};

// Reads `key` = `text` of argument `conf` into `tuning` when it is one of SourceTuning's keys;
// false for another key.
Result<bool> ReadSourceTuning(std::string_view conf, std::string_view key, std::string_view text,
                              SourceTuning* tuning);

// `text` of `key` in argument `conf` ("--mysql_conf") as an integer from `min` to `max`.
Result<int64_t> ParseConfInteger(std::string_view conf, std::string_view key, std::string_view text,
                                 int64_t min, int64_t max);

// InvalidArgument naming the key when `pattern` is not a regular expression.
Status CheckConfRegex(std::string_view conf, std::string_view key, const std::string& pattern);

// Whether `key` is one of Flink CDC's chunked-snapshot and connector tuning keys (or a
// `debezium.*` / `jdbc.properties.*` pass-through) that a native source accepts with a warning.
bool IsFlinkCdcTuningKey(std::string_view key);

}  // namespace sluice
