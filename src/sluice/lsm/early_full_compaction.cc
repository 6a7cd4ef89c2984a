#include "sluice/lsm/early_full_compaction.h"

#include <chrono>

namespace sluice {
namespace {

int64_t SystemMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

EarlyFullCompaction::EarlyFullCompaction(std::optional<int64_t> interval_millis,
                                         std::optional<int64_t> total_size_threshold,
                                         std::optional<int64_t> incremental_size_threshold,
                                         std::optional<int64_t> last_full_compaction_millis,
                                         Clock clock)
    : interval_(interval_millis),
      total_size_threshold_(total_size_threshold),
      incremental_size_threshold_(incremental_size_threshold),
      last_full_compaction_(last_full_compaction_millis),
      clock_(clock ? std::move(clock) : Clock(SystemMillis)) {}

std::unique_ptr<EarlyFullCompaction> EarlyFullCompaction::Make(
    const CompactionOptions& options, std::optional<int64_t> last_full_compaction_millis) {
  if (!options.optimization_interval_millis && !options.total_size_threshold &&
      !options.incremental_size_threshold) {
    return nullptr;
  }
  return std::make_unique<EarlyFullCompaction>(
      options.optimization_interval_millis, options.total_size_threshold,
      options.incremental_size_threshold, last_full_compaction_millis);
}

std::optional<CompactUnit> EarlyFullCompaction::TryFullCompact(
    int num_levels, const std::vector<LevelSortedRun>& runs) {
  if (runs.size() == 1) return std::nullopt;
  const int max_level = num_levels - 1;
  if (interval_) {
    if (!last_full_compaction_ || clock_() - *last_full_compaction_ > *interval_) {
      UpdateLastFullCompaction();
      return CompactUnit::FromLevelRuns(max_level, runs);
    }
  }
  if (total_size_threshold_) {
    int64_t total = 0;
    for (const LevelSortedRun& run : runs) total += run.run.total_size();
    if (total < *total_size_threshold_) {
      UpdateLastFullCompaction();
      return CompactUnit::FromLevelRuns(max_level, runs);
    }
  }
  if (incremental_size_threshold_) {
    int64_t incremental = 0;
    for (const LevelSortedRun& run : runs) {
      if (run.level != max_level) incremental += run.run.total_size();
    }
    if (incremental > *incremental_size_threshold_) {
      UpdateLastFullCompaction();
      return CompactUnit::FromLevelRuns(max_level, runs);
    }
  }
  return std::nullopt;
}

std::optional<int64_t> EstimateLastFullCompaction(const std::vector<DataFileMeta>& files,
                                                  int num_levels) {
  std::optional<int64_t> newest;
  for (const DataFileMeta& file : files) {
    if (file.level != num_levels - 1 || !file.creation_time) continue;
    // creation_time is the writer's local time as UTC millis (format-spec 4.7); Java converts it
    // with the JVM's time zone, Sluice takes it as is: the estimate may be off by the zone offset.
    const int64_t t = file.creation_time->millisecond;
    if (!newest || t > *newest) newest = t;
  }
  return newest;
}

}  // namespace sluice
