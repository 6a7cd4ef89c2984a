// CompactionOptions: the compaction settings of a table, taken from CoreOptions (Java
// CoreOptions accessors of the same names) into one value the compaction code can copy.
//
// Thread safety: a value type.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

#include "sluice/meta/core_options.h"
#include "sluice/result.h"

namespace sluice {

struct CompactionOptions {
  int32_t num_sorted_run_compaction_trigger = 5;  // num-sorted-run.compaction-trigger
  int32_t num_sorted_run_stop_trigger = 8;        // num-sorted-run.stop-trigger
  int32_t num_levels = 6;                         // num-levels
  int32_t max_size_amplification_percent = 200;   // compaction.max-size-amplification-percent
  int32_t size_ratio = 1;                         // compaction.size-ratio
  bool force_up_level0 = false;                   // compaction.force-up-level-0
  // compaction.optimization-interval (Java EarlyFullCompaction), in milliseconds.
  std::optional<int64_t> optimization_interval_millis;
  std::optional<int64_t> total_size_threshold;           // compaction.total-size-threshold
  std::optional<int64_t> incremental_size_threshold;     // compaction.incremental-size-threshold
  int32_t offpeak_start_hour = -1;                       // compaction.offpeak.start.hour
  int32_t offpeak_end_hour = -1;                         // compaction.offpeak.end.hour
  int32_t offpeak_ratio = 0;                             // compaction.offpeak-ratio
  double small_file_ratio = 0.7;                         // compaction.small-file-ratio
  int32_t min_file_num = 5;                              // compaction.min.file-num (append)
  int64_t target_file_size = 128LL << 20;                // target-file-size
  std::optional<int32_t> full_compaction_delta_commits;  // full-compaction.delta-commits
  bool write_only = false;                               // write-only
  // Java CoreOptions.needLookup: first-row, `changelog-producer = lookup`, deletion vectors or
  // `force-lookup`; such buckets move every level-0 file up (ForceUpLevel0Compaction).
  bool need_lookup = false;
  bool lookup_wait = true;             // lookup-wait (fallback key changelog-producer.lookup-wait)
  bool lookup_compact_gentle = false;  // lookup-compact = gentle
  std::optional<int32_t> lookup_compact_max_interval;  // lookup-compact.max-interval

  // Java lookupCompactMaxInterval: the option (default trigger x 2), at least the trigger.
  int32_t LookupCompactMaxInterval() const {
    const int64_t interval = lookup_compact_max_interval
                                 ? *lookup_compact_max_interval
                                 : int64_t{num_sorted_run_compaction_trigger} * 2;
    return static_cast<int32_t>(std::min<int64_t>(
        std::max<int64_t>(interval, num_sorted_run_compaction_trigger), INT32_MAX));
  }

  // Whether a commit waits for the bucket's compaction (Java prepareCommitWaitCompaction, as
  // Flink's sink applies it): lookup tables hide level 0 from batch reads, so their writes are
  // visible only once compacted up.
  bool PrepareCommitWaitCompaction() const { return !write_only && need_lookup && lookup_wait; }

  // Files smaller than this join a compaction as rewrite candidates; larger ones are upgraded
  // (Java CoreOptions.compactionFileSize: target-file-size * compaction.small-file-ratio).
  int64_t compaction_file_size() const {
    return static_cast<int64_t>(static_cast<double>(target_file_size) * small_file_ratio);
  }

  // CoreOptions has parsed and validated every value.
  static CompactionOptions From(const CoreOptions& options, bool has_primary_key);
};

// Whether the commit with `identifier` is one after which `full-compaction.delta-commits`
// asks for a full compaction (Java FullCompactedStartingScanner.isFullCompactedIdentifier;
// Long.MAX_VALUE is a batch write's identifier).
bool IsFullCompactionCommit(int64_t identifier, int32_t delta_commits);

}  // namespace sluice
