// CompactStrategy: picks the sorted runs of a bucket that the next compaction rewrites (Java
// mergetree.compact.CompactStrategy).
//
//  - compaction is by sorted runs, not by files;
//  - level 0 holds one run per file, every other level one run;
//  - a compaction takes runs from the smallest level upward, a prefix of LevelSortedRuns().
//
// Thread safety: implementations keep state (timers, counters); one instance per bucket.
#pragma once

#include <optional>
#include <vector>

#include "sluice/lsm/compact_unit.h"
#include "sluice/lsm/sorted_run.h"

namespace sluice {

class CompactStrategy {
 public:
  virtual ~CompactStrategy() = default;
  // `runs`: the bucket's runs, level 0 newest first, then levels upward.
  virtual std::optional<CompactUnit> Pick(int num_levels,
                                          const std::vector<LevelSortedRun>& runs) = 0;
};

// Every file of the bucket into the highest level (Java CompactStrategy.pickFullCompaction).
// Nothing when there are no runs, or when the only run is the highest level already (unless
// `force_rewrite_all_files`, which rewrites its files one by one).
std::optional<CompactUnit> PickFullCompaction(int num_levels,
                                              const std::vector<LevelSortedRun>& runs,
                                              bool force_rewrite_all_files = false);

}  // namespace sluice
