// TableCommit: the committing half of a write (Java TableCommit): the CommitMessages of any
// number of TableWriters become one snapshot (or two: APPEND, then COMPACT for compactions),
// created atomically; conflicts with concurrent committers are retried or fail with a
// Conflict status (file_store_commit.h). A compaction that loses a race after the data landed
// is dropped, not failed: the result's `compaction_dropped` says why (the TableWriter that
// made it no longer matches the table: write on with a new one).
//
// Thread safety: not thread-safe; use one TableCommit per thread. Any number of TableCommits,
// in any number of processes, may commit to one table at the same time.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "sluice/base/result.h"
#include "sluice/io/commit_message.h"
#include "sluice/meta/snapshot.h"
#include "sluice/table/sink/file_store_commit.h"

namespace sluice {

class TableCommit {
 public:
  // `overwrite`: unset for an ordinary commit; set to the static partition spec (or nullopt
  // for a dynamic overwrite) for INSERT OVERWRITE.
  TableCommit(std::unique_ptr<FileStoreCommit> commit,
              std::optional<std::optional<PartitionSpec>> overwrite)
      : commit_(std::move(commit)), overwrite_(std::move(overwrite)) {}

  const std::string& commit_user() const { return commit_->commit_user(); }

  // Commits `messages` under `commit_identifier`; the snapshots made are in the result (none
  // when there was nothing to commit, or the identifier was committed before: `skipped`).
  Result<CommitResult> Commit(std::vector<CommitMessage> messages,
                              int64_t commit_identifier = Snapshot::kBatchCommitIdentifier);

  // The identifiers (ascending) this commit user has not committed yet: what a restarted
  // writer must commit again.
  Result<std::vector<int64_t>> FilterCommitted(std::vector<int64_t> identifiers);

 private:
  std::unique_ptr<FileStoreCommit> commit_;
  std::optional<std::optional<PartitionSpec>> overwrite_;
};

}  // namespace sluice
