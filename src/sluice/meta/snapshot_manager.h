// SnapshotManager: finds and loads the snapshots of one branch of a table (Java
// SnapshotManager), using the EARLIEST / LATEST hints with Java's fallback to listing the
// directory when a hint is missing or stale (hint_file.h).
//
// Thread safety: const methods are as thread-safe as the FileIO; the object is immutable.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/fs/file_io.h"
#include "sluice/meta/file_paths.h"
#include "sluice/meta/snapshot.h"
#include "sluice/result.h"

namespace sluice {

class SnapshotManager {
 public:
  // How many ids past the earliest hint EarliestSnapshot() tries when snapshot files vanish
  // under a concurrent expiration (Java EARLIEST_SNAPSHOT_DEFAULT_RETRY_NUM).
  static constexpr int64_t kEarliestRetries = 300;

  // `branch` "main" (or blank) is the table root; others live under branch/branch-<name>/.
  SnapshotManager(std::shared_ptr<FileIO> io, std::string table_path,
                  std::string_view branch = kMainBranch);

  const std::string& table_path() const { return table_path_; }
  const std::string& branch() const { return branch_; }
  std::string snapshot_dir() const { return SnapshotDir(branch_path_); }
  std::string snapshot_path(int64_t id) const { return SnapshotPath(branch_path_, id); }

  // nullopt when the branch has no snapshot.
  Result<std::optional<int64_t>> LatestSnapshotId() const;
  Result<std::optional<int64_t>> EarliestSnapshotId() const;
  Result<bool> SnapshotExists(int64_t id) const;

  // NotFound "snapshot <id> does not exist: <path>" when the file is missing; a malformed file
  // is a Corruption naming the path and the field.
  Result<Snapshot> LoadSnapshot(int64_t id) const;
  Result<std::optional<Snapshot>> LatestSnapshot() const;
  // The earliest snapshot, skipping forward over files deleted since the hint was read.
  Result<std::optional<Snapshot>> EarliestSnapshot() const;

  // Ids of all snapshot files, ascending.
  Result<std::vector<int64_t>> ListSnapshotIds() const;
  // All snapshots, ascending by id.
  Result<std::vector<Snapshot>> ListSnapshots() const;

  // The latest snapshot committed at or before `time_millis` (binary search between earliest
  // and latest, as Java earlierOrEqualTimeMills); nullopt when none.
  Result<std::optional<Snapshot>> EarlierOrEqualTimeMillis(int64_t time_millis) const;
  // The earliest snapshot committed at or after `time_millis`; nullopt when none.
  Result<std::optional<Snapshot>> LaterOrEqualTimeMillis(int64_t time_millis) const;

  // Overwrite the LATEST / EARLIEST hint.
  Status CommitLatestHint(int64_t id) const;
  Status CommitEarliestHint(int64_t id) const;

 private:
  std::shared_ptr<FileIO> io_;
  std::string table_path_;
  std::string branch_;
  std::string branch_path_;
};

}  // namespace sluice
