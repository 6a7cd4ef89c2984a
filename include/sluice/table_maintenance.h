// Table maintenance through the public API: snapshot and changelog expiry, partition expiry and
// dropping, rollback, orphan-file cleanup (Java ExpireSnapshotsImpl, ExpireChangelogImpl,
// PartitionExpire, FileStoreCommit.dropPartitions, RollbackHelper, LocalOrphanFilesClean; the
// procedures expire_snapshots, expire_changelogs, expire_partitions, drop_partition,
// rollback_to, rollback_to_timestamp, remove_orphan_files call these).
//
// Every operation works on the branch of `table` (Table::OnBranch) and keeps any file a
// retained snapshot, a tag, another branch, a long-lived changelog or a consumer still needs.
// Each is crash-safe: metadata that refers to a file goes before the file, so a process killed
// at any step leaves a table that reads as one committed state; what it leaves behind is at
// most orphan files, which RemoveOrphanFiles removes.
//
// Thread safety: the functions may run concurrently with readers and committers of the table
// (as Java's); two expiries of one table at the same time may both try to delete a file, which
// is harmless.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sluice/partition_spec.h"
#include "sluice/result.h"

namespace sluice {

class MetricRegistry;
class Table;

// Unset fields take the table's options (`snapshot.num-retained.max`, `...min`,
// `snapshot.time-retained`, `snapshot.expire.limit`). The `changelog.*` retention options do not
// apply: as Java's expire_snapshots procedure, an on-demand expiry deletes the changelog of the
// snapshots it expires (no long-lived changelog); the expiry after each commit keeps it.
struct ExpireSnapshotsOptions {
  std::optional<int32_t> retain_max;
  std::optional<int32_t> retain_min;
  // Snapshots committed before this time (epoch millis) may expire; default now minus
  // `snapshot.time-retained`.
  std::optional<int64_t> older_than_millis;
  std::optional<int32_t> max_deletes;
  // Counts the snapshots expired into `paimon_expire_snapshotsExpired_total` of the table
  // (docs/metrics.md), as the expiry after commits does; none when null.
  MetricRegistry* metrics = nullptr;
};

// Unset fields take the table's options (`changelog.num-retained.max`, `...min`,
// `changelog.time-retained`, each falling back to its snapshot option; `snapshot.expire.limit`).
struct ExpireChangelogsOptions {
  std::optional<int32_t> retain_max;
  std::optional<int32_t> retain_min;
  std::optional<int64_t> older_than_millis;
  std::optional<int32_t> max_deletes;
  // Delete every long-lived changelog (Java expire_changelogs delete_all => true).
  bool delete_all = false;
};

// What an expiry removed.
struct ExpireResult {
  // Snapshots (or long-lived changelogs) expired.
  int64_t expired = 0;
  // Data, changelog, manifest, index and statistics files deleted.
  int64_t files_deleted = 0;
};

// Expires the oldest snapshots as Java's ExpireSnapshotsImpl (what runs after each commit, or
// the `expire_snapshots` procedure). InvalidArgument when retain_max < retain_min or
// retain_min < 1.
Result<ExpireResult> ExpireSnapshots(const Table& table,
                                     const ExpireSnapshotsOptions& options = {});

// Expires long-lived changelogs (changelog/changelog-<id>) as Java's ExpireChangelogImpl.
Result<ExpireResult> ExpireChangelogs(const Table& table,
                                      const ExpireChangelogsOptions& options = {});

// Unset fields take the table's options (`partition.expiration-time`,
// `partition.timestamp-formatter`, `partition.timestamp-pattern`,
// `partition.expiration-strategy`, `partition.expiration-max-num`).
struct ExpirePartitionsOptions {
  // A duration as the option takes it ("7 d", "12 h").
  std::optional<std::string> expiration_time;
  std::optional<std::string> timestamp_formatter;
  std::optional<std::string> timestamp_pattern;
  // "values-time" or "update-time".
  std::optional<std::string> expiration_strategy;
  std::optional<int32_t> max_expires;
  // The clock (epoch millis); default now.
  std::optional<int64_t> now_millis;
};

// Drops the partitions older than the expiration time in one OVERWRITE snapshot (Java
// PartitionExpire.expire, ignoring `partition.expiration-check-interval`, which paces only the
// automatic runs at commit). Returns the partitions dropped, oldest first; none when no
// expiration time is set. InvalidArgument naming a bad option value.
Result<std::vector<PartitionSpec>> ExpirePartitions(const Table& table,
                                                    const ExpirePartitionsOptions& options = {});

// Drops the partitions matching each spec (a spec may name a prefix of the partition keys) in
// one OVERWRITE snapshot, as Java's dropPartitions. InvalidArgument naming an unknown key;
// returns the id of the snapshot made, or nullopt when no live file was in the partitions.
Result<std::optional<int64_t>> DropPartitions(const Table& table,
                                              const std::vector<PartitionSpec>& partitions);

// Makes `snapshot_id` the latest snapshot (Java RollbackHelper): later snapshots, later tags,
// later long-lived changelogs and the files only they use are deleted. NotFound naming the id
// when the snapshot does not exist (a tag's snapshot is restored from the tag).
Status RollbackTo(const Table& table, int64_t snapshot_id);
// Rolls back to the snapshot of tag `tag`; NotFound naming the tag.
Status RollbackToTag(const Table& table, const std::string& tag);
// Rolls back to the latest snapshot committed at or before `time_millis`; returns its id.
// NotFound naming the time when no snapshot is that old.
Result<int64_t> RollbackToTimestamp(const Table& table, int64_t time_millis);

struct RemoveOrphanFilesOptions {
  // Only files last modified before this time (epoch millis) are orphans; default a day ago,
  // so that the files of commits in flight are never touched.
  std::optional<int64_t> older_than_millis;
  // List the orphans, delete nothing.
  bool dry_run = false;
};

struct OrphanFilesResult {
  // The orphan files (deleted unless dry_run), full paths, sorted.
  std::vector<std::string> files;
  int64_t bytes = 0;
};

// Deletes files under the table that no snapshot, tag, branch, long-lived changelog or
// consumer refers to (Java LocalOrphanFilesClean): data and changelog files in the bucket
// folders, manifests, manifest lists, index and statistics files, and temporary files left by
// failed writes; on every branch. Empty directories left behind are removed.
Result<OrphanFilesResult> RemoveOrphanFiles(const Table& table,
                                            const RemoveOrphanFilesOptions& options = {});

}  // namespace sluice
