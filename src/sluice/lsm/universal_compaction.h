// UniversalCompaction: RocksDB-style universal compaction as Paimon picks it (Java
// mergetree.compact.UniversalCompaction), trading read and space amplification for low write
// amplification. Pick() tries, in order:
//   0. an early full compaction (EarlyFullCompaction), when configured;
//   1. size amplification: every run but the oldest together exceeds
//      `compaction.max-size-amplification-percent` of the oldest -> all runs to the max level;
//   2. size ratio: starting from the newest run, take the next run while it is not larger than
//      the candidates' total by more than `compaction.size-ratio` percent (plus the off-peak
//      ratio);
//   3. file number: more than `num-sorted-run.compaction-trigger` runs -> the newest
//      (runs - trigger + 1) runs, extended by size ratio.
// Steps 1 and 2 need at least `num-sorted-run.compaction-trigger` runs. The output level is the
// level below the first run not taken (never level 0), or the max level when all runs are taken.
//
// Thread safety: not thread-safe (the early full compaction keeps a timer); one per bucket.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "sluice/lsm/compact_strategy.h"
#include "sluice/lsm/early_full_compaction.h"

namespace sluice {

// `compaction.offpeak.*` (Java OffPeakHours): an extra size ratio inside [start, end) hours.
class OffPeakHours {
 public:
  // Nothing when either hour is -1 or both are equal.
  static std::optional<OffPeakHours> Make(int start_hour, int end_hour, int ratio) {
    if (start_hour == -1 || end_hour == -1 || start_hour == end_hour) return std::nullopt;
    return OffPeakHours(start_hour, end_hour, ratio);
  }
  int CurrentRatio(int hour) const {
    bool off_peak =
        start_ <= end_ ? (start_ <= hour && hour < end_) : (hour < end_ || start_ <= hour);
    return off_peak ? ratio_ : 0;
  }

 private:
  OffPeakHours(int start, int end, int ratio) : start_(start), end_(end), ratio_(ratio) {}
  int start_;
  int end_;
  int ratio_;
};

class UniversalCompaction : public CompactStrategy {
 public:
  using HourClock = std::function<int()>;  // the local hour of day, 0..23

  UniversalCompaction(int max_size_amp, int size_ratio, int num_run_compaction_trigger,
                      std::unique_ptr<EarlyFullCompaction> early_full_compaction = nullptr,
                      std::optional<OffPeakHours> off_peak = std::nullopt,
                      HourClock hour_clock = nullptr);

  std::optional<CompactUnit> Pick(int num_levels, const std::vector<LevelSortedRun>& runs) override;

  // All level-0 runs, extended by size ratio (Java forcePickL0); nothing without level-0 runs.
  std::optional<CompactUnit> ForcePickL0(int num_levels, const std::vector<LevelSortedRun>& runs);

  // The steps of Pick(), exposed for tests as Java's @VisibleForTesting methods.
  std::optional<CompactUnit> PickForSizeAmp(int max_level, const std::vector<LevelSortedRun>& runs);
  std::optional<CompactUnit> PickForSizeRatio(int max_level,
                                              const std::vector<LevelSortedRun>& runs);
  std::optional<CompactUnit> PickForSizeRatio(int max_level,
                                              const std::vector<LevelSortedRun>& runs,
                                              int candidate_count, bool force_pick);
  // The first `run_count` runs and the level they go to.
  CompactUnit CreateUnit(const std::vector<LevelSortedRun>& runs, int max_level, int run_count);

 private:
  int RatioForOffPeak() const;

  int max_size_amp_;
  int size_ratio_;
  int num_run_compaction_trigger_;
  std::unique_ptr<EarlyFullCompaction> early_full_compaction_;
  std::optional<OffPeakHours> off_peak_;
  HourClock hour_clock_;
};

}  // namespace sluice
