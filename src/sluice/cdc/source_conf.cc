#include "sluice/cdc/source_conf.h"

#include <charconv>
#include <regex>

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
