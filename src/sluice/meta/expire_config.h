// ExpireConfig: how many snapshots and long-lived changelogs a table keeps, and for how long
// (Java ExpireConfig, built from the table options as Java CoreOptions.expireConfig()):
//
//   snapshot.num-retained.min        10     never expire the newest N snapshots (>= 1)
//   snapshot.num-retained.max        inf    always expire beyond the newest N
//   snapshot.time-retained           1 h    between min and max, keep what is younger
//   snapshot.expire.limit            50     at most N snapshots per expiry run
//   snapshot.expire.execution-mode   sync   sync: in the commit; async: beside the next commits
//   snapshot.clean-empty-directories false  (fallback key snapshot.expire.clean-empty-directories)
//   changelog.num-retained.min/max, changelog.time-retained: unset = the snapshot value
//   consumer.changelog-only          false  consumers protect changelog only, not snapshots
//
// The changelog is decoupled (kept in changelog/changelog-<id> after its snapshot expires) when
// any changelog retention is longer than the snapshot one.
//
// Thread safety: a value type.
#pragma once

#include <cstdint>

#include "sluice/meta/core_options.h"
#include "sluice/result.h"

namespace sluice {

enum class ExpireExecutionMode : unsigned char { kSync, kAsync };

struct ExpireConfig {
  int32_t snapshot_retain_min = 10;
  int32_t snapshot_retain_max = INT32_MAX;
  int64_t snapshot_time_retain_millis = 3600 * 1000;
  int32_t snapshot_max_deletes = 50;
  int32_t changelog_retain_min = 10;
  int32_t changelog_retain_max = INT32_MAX;
  int64_t changelog_time_retain_millis = 3600 * 1000;
  int32_t changelog_max_deletes = 50;
  bool consumer_changelog_only = false;
  bool clean_empty_directories = false;
  ExpireExecutionMode execution_mode = ExpireExecutionMode::kSync;

  bool changelog_decoupled() const {
    return changelog_retain_max > snapshot_retain_max ||
           changelog_retain_min > snapshot_retain_min ||
           changelog_time_retain_millis > snapshot_time_retain_millis;
  }

  // InvalidArgument naming the key and the value for a value that does not parse, or a
  // retained minimum below 1.
  static Result<ExpireConfig> FromOptions(const CoreOptions& options);
  // Only the retained counts (`snapshot.num-retained.*`, `changelog.num-retained.*`, the
  // changelog's following the snapshot's when unset), the rest at their defaults, unchecked:
  // what the schema validation checks with Java's messages. InvalidArgument for a value that
  // does not parse.
  static Result<ExpireConfig> RetainedCounts(const CoreOptions& options);
};

}  // namespace sluice
