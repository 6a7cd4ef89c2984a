// EarlyFullCompaction: full compactions the universal strategy runs before its own picks (Java
// mergetree.compact.EarlyFullCompaction): once per `compaction.optimization-interval`, whenever
// the bucket is smaller than `compaction.total-size-threshold`, or when the files above the
// highest level exceed `compaction.incremental-size-threshold`.
//
// Thread safety: not thread-safe; one instance per bucket.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "sluice/lsm/compact_unit.h"
#include "sluice/lsm/compaction_options.h"

namespace sluice {

class EarlyFullCompaction {
 public:
  using Clock = std::function<int64_t()>;  // epoch milliseconds

  EarlyFullCompaction(std::optional<int64_t> interval_millis,
                      std::optional<int64_t> total_size_threshold,
                      std::optional<int64_t> incremental_size_threshold,
                      std::optional<int64_t> last_full_compaction_millis = std::nullopt,
                      Clock clock = nullptr);

  // Nothing when none of the three options is set. `last_full_compaction_millis` is the time
  // of the last full compaction as estimated from restored files.
  static std::unique_ptr<EarlyFullCompaction> Make(
      const CompactionOptions& options, std::optional<int64_t> last_full_compaction_millis);

  std::optional<CompactUnit> TryFullCompact(int num_levels,
                                            const std::vector<LevelSortedRun>& runs);
  void UpdateLastFullCompaction() { last_full_compaction_ = clock_(); }

 private:
  std::optional<int64_t> interval_;
  std::optional<int64_t> total_size_threshold_;
  std::optional<int64_t> incremental_size_threshold_;
  std::optional<int64_t> last_full_compaction_;
  Clock clock_;
};

// Java MergeTreeCompactManagerFactory.estimateLastFullCompactionTime: the newest creation time
// of the files on the highest level, or nothing when it is empty.
std::optional<int64_t> EstimateLastFullCompaction(const std::vector<DataFileMeta>& files,
                                                  int num_levels);

}  // namespace sluice
