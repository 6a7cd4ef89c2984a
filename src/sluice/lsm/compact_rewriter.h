// CompactRewriter: what a primary-key compaction does to files (Java
// mergetree.compact.CompactRewriter): merge sorted runs into new files at a level, or move one
// file to a higher level without rewriting it. Implemented in table/sink
// (MergeTreeCompactRewriter) where the data file reader and writer live.
//
// Thread safety: one compaction at a time; a compact manager running in the background calls
// it from its compaction thread only.
#pragma once

#include <vector>

#include "sluice/lsm/compact_unit.h"
#include "sluice/lsm/sorted_run.h"
#include "sluice/result.h"

namespace sluice {

class CompactRewriter {
 public:
  virtual ~CompactRewriter() = default;

  // Merges `sections` (key-disjoint, each a set of sorted runs) with the table's merge function
  // into new files at `output_level`. With `drop_delete` records whose merged kind is -U or -D
  // are not written (the output is the oldest data of the bucket). Before = every input file.
  virtual Result<CompactResult> Rewrite(int output_level, bool drop_delete,
                                        const std::vector<std::vector<SortedRun>>& sections) = 0;

  // Lookup compaction (first-row tables, read without merging): the runs above the output
  // level that the coming compaction leaves in place. A rewriter that drops the keys already
  // present there (Java FirstRowMergeFunctionWrapper over LookupLevels) reads them. Called on
  // the compaction's thread before its Rewrite / Upgrade calls.
  virtual void SetHigherRuns(std::vector<SortedRun> /*runs*/) {}
  // Whether a level-0 file must be rewritten (looked up) rather than moved up as it is (Java
  // FirstRowMergeTreeCompactRewriter.upgradeStrategy).
  virtual bool RewritesLevel0Upgrades() const { return false; }
  // Called on the compaction's thread once its Rewrite / Upgrade calls all succeeded, with
  // their merged result: a rewriter that keeps state beside the files (the deletion vectors of
  // LookupMergeTreeCompactRewriter) records it there (CompactResult::deletion_file).
  virtual Status FinishCompaction(CompactResult* /*result*/) { return Status::OK(); }
  // The same file at `output_level` (Java AbstractCompactRewriter.upgrade, DataFileMeta.upgrade).
  virtual Result<CompactResult> Upgrade(int output_level, const DataFileMeta& file) {
    CompactResult result;
    result.before.push_back(file);
    result.after.push_back(file);
    result.after.back().level = output_level;
    return result;
  }
};

}  // namespace sluice
