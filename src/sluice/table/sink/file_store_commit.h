// FileStoreCommit: turns the CommitMessages of writers into snapshots (Java FileStoreCommitImpl,
// as of Paimon 1.3).
//
// One commit of a committable makes up to two snapshots:
//   APPEND     new files, changelog files and index files of the writers' data increments
//              (OVERWRITE instead when the increment deletes files or carries deletion vectors,
//              as Java does);
//   COMPACT    the compaction increments (files compacted before/after, their changelog and
//              index files), committed after the APPEND snapshot.
// A compaction that cannot be committed after its data landed (a concurrent compaction or
// overwrite took its input files: a conflict; or any other failure) does not fail the commit:
// the COMPACT snapshot is dropped (CommitResult::compaction_dropped says why), its new files
// are deleted when its snapshot certainly did not land, and the data stays committed. A
// commit that committed nothing fails (a compaction-only commit that conflicts still deletes
// its new files). The writer that produced a dropped compaction no longer matches the table:
// open a new one (it restores from the latest snapshot).
// Each snapshot is made by
//   1. checking for conflicts with the latest snapshot when the commit deletes files
//      (conflict_detection.h): a conflict fails the commit, it is not retried;
//   2. merging the latest snapshot's data manifests into the new base manifest list
//      (manifest_file_merger.h), writing the entries of the commit into new manifest files
//      (rolled at `manifest.target-file-size`) listed by the delta manifest list, the changelog
//      files likewise into a changelog manifest list, and a new index manifest carrying the
//      previous one's live entries forward with the commit's index files applied;
//   3. creating `snapshot/snapshot-<latest + 1>` atomically, never replacing an existing file,
//      then updating the LATEST hint (and EARLIEST for the first snapshot); the creation holds
//      the table's catalog lock when its catalog set one (catalog_lock.h, Java's
//      RenamingSnapshotCommit), and fails, the attempt's files deleted, when the lock cannot be
//      acquired or the table was renamed or dropped meanwhile.
// Losing the race for the snapshot file (another committer took the id) discards the files of
// the attempt and starts again from the new latest snapshot, conflicts re-checked, with
// exponential backoff between `commit.min-retry-wait` and `commit.max-retry-wait`, up to
// `commit.max-retries` retries (or `commit.timeout`); then the commit fails with a Conflict.
// A crash at any point leaves the table at the snapshots already created: files written before
// the snapshot file exists are orphans no snapshot refers to.
//
// Idempotence: a commit user's commits carry increasing identifiers; Commit() skips a
// committable whose identifier is not above the latest identifier this user committed (Java
// filterCommitted), so a writer that replays its last commits after a restart commits each
// once. The lookup walks the snapshots newest first until one of this user (once per
// FileStoreCommit; later commits remember their identifier). Batch commits
// (Snapshot::kBatchCommitIdentifier) are not filtered: like Java's batch commits they are
// one-shot, normally with a fresh commit user each.
//
// Thread safety: not thread-safe; use one FileStoreCommit per thread. Any number of
// FileStoreCommits, in any number of processes, may commit to one table at the same time.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sluice/commit_result.h"
#include "sluice/io/commit_message_impl.h"
#include "sluice/meta/manifest_file_merger.h"
#include "sluice/meta/manifest_file_writer.h"
#include "sluice/meta/snapshot.h"
#include "sluice/partition_spec.h"
#include "sluice/result.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/sink/commit_metrics.h"

namespace sluice {

// What one commit hands over (Java ManifestCommittable).
struct ManifestCommittable {
  int64_t identifier = Snapshot::kBatchCommitIdentifier;
  std::vector<CommitMessageImpl> messages;
  std::optional<int64_t> watermark;
  // Snapshot `properties`; none when empty.
  std::vector<std::pair<std::string, std::string>> properties;
};

class FileStoreCommit {
 public:
  // Commit options are read from the table's options: `manifest.format`,
  // `manifest.compression`, `manifest.target-file-size`, `manifest.merge-min-count`,
  // `manifest.full-compaction-threshold-size`, `commit.max-retries`, `commit.timeout`,
  // `commit.min-retry-wait`, `commit.max-retry-wait`. InvalidArgument naming a bad value.
  static Result<std::unique_ptr<FileStoreCommit>> Make(std::shared_ptr<const FileStoreTable> table,
                                                       std::string commit_user);

  const std::string& commit_user() const { return commit_user_; }

  // Commits the data increments (APPEND snapshot), then the compaction increments (COMPACT
  // snapshot). A committable without changes commits nothing.
  Result<CommitResult> Commit(const ManifestCommittable& committable);

  // INSERT OVERWRITE (one OVERWRITE snapshot, then a COMPACT snapshot for compaction
  // increments). `static_partition` set: every live file of the partitions matching the spec
  // is deleted (the whole table for an empty spec) and the new files must lie in them.
  // `static_partition` unset (dynamic overwrite): only the partitions the new files are in are
  // replaced (the whole table when it is not partitioned); no new files, nothing replaced.
  // Changelog files are not committed by an overwrite (as in Java).
  Result<CommitResult> Overwrite(const ManifestCommittable& committable,
                                 const std::optional<PartitionSpec>& static_partition);

  // Drops the partitions matching any of `partitions` (each may name a prefix of the partition
  // keys; an empty spec matches the whole table) in one OVERWRITE snapshot that deletes their
  // live data and index files (Java dropPartitions, batch commit identifier). Nothing live in
  // them: no snapshot, an empty result. InvalidArgument naming a key that is not a partition
  // key or a value that does not parse.
  Result<CommitResult> DropPartitions(const std::vector<PartitionSpec>& partitions);

  // The identifiers (ascending) this commit user has not committed yet.
  Result<std::vector<int64_t>> FilterCommitted(std::vector<int64_t> identifiers);

  // Report into `registry`'s commit group of this table (commit_metrics.h; Java
  // withMetricRegistry). REQUIRES: the registry outlives this commit.
  void WithMetricRegistry(MetricRegistryImpl* registry);

  // Test-only: called with the name of each step of a commit attempt as it is reached
  // ("manifests-written", "base-list-written", "delta-list-written", "index-manifest-written",
  // "before-snapshot", "snapshot-written", "hint-written"), so a test can crash the process
  // between steps.
  void SetStepHookForTesting(std::function<void(std::string_view step)> hook) {
    step_hook_ = std::move(hook);
  }

 private:
  // The files one snapshot commits.
  struct ChangeSet {
    std::vector<ManifestEntry> table_files;
    std::vector<ManifestEntry> changelog_files;
    std::vector<IndexManifestEntry> index_files;
  };
  // The changes of an attempt, given the latest snapshot it builds on (overwrites delete what is
  // live in that snapshot).
  using ChangesProvider = std::function<Result<ChangeSet>(const std::optional<Snapshot>& latest)>;

  FileStoreCommit(std::shared_ptr<const FileStoreTable> table, std::string commit_user);
  Status Init();

  // Runs attempts until one lands, fails with a conflict, or retries run out; appends the new
  // snapshot id to `result`. On failure `*outcome_unknown` says whether the last snapshot
  // write may have landed after all (its files must then stay).
  Status TryCommit(const ChangesProvider& changes, CommitKind kind, bool check_conflicts,
                   const ManifestCommittable& committable, CommitResult* result,
                   bool* outcome_unknown);
  // The COMPACT snapshot of `compact`; a failure after data landed drops it (see the top).
  Status CommitCompaction(const ChangeSet& compact, const ManifestCommittable& committable,
                          CommitResult* result);
  // Deletes the new files of the committable's compaction increments; returns how many.
  int64_t DeleteCompactionOutput(const ManifestCommittable& committable);
  // One attempt on `latest`. Sets `*landed_id` when the snapshot landed (or an earlier attempt,
  // whose outcome was uncertain, is found to have landed). Sets `*retry_later` when the race
  // for the snapshot id was lost or the snapshot write had an unknown outcome; other errors
  // (conflicts, failures before the snapshot write) end the commit. Sets `*outcome_unknown`
  // after a snapshot write of unknown outcome, clears it once the earlier attempts are known
  // not to have landed. `previous_latest`: the latest snapshot id of the previous attempt, if
  // any.
  Status TryCommitOnce(const ChangeSet& changes, CommitKind kind, bool check_conflicts,
                       const ManifestCommittable& committable,
                       const std::optional<Snapshot>& latest,
                       const std::optional<std::optional<int64_t>>& previous_latest,
                       std::optional<int64_t>* landed_id, bool* retry_later, bool* outcome_unknown);

  // The live (folded) entries of `snapshot` whose partition `partition_filter` accepts (all
  // when null). With `partitions` (serialized), only those partitions are wanted, and manifests
  // whose partition statistics exclude them all are not read.
  Result<std::vector<ManifestEntry>> ReadLiveEntries(
      const Snapshot& snapshot, const std::function<bool(const std::string&)>& partition_filter,
      const std::set<std::string>* partitions = nullptr);
  // Whether a serialized partition matches `spec` (values in Java's text, the default
  // partition name for null). InvalidArgument naming an unknown key or a bad value.
  Result<std::function<bool(const std::string&)>> PartitionSpecMatcher(
      const PartitionSpec& spec) const;
  Result<std::optional<int64_t>> LatestIdentifierOfUser();
  // True when this user already committed `identifier` (Java filterCommitted).
  Result<bool> AlreadyCommitted(int64_t identifier);
  Result<int64_t> LatestSchemaId() const;
  void Step(std::string_view name) const {
    if (step_hook_) step_hook_(name);
  }
  void SleepBeforeRetry(int retry) const;
  // A commit call begins / succeeded, for the metrics.
  void BeginCommitMetrics() const {
    if (metrics_) metrics_->BeginCommit();
  }
  void ReportCommitMetrics(int64_t start_ms, const CommitResult& result) const;

  std::shared_ptr<const FileStoreTable> table_;
  std::string commit_user_;
  DataTypePtr partition_type_;
  DataTypePtr key_type_;  // trimmed primary key; null for append tables
  ManifestMergeOptions merge_options_;
  std::shared_ptr<const FileFormat> manifest_format_;
  WriterOptions manifest_writer_options_;
  int32_t max_retries_ = 10;
  std::optional<int64_t> timeout_ms_;
  int64_t min_retry_wait_ms_ = 10;
  int64_t max_retry_wait_ms_ = 10000;
  MetaFileNamer namer_;
  // The latest identifier this user committed, once looked up.
  std::optional<std::optional<int64_t>> last_identifier_;
  std::function<void(std::string_view)> step_hook_;
  std::unique_ptr<CommitMetrics> metrics_;
};

}  // namespace sluice
