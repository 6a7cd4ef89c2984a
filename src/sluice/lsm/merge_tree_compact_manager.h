// MergeTreeCompactManager: compaction of one primary-key bucket (Java
// mergetree.compact.MergeTreeCompactManager with MergeTreeCompactTask). Holds the bucket's
// Levels, asks the strategy for a unit, and compacts it:
//
//   - the unit's files are split into key-disjoint sections (IntervalPartition); a section of
//     one sorted run is not merged: each of its files at least `compaction_file_size` bytes is
//     upgraded (moved to the output level as is), smaller ones are rewritten together with
//     the files before them; sections of several runs are merged;
//   - an upgrade to the max level of a file that may hold deletes (delete_row_count > 0 or
//     unknown) rewrites the file instead, so that the deletes are dropped;
//   - deletes are dropped (drop_delete) when the output level is not 0 and is at least the
//     highest non-empty level, i.e. no older data remains below the output.
//
// See compact_manager.h for how a writer drives it.
//
// Thread safety: as CompactManager.
#pragma once

#include <memory>
#include <vector>

#include "sluice/lsm/compact_manager.h"
#include "sluice/lsm/compact_rewriter.h"
#include "sluice/lsm/compact_strategy.h"
#include "sluice/lsm/compaction_options.h"
#include "sluice/lsm/levels.h"

namespace sluice {

class MergeTreeCompactManager : public CompactManager {
 public:
  struct Options {
    // Files below this size are rewritten rather than upgraded (compaction_file_size()).
    int64_t compaction_file_size = 0;
    int num_sorted_run_stop_trigger = 8;
    // Run compactions on a thread of their own.
    bool background = false;
    // Lookup buckets count level-0 files as unfinished compaction (Java compactNotCompleted).
    bool need_lookup = false;
  };

  MergeTreeCompactManager(Levels levels, std::unique_ptr<CompactStrategy> strategy,
                          std::shared_ptr<CompactRewriter> rewriter, Options options);
  ~MergeTreeCompactManager() override;

  // The manager of a bucket with `restored_files`, its strategy made from `options` as Java's
  // MergeTreeCompactManagerFactory does: universal, wrapped in force-up-level-0 for lookup
  // buckets (every lookup-compact.max-interval-th pick in `gentle` mode) or when asked.
  // `key_type`: ROW of the trimmed primary key fields.
  static Result<std::unique_ptr<MergeTreeCompactManager>> Make(
      const CompactionOptions& options, DataTypePtr key_type,
      const std::vector<DataFileMeta>& restored_files, std::shared_ptr<CompactRewriter> rewriter,
      bool background = false);

  bool ShouldWaitForLatestCompaction() const override;
  bool ShouldWaitForPreparingCheckpoint() const override;
  Status AddNewFile(const DataFileMeta& file) override;
  std::vector<DataFileMeta> AllFiles() const override { return levels_.AllFiles(); }
  bool CompactNotCompleted() const override {
    return has_task() || (options_.need_lookup && !levels_.level0().empty());
  }
  Status TriggerCompaction(bool full_compaction) override;

  const Levels& levels() const { return levels_; }

 protected:
  Status OnResult(const CompactResult& result) override;

 private:
  Levels levels_;
  std::unique_ptr<CompactStrategy> strategy_;
  std::shared_ptr<CompactRewriter> rewriter_;
  Options options_;
};

// The work of one compaction (Java MergeTreeCompactTask.doCompact), exposed for tests.
Result<CompactResult> RunMergeTreeCompaction(const CompactUnit& unit, bool drop_delete,
                                             int max_level, int64_t compaction_file_size,
                                             const KeyValueMergeOrder& key_order,
                                             CompactRewriter* rewriter);

}  // namespace sluice
