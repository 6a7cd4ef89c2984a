#include "sluice/meta/expire_config.h"

#include <string>

#include "sluice/base/string_util.h"
#include "sluice/meta/option_value.h"

namespace sluice {
namespace {

Status ReadInt(const CoreOptions& options, std::string_view key, int32_t* out) {
  const std::string* v = options.Find(key);
  if (v == nullptr) return Status::OK();
  SLUICE_ASSIGN_OR_RETURN(*out, ParseIntOption(key, *v));
  return Status::OK();
}

Status ReadMillis(const CoreOptions& options, std::string_view key, int64_t* out) {
  const std::string* v = options.Find(key);
  if (v == nullptr) return Status::OK();
  SLUICE_ASSIGN_OR_RETURN(std::chrono::milliseconds ms, ParseDurationOption(key, *v));
  *out = ms.count();
  return Status::OK();
}

Status ReadBool(const CoreOptions& options, std::string_view key, bool* out) {
  const std::string* v = options.Find(key);
  if (v == nullptr) return Status::OK();
  SLUICE_ASSIGN_OR_RETURN(*out, ParseBooleanOption(key, *v));
  return Status::OK();
}

Status CheckAtLeastOne(std::string_view key, int32_t value) {
  if (value >= 1) return Status::OK();
  return Status::InvalidArgument("option '" + std::string(key) + "' must be at least 1: '" +
                                 std::to_string(value) + "'");
}

}  // namespace

Result<ExpireConfig> ExpireConfig::RetainedCounts(const CoreOptions& options) {
  ExpireConfig config;
  SLUICE_RETURN_NOT_OK(ReadInt(options, "snapshot.num-retained.min", &config.snapshot_retain_min));
  SLUICE_RETURN_NOT_OK(ReadInt(options, "snapshot.num-retained.max", &config.snapshot_retain_max));
  config.changelog_retain_min = config.snapshot_retain_min;
  config.changelog_retain_max = config.snapshot_retain_max;
  SLUICE_RETURN_NOT_OK(
      ReadInt(options, "changelog.num-retained.min", &config.changelog_retain_min));
  SLUICE_RETURN_NOT_OK(
      ReadInt(options, "changelog.num-retained.max", &config.changelog_retain_max));
  return config;
}

Result<ExpireConfig> ExpireConfig::FromOptions(const CoreOptions& options) {
  SLUICE_ASSIGN_OR_RETURN(ExpireConfig config, RetainedCounts(options));
  SLUICE_RETURN_NOT_OK(
      ReadMillis(options, "snapshot.time-retained", &config.snapshot_time_retain_millis));
  SLUICE_RETURN_NOT_OK(ReadInt(options, "snapshot.expire.limit", &config.snapshot_max_deletes));
  config.changelog_time_retain_millis = config.snapshot_time_retain_millis;
  SLUICE_RETURN_NOT_OK(
      ReadMillis(options, "changelog.time-retained", &config.changelog_time_retain_millis));
  config.changelog_max_deletes = config.snapshot_max_deletes;
  config.consumer_changelog_only = options.consumer_changelog_only();
  // Java reads the key, then its fallback key.
  const std::string_view clean_key = options.Find("snapshot.clean-empty-directories") != nullptr
                                         ? "snapshot.clean-empty-directories"
                                         : "snapshot.expire.clean-empty-directories";
  SLUICE_RETURN_NOT_OK(ReadBool(options, clean_key, &config.clean_empty_directories));
  if (const std::string* v = options.Find("snapshot.expire.execution-mode")) {
    const std::string mode = AsciiToLower(*v);
    if (mode == "sync") {
      config.execution_mode = ExpireExecutionMode::kSync;
    } else if (mode == "async") {
      config.execution_mode = ExpireExecutionMode::kAsync;
    } else {
      return Status::InvalidArgument(
          "option 'snapshot.expire.execution-mode' must be sync or async: '" + *v + "'");
    }
  }
  SLUICE_RETURN_NOT_OK(CheckAtLeastOne("snapshot.num-retained.min", config.snapshot_retain_min));
  SLUICE_RETURN_NOT_OK(CheckAtLeastOne("changelog.num-retained.min", config.changelog_retain_min));
  SLUICE_RETURN_NOT_OK(CheckAtLeastOne("snapshot.expire.limit", config.snapshot_max_deletes));
  return config;
}

}  // namespace sluice
