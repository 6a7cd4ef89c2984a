// TableCommit: the committing half of a write (Java TableCommit): the CommitMessages of any
// number of TableWrites, in any number of processes (CommitMessage::Serialize), become one
// snapshot (or two: APPEND, then COMPACT for compactions), created atomically; conflicts with
// concurrent committers are retried or fail with a Conflict status. Made by
// WriteBuilder::NewCommit.
//
// Thread safety: not thread-safe; use one TableCommit per thread. Any number of TableCommits,
// in any number of processes, may commit to one table at the same time.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sluice/commit_message.h"
#include "sluice/commit_result.h"
#include "sluice/partition_spec.h"
#include "sluice/result.h"
#include "sluice/table_write.h"

namespace sluice {

class CommitMaintenance;
class FileStoreCommit;

class TableCommit {
 public:
  ~TableCommit();
  TableCommit(const TableCommit&) = delete;
  TableCommit& operator=(const TableCommit&) = delete;

  const std::string& commit_user() const;

  // Commits `messages` under `commit_identifier`; the snapshots made are in the result (none
  // when there was nothing to commit, or the identifier was committed before: `skipped`).
  // After a commit that made a snapshot, the table's maintenance runs as in Java: snapshot
  // expiry (`snapshot.num-retained.*`, `snapshot.time-retained`, ...), long-lived changelog
  // expiry, partition expiry (`partition.expiration-time`), automatic tags
  // (`tag.automatic-creation`, `tag.num-retained-max`, tag retention); its failure is in
  // CommitResult::maintenance_failed, the commit stands. `watermark` (epoch millis, as a Flink
  // job's) goes into the snapshots made; `tag.automatic-creation = watermark` tags by it.
  Result<CommitResult> Commit(std::vector<CommitMessage> messages,
                              int64_t commit_identifier = TableWrite::kBatchCommitIdentifier,
                              std::optional<int64_t> watermark = std::nullopt);

  // The identifiers (ascending) this commit user has not committed yet: what a restarted
  // writer must commit again.
  Result<std::vector<int64_t>> FilterCommitted(std::vector<int64_t> identifiers);

 private:
  friend class WriteBuilder;
  // `overwrite`: unset for an ordinary commit; set to the static partition spec (or nullopt
  // for a dynamic overwrite) for INSERT OVERWRITE.
  TableCommit(std::unique_ptr<FileStoreCommit> commit,
              std::unique_ptr<CommitMaintenance> maintenance,
              std::optional<std::optional<PartitionSpec>> overwrite);

  std::unique_ptr<FileStoreCommit> commit_;
  std::unique_ptr<CommitMaintenance> maintenance_;
  std::optional<std::optional<PartitionSpec>> overwrite_;
};

}  // namespace sluice
