// CompactRewriter: what a primary-key compaction does to files (Java
// mergetree.compact.CompactRewriter): merge sorted runs into new files at a level, or move one
// file to a higher level without rewriting it. MergeTreeCompactManager decides which, and calls
// it. Implemented in table/sink, where the data file reader and writer live:
// MergeTreeCompactRewriter (with first-row's lookup), ChangelogMergeTreeRewriter (changelog
// producers `full-compaction` and `lookup`, `force-lookup`) and LookupMergeTreeCompactRewriter
// (deletion vectors; it hands the merge to one of the other two).
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

  // The runs above the output level that the coming compaction leaves in place; called on the
  // compaction's thread before each compaction's Rewrite / Upgrade calls. Rewriters that look
  // keys up there read them: first-row drops the keys already present (Java
  // FirstRowMergeFunctionWrapper), lookup changelog and deletion vectors merge with or
  // supersede the key's record found there (Java LookupLevels). Others ignore them.
  virtual void SetHigherRuns(std::vector<SortedRun> /*runs*/) {}
  // Whether a level-0 file must be rewritten (its keys looked up) rather than handed to
  // Upgrade (Java upgradeStrategy of FirstRowMergeTreeCompactRewriter and of
  // LookupMergeTreeCompactRewriter with deletion vectors): first-row and deletion-vector
  // tables. The manager also rewrites, whatever this says, a file that may hold deletes and
  // goes to the max level.
  virtual bool RewritesLevel0Upgrades() const { return false; }
  // Called on the compaction's thread once its Rewrite / Upgrade calls all succeeded, with
  // their merged result: a rewriter that keeps state beside the files (the deletion vectors of
  // LookupMergeTreeCompactRewriter) records it there (CompactResult::deletion_file).
  virtual Status FinishCompaction(CompactResult* /*result*/) { return Status::OK(); }
  // Moves `file` to `output_level`. Here: the same file at the new level, before and after
  // under one name (Java AbstractCompactRewriter.upgrade, DataFileMeta.upgrade).
  // ChangelogMergeTreeRewriter overrides it: a file moved up may be read for its changelog, or
  // rewritten (Java ChangelogMergeTreeRewriter.upgrade).
  virtual Result<CompactResult> Upgrade(int output_level, const DataFileMeta& file) {
    CompactResult result;
    result.before.push_back(file);
    result.after.push_back(file);
    result.after.back().level = output_level;
    return result;
  }
};

}  // namespace sluice
