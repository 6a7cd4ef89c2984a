#include "sluice/lsm/universal_compaction.h"

#include <algorithm>
#include <chrono>

#include "sluice/types/time_zone.h"

namespace sluice {
namespace {

// The hour of the day in the process's zone (Java LocalDateTime.now().getHour(), in the JVM's).
int LocalHour() {
  const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  const int64_t local = TimeZone::Process()->LocalMillis(now);
  return static_cast<int>(((local / 3600000) % 24 + 24) % 24);
}

std::vector<LevelSortedRun> Prefix(const std::vector<LevelSortedRun>& runs, int count) {
  return std::vector<LevelSortedRun>(runs.begin(), runs.begin() + count);
}

}  // namespace

UniversalCompaction::UniversalCompaction(int max_size_amp, int size_ratio,
                                         int num_run_compaction_trigger,
                                         std::unique_ptr<EarlyFullCompaction> early_full_compaction,
                                         std::optional<OffPeakHours> off_peak, HourClock hour_clock)
    : max_size_amp_(max_size_amp),
      size_ratio_(size_ratio),
      num_run_compaction_trigger_(num_run_compaction_trigger),
      early_full_compaction_(std::move(early_full_compaction)),
      off_peak_(off_peak),
      hour_clock_(hour_clock ? std::move(hour_clock) : HourClock(LocalHour)) {}

std::optional<CompactUnit> UniversalCompaction::Pick(int num_levels,
                                                     const std::vector<LevelSortedRun>& runs) {
  const int max_level = num_levels - 1;
  if (early_full_compaction_) {
    std::optional<CompactUnit> unit = early_full_compaction_->TryFullCompact(num_levels, runs);
    if (unit) return unit;
  }
  if (std::optional<CompactUnit> unit = PickForSizeAmp(max_level, runs)) return unit;
  if (std::optional<CompactUnit> unit = PickForSizeRatio(max_level, runs)) return unit;
  if (static_cast<int64_t>(runs.size()) > num_run_compaction_trigger_) {
    const int candidate_count = static_cast<int>(runs.size()) - num_run_compaction_trigger_ + 1;
    return PickForSizeRatio(max_level, runs, candidate_count, false);
  }
  return std::nullopt;
}

std::optional<CompactUnit> UniversalCompaction::ForcePickL0(
    int num_levels, const std::vector<LevelSortedRun>& runs) {
  int candidate_count = 0;
  while (candidate_count < static_cast<int>(runs.size()) && runs[candidate_count].level == 0) {
    ++candidate_count;
  }
  if (candidate_count == 0) return std::nullopt;
  return PickForSizeRatio(num_levels - 1, runs, candidate_count, true);
}

std::optional<CompactUnit> UniversalCompaction::PickForSizeAmp(
    int max_level, const std::vector<LevelSortedRun>& runs) {
  if (static_cast<int64_t>(runs.size()) < num_run_compaction_trigger_ || runs.empty()) {
    return std::nullopt;
  }
  int64_t candidate_size = 0;
  for (size_t i = 0; i + 1 < runs.size(); ++i) candidate_size += runs[i].run.total_size();
  const int64_t earliest_run_size = runs.back().run.total_size();
  // Size amplification: the percentage of additional size over the oldest run.
  if (candidate_size * 100 > static_cast<int64_t>(max_size_amp_) * earliest_run_size) {
    if (early_full_compaction_) early_full_compaction_->UpdateLastFullCompaction();
    return CompactUnit::FromLevelRuns(max_level, runs);
  }
  return std::nullopt;
}

std::optional<CompactUnit> UniversalCompaction::PickForSizeRatio(
    int max_level, const std::vector<LevelSortedRun>& runs) {
  if (static_cast<int64_t>(runs.size()) < num_run_compaction_trigger_) return std::nullopt;
  return PickForSizeRatio(max_level, runs, 1, false);
}

std::optional<CompactUnit> UniversalCompaction::PickForSizeRatio(
    int max_level, const std::vector<LevelSortedRun>& runs, int candidate_count, bool force_pick) {
  if (runs.empty()) return std::nullopt;
  candidate_count = std::min(candidate_count, static_cast<int>(runs.size()));
  int64_t candidate_size = 0;
  for (int i = 0; i < candidate_count; ++i) candidate_size += runs[i].run.total_size();
  bool triggered = force_pick || candidate_count > 1;
  const double ratio = 100.0 + size_ratio_ + RatioForOffPeak();
  for (int i = candidate_count; i < static_cast<int>(runs.size()); ++i) {
    const LevelSortedRun& next = runs[i];
    // Java compares in double: candidateSize * (100.0 + ratio) / 100.0 < next size.
    if (static_cast<double>(candidate_size) * ratio / 100.0 <
        static_cast<double>(next.run.total_size())) {
      if (!triggered || next.level > 1) break;
    }
    candidate_size += next.run.total_size();
    ++candidate_count;
    triggered = true;
  }
  if (!triggered) return std::nullopt;
  return CreateUnit(runs, max_level, candidate_count);
}

CompactUnit UniversalCompaction::CreateUnit(const std::vector<LevelSortedRun>& runs, int max_level,
                                            int run_count) {
  const int num_runs = static_cast<int>(runs.size());
  int output_level;
  if (run_count == num_runs) {
    output_level = max_level;
  } else {
    // The level below the next run.
    output_level = std::max(0, runs[run_count].level - 1);
  }
  if (output_level == 0) {
    // Never write level 0: take runs until one above level 0 (and write to its level).
    for (int i = run_count; i < num_runs; ++i) {
      const LevelSortedRun& next = runs[i];
      ++run_count;
      if (next.level != 0) {
        output_level = next.level;
        break;
      }
    }
  }
  if (run_count == num_runs) {
    if (early_full_compaction_) early_full_compaction_->UpdateLastFullCompaction();
    output_level = max_level;
  }
  return CompactUnit::FromLevelRuns(output_level, Prefix(runs, run_count));
}

int UniversalCompaction::RatioForOffPeak() const {
  return off_peak_ ? off_peak_->CurrentRatio(hour_clock_()) : 0;
}

}  // namespace sluice
