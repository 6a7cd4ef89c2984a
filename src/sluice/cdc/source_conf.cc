#include "sluice/cdc/source_conf.h"

#include <algorithm>
#include <charconv>
#include <regex>

#include "sluice/meta/option_value.h"

namespace sluice {

Result<int64_t> ParseConfInteger(std::string_view conf, std::string_view key, std::string_view text,
                                 int64_t min, int64_t max) {
  int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < min || value > max) {
    return Status::InvalidArgument(std::string(conf) + " " + std::string(key) + "=" +
                                   std::string(text) + ": expected an integer from " +
                                   std::to_string(min) + " to " + std::to_string(max));
  }
  return value;
}

Result<bool> ReadSourceTuning(std::string_view conf, std::string_view key, std::string_view text,
                              SourceTuning* tuning) {
  const std::string name = std::string(conf) + " " + std::string(key);
  if (key == "scan.snapshot.fetch.size") {
    SLUICE_ASSIGN_OR_RETURN(int64_t size, ParseConfInteger(conf, key, text, 1, 1 << 20));
    tuning->snapshot_fetch_size = static_cast<int32_t>(size);
  } else if (key == "connect.timeout") {
    SLUICE_ASSIGN_OR_RETURN(auto timeout, ParseDurationOption(name, text));
    tuning->connect_timeout = std::max(std::chrono::seconds(1),
                                       std::chrono::duration_cast<std::chrono::seconds>(timeout));
  } else if (key == "connect.max-retries") {
    SLUICE_ASSIGN_OR_RETURN(int64_t retries, ParseConfInteger(conf, key, text, 0, 1000));
    tuning->connect_max_retries = static_cast<int32_t>(retries);
  } else if (key == "heartbeat.interval") {
    SLUICE_ASSIGN_OR_RETURN(tuning->heartbeat_interval, ParseDurationOption(name, text));
  } else {
    return false;
  }
  return true;
}

Status CheckConfRegex(std::string_view conf, std::string_view key, const std::string& pattern) {
  try {
    std::regex compiled(pattern);
  } catch (const std::regex_error& e) {
    return Status::InvalidArgument(std::string(conf) + " " + std::string(key) + "=" + pattern +
                                   ": not a regular expression (" + e.what() + ")");
  }
  return Status::OK();
}

bool IsFlinkCdcTuningKey(std::string_view key) {
  for (std::string_view prefix : {"scan.incremental.", "chunk-", "jdbc.properties.", "debezium."}) {
    if (key.substr(0, prefix.size()) == prefix) return true;
  }
  return key == "connection.pool.size" || key == "scan.newly-added-table.enabled" ||
         key == "scan.parse.online.schema.changes.enabled" || key == "use.legacy.json.format" ||
         key == "changelog-mode";
}

}  // namespace sluice
