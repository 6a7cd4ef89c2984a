// ForceUpLevel0Compaction: universal compaction that, when universal picks nothing, still moves
// every level-0 file up (Java mergetree.compact.ForceUpLevel0Compaction); with
// `max_compact_interval` it does so only on every max_compact_interval-th call (lookup
// `gentle` mode). Used for `compaction.force-up-level-0` and lookup changelog.
//
// Thread safety: not thread-safe; one per bucket.
#pragma once

#include <memory>
#include <optional>

#include "sluice/lsm/universal_compaction.h"

namespace sluice {

class ForceUpLevel0Compaction : public CompactStrategy {
 public:
  ForceUpLevel0Compaction(std::unique_ptr<UniversalCompaction> universal,
                          std::optional<int> max_compact_interval)
      : universal_(std::move(universal)), max_compact_interval_(max_compact_interval) {}

  std::optional<CompactUnit> Pick(int num_levels,
                                  const std::vector<LevelSortedRun>& runs) override {
    std::optional<CompactUnit> pick = universal_->Pick(num_levels, runs);
    if (pick) return pick;
    if (!max_compact_interval_) return universal_->ForcePickL0(num_levels, runs);
    if (++trigger_count_ == *max_compact_interval_) {
      trigger_count_ = 0;
      return universal_->ForcePickL0(num_levels, runs);
    }
    return std::nullopt;
  }

 private:
  std::unique_ptr<UniversalCompaction> universal_;
  std::optional<int> max_compact_interval_;
  int trigger_count_ = 0;
};

}  // namespace sluice
