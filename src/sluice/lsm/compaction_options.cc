#include "sluice/lsm/compaction_options.h"

#include <limits>

namespace sluice {

CompactionOptions CompactionOptions::From(const CoreOptions& options, bool has_primary_key) {
  CompactionOptions c;
  c.num_sorted_run_compaction_trigger = options.num_sorted_run_compaction_trigger();
  c.num_sorted_run_stop_trigger = options.num_sorted_run_stop_trigger();
  c.num_levels = options.num_levels();
  c.max_size_amplification_percent = options.compaction_max_size_amplification_percent();
  c.size_ratio = options.compaction_size_ratio();
  c.force_up_level0 = options.compaction_force_up_level0();
  c.optimization_interval_millis = options.compaction_optimization_interval_millis();
  c.total_size_threshold = options.compaction_total_size_threshold();
  c.incremental_size_threshold = options.compaction_incremental_size_threshold();
  c.offpeak_start_hour = options.compaction_offpeak_start_hour();
  c.offpeak_end_hour = options.compaction_offpeak_end_hour();
  c.offpeak_ratio = options.compaction_offpeak_ratio();
  c.small_file_ratio = options.compaction_small_file_ratio();
  c.min_file_num = options.compaction_min_file_num();
  c.target_file_size = options.TargetFileSize(has_primary_key);
  c.full_compaction_delta_commits = options.full_compaction_delta_commits();
  c.write_only = options.write_only();
  c.need_lookup = options.merge_engine() == MergeEngine::kFirstRow ||
                  options.changelog_producer() == ChangelogProducer::kLookup ||
                  options.deletion_vectors_enabled() || options.force_lookup();
  c.lookup_wait = options.lookup_wait();
  c.lookup_compact_gentle = options.lookup_compact_gentle();
  c.lookup_compact_max_interval = options.lookup_compact_max_interval();
  return c;
}

bool IsFullCompactionCommit(int64_t identifier, int32_t delta_commits) {
  if (identifier == std::numeric_limits<int64_t>::max()) return true;
  // Java GlobalFullCompactionSinkWrite takes max(delta-commits, 1).
  const int64_t delta = delta_commits < 1 ? 1 : delta_commits;
  return identifier % delta == 0;
}

}  // namespace sluice
