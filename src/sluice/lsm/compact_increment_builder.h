// CompactIncrementBuilder: collects the results of a bucket's compactions between two commits
// into the CompactIncrement of its next CommitMessageImpl (Java MergeTreeWriter.updateCompactResult
// and drainIncrement; AppendOnlyWriter does the same).
//
// A file that one compaction wrote and a later one (before the commit) rewrote again never
// reaches a snapshot: it is dropped from both lists and returned by Add() so the writer can
// delete it, unless it is an upgraded file (same name before and after), which snapshots do
// reference. Likewise a deletion-vector index file a later compaction replaced before the commit
// is deleted, the later one taking over the file the earlier one replaced.
//
// Thread safety: not thread-safe; owned by one writer.
#pragma once

#include <optional>
#include <vector>

#include "sluice/io/commit_message_impl.h"
#include "sluice/io/rolling_data_file_writer.h"
#include "sluice/lsm/compact_manager.h"
#include "sluice/lsm/compact_unit.h"
#include "sluice/status.h"

namespace sluice {

class CompactIncrementBuilder {
 public:
  // Records `result`; returns the intermediate files that can be deleted from disk now.
  std::vector<DataFileMeta> Add(const CompactResult& result);

  // Takes the compaction `manager` finished (waiting for it when `blocking`) into the
  // increment, deleting through `files` what Add() says no snapshot will reference.
  Status Sync(CompactManager& manager, bool blocking, const DataFileWriterFactory& files);

  // A writer closed without committing: cancels `manager`'s compaction and deletes the files
  // compactions wrote that no commit holds.
  void Abandon(CompactManager& manager, const DataFileWriterFactory& files);

  // The increment since the last Drain(), and starts over.
  CompactIncrement Drain();

  // Files compactions wrote that no commit holds yet, for a writer closed without committing
  // to delete (upgraded files excluded: a snapshot references them).
  std::vector<DataFileMeta> UncommittedFiles() const;

  bool empty() const {
    return before_.empty() && after_.empty() && changelog_.empty() && !deletion_file_;
  }

 private:
  std::vector<DataFileMeta> before_;  // unique by file name, in first-seen order
  std::vector<DataFileMeta> after_;
  std::vector<DataFileMeta> changelog_;
  std::optional<CompactDeletionFile> deletion_file_;
};

}  // namespace sluice
