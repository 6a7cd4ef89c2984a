#include "sluice/lsm/compact_strategy.h"

namespace sluice {

std::optional<CompactUnit> PickFullCompaction(int num_levels,
                                              const std::vector<LevelSortedRun>& runs,
                                              bool force_rewrite_all_files) {
  const int max_level = num_levels - 1;
  if (runs.empty()) return std::nullopt;
  if (runs.size() == 1 && runs[0].level == max_level) {
    // Java also rewrites files here that have expired records or deletion vectors; Sluice
    // supports neither record-level expiry nor deletion-vector compaction yet.
    if (!force_rewrite_all_files) return std::nullopt;
    CompactUnit unit;
    unit.output_level = max_level;
    unit.files = runs[0].run.files();
    unit.file_rewrite = true;
    return unit;
  }
  return CompactUnit::FromLevelRuns(max_level, runs);
}

}  // namespace sluice
