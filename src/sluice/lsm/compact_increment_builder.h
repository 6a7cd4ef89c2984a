// CompactIncrementBuilder: collects the results of a bucket's compactions between two commits
// into the CompactIncrement of its next CommitMessageImpl (Java MergeTreeWriter.updateCompactResult
// and drainIncrement; AppendOnlyWriter does the same).
//
// A file that one compaction wrote and a later one (before the commit) rewrote again never
// reaches a snapshot: it is dropped from both lists and returned by Add() so the writer can
// delete it, unless it is an upgraded file (same name before and after), which snapshots do
// reference.
//
// Thread safety: not thread-safe; owned by one writer.
#pragma once

#include <vector>

#include "sluice/lsm/compact_unit.h"
#include "sluice/table/sink/commit_message.h"

namespace sluice {

class CompactIncrementBuilder {
 public:
  // Records `result`; returns the intermediate files that can be deleted from disk now.
  std::vector<DataFileMeta> Add(const CompactResult& result);

  // The increment since the last Drain(), and starts over.
  CompactIncrement Drain();

  // Files compactions wrote that no commit holds yet, for a writer closed without committing
  // to delete (upgraded files excluded: a snapshot references them).
  std::vector<DataFileMeta> UncommittedFiles() const;

  bool empty() const { return before_.empty() && after_.empty() && changelog_.empty(); }

 private:
  std::vector<DataFileMeta> before_;  // unique by file name, in first-seen order
  std::vector<DataFileMeta> after_;
  std::vector<DataFileMeta> changelog_;
};

}  // namespace sluice
