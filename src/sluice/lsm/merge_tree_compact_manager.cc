#include "sluice/lsm/merge_tree_compact_manager.h"

#include "sluice/lsm/force_up_level0_compaction.h"
#include "sluice/lsm/interval_partition.h"
#include "sluice/lsm/universal_compaction.h"

namespace sluice {
namespace {

// One compaction: sections are merged or their files upgraded, in key order (Java
// MergeTreeCompactTask). Candidates collect consecutive sections to merge in one rewrite; a
// large file of a single-run section flushes them first, so the output stays in key order.
class MergeTreeCompaction {
 public:
  MergeTreeCompaction(int output_level, bool drop_delete, int max_level, int64_t min_file_size,
                      CompactRewriter* rewriter)
      : output_level_(output_level),
        drop_delete_(drop_delete),
        max_level_(max_level),
        min_file_size_(min_file_size),
        rewriter_(rewriter) {}

  Result<CompactResult> Run(const std::vector<std::vector<SortedRun>>& partitioned) {
    for (const std::vector<SortedRun>& section : partitioned) {
      if (section.size() > 1) {
        candidate_.push_back(section);
        continue;
      }
      for (const LevelFilePtr& file : section[0].files()) {
        if (file->meta.file_size < min_file_size_) {
          candidate_.push_back({SortedRun::FromSingle(file)});
        } else {
          SLUICE_RETURN_NOT_OK(Rewrite());
          SLUICE_RETURN_NOT_OK(Upgrade(file));
        }
      }
    }
    SLUICE_RETURN_NOT_OK(Rewrite());
    return std::move(result_);
  }

 private:
  static bool MayContainDeletes(const DataFileMeta& file) {
    return !file.delete_row_count || *file.delete_row_count > 0;
  }

  Status Upgrade(const LevelFilePtr& file) {
    if ((output_level_ == max_level_ && MayContainDeletes(file->meta)) ||
        (file->meta.level == 0 && rewriter_->RewritesLevel0Upgrades())) {
      std::vector<std::vector<SortedRun>> single = {{SortedRun::FromSingle(file)}};
      return RewriteNow(single);
    }
    if (file->meta.level != output_level_) {
      SLUICE_ASSIGN_OR_RETURN(CompactResult upgraded,
                              rewriter_->Upgrade(output_level_, file->meta));
      result_.Merge(std::move(upgraded));
    }
    return Status::OK();
  }

  Status Rewrite() {
    if (candidate_.empty()) return Status::OK();
    if (candidate_.size() == 1) {
      const std::vector<SortedRun>& section = candidate_[0];
      if (section.empty()) {
        candidate_.clear();
        return Status::OK();
      }
      if (section.size() == 1) {
        std::vector<LevelFilePtr> files = section[0].files();
        candidate_.clear();
        for (const LevelFilePtr& file : files) SLUICE_RETURN_NOT_OK(Upgrade(file));
        return Status::OK();
      }
    }
    std::vector<std::vector<SortedRun>> sections = std::move(candidate_);
    candidate_.clear();
    return RewriteNow(sections);
  }

  Status RewriteNow(const std::vector<std::vector<SortedRun>>& sections) {
    SLUICE_ASSIGN_OR_RETURN(CompactResult rewritten,
                            rewriter_->Rewrite(output_level_, drop_delete_, sections));
    result_.Merge(std::move(rewritten));
    return Status::OK();
  }

  int output_level_;
  bool drop_delete_;
  int max_level_;
  int64_t min_file_size_;
  CompactRewriter* rewriter_;
  std::vector<std::vector<SortedRun>> candidate_;
  CompactResult result_;
};

// Java FileRewriteCompactTask: each file rewritten on its own.
Result<CompactResult> RewriteFileByFile(const CompactUnit& unit, bool drop_delete,
                                        CompactRewriter* rewriter) {
  CompactResult result;
  for (const LevelFilePtr& file : unit.files) {
    std::vector<std::vector<SortedRun>> single = {{SortedRun::FromSingle(file)}};
    SLUICE_ASSIGN_OR_RETURN(CompactResult rewritten,
                            rewriter->Rewrite(unit.output_level, drop_delete, single));
    result.Merge(std::move(rewritten));
  }
  return result;
}

}  // namespace

Result<CompactResult> RunMergeTreeCompaction(const CompactUnit& unit, bool drop_delete,
                                             int max_level, int64_t compaction_file_size,
                                             const KeyValueMergeOrder& key_order,
                                             CompactRewriter* rewriter) {
  if (unit.file_rewrite) return RewriteFileByFile(unit, drop_delete, rewriter);
  MergeTreeCompaction compaction(unit.output_level, drop_delete, max_level, compaction_file_size,
                                 rewriter);
  return compaction.Run(PartitionIntervals(unit.files, key_order));
}

MergeTreeCompactManager::MergeTreeCompactManager(Levels levels,
                                                 std::unique_ptr<CompactStrategy> strategy,
                                                 std::shared_ptr<CompactRewriter> rewriter,
                                                 Options options)
    : CompactManager(options.background),
      levels_(std::move(levels)),
      strategy_(std::move(strategy)),
      rewriter_(std::move(rewriter)),
      options_(options) {}

MergeTreeCompactManager::~MergeTreeCompactManager() { CancelCompaction(); }

Result<std::unique_ptr<MergeTreeCompactManager>> MergeTreeCompactManager::Make(
    const CompactionOptions& options, DataTypePtr key_type,
    const std::vector<DataFileMeta>& restored_files, std::shared_ptr<CompactRewriter> rewriter,
    bool background) {
  SLUICE_ASSIGN_OR_RETURN(Levels levels,
                          Levels::Make(std::move(key_type), restored_files, options.num_levels));
  auto universal = std::make_unique<UniversalCompaction>(
      options.max_size_amplification_percent, options.size_ratio,
      options.num_sorted_run_compaction_trigger,
      EarlyFullCompaction::Make(options,
                                EstimateLastFullCompaction(restored_files, options.num_levels)),
      OffPeakHours::Make(options.offpeak_start_hour, options.offpeak_end_hour,
                         options.offpeak_ratio));
  std::unique_ptr<CompactStrategy> strategy;
  if (options.need_lookup) {
    std::optional<int> interval;
    if (options.lookup_compact_gentle) interval = options.LookupCompactMaxInterval();
    strategy = std::make_unique<ForceUpLevel0Compaction>(std::move(universal), interval);
  } else if (options.force_up_level0) {
    strategy = std::make_unique<ForceUpLevel0Compaction>(std::move(universal), std::nullopt);
  } else {
    strategy = std::move(universal);
  }
  Options manager_options;
  manager_options.compaction_file_size = options.compaction_file_size();
  manager_options.num_sorted_run_stop_trigger = options.num_sorted_run_stop_trigger;
  manager_options.background = background;
  manager_options.need_lookup = options.need_lookup;
  return std::make_unique<MergeTreeCompactManager>(std::move(levels), std::move(strategy),
                                                   std::move(rewriter), manager_options);
}

bool MergeTreeCompactManager::ShouldWaitForLatestCompaction() const {
  return levels_.NumberOfSortedRuns() > options_.num_sorted_run_stop_trigger;
}

bool MergeTreeCompactManager::ShouldWaitForPreparingCheckpoint() const {
  return static_cast<int64_t>(levels_.NumberOfSortedRuns()) >
         static_cast<int64_t>(options_.num_sorted_run_stop_trigger) + 1;
}

Status MergeTreeCompactManager::AddNewFile(const DataFileMeta& file) {
  // Through Update rather than level 0: a file of an overwritten partition may sit higher.
  return levels_.Update({}, std::vector<DataFileMeta>{file});
}

Status MergeTreeCompactManager::TriggerCompaction(bool full_compaction) {
  std::vector<LevelSortedRun> runs = levels_.LevelSortedRuns();
  std::optional<CompactUnit> unit;
  if (full_compaction) {
    if (has_task()) {
      return Status::Internal(
          "a compaction is still running while a full compaction is forced; fetch its result "
          "first");
    }
    unit = PickFullCompaction(levels_.number_of_levels(), runs);
  } else {
    if (has_task()) return Status::OK();
    unit = strategy_->Pick(levels_.number_of_levels(), runs);
    // A unit of one file already at its output level has nothing to do.
    if (unit && (unit->files.empty() ||
                 (unit->files.size() == 1 && unit->files[0]->meta.level == unit->output_level))) {
      unit.reset();
    }
  }
  if (!unit) return Status::OK();

  // Deletes can go when no older data stays outside the compaction: the output is above level 0
  // and at or above the highest non-empty level.
  const bool drop_delete =
      unit->output_level != 0 && unit->output_level >= levels_.NonEmptyHighestLevel();
  const int max_level = levels_.max_level();
  const int64_t file_size = options_.compaction_file_size;
  KeyValueMergeOrder key_order = levels_.key_order();
  std::shared_ptr<CompactRewriter> rewriter = rewriter_;
  std::vector<SortedRun> higher_runs;
  for (LevelSortedRun& run : runs) {
    if (run.level > unit->output_level) higher_runs.push_back(std::move(run.run));
  }
  Submit([unit = std::move(*unit), drop_delete, max_level, file_size, key_order, rewriter,
          higher_runs = std::move(higher_runs)]() mutable -> Result<CompactResult> {
    rewriter->SetHigherRuns(std::move(higher_runs));
    SLUICE_ASSIGN_OR_RETURN(
        CompactResult result,
        RunMergeTreeCompaction(unit, drop_delete, max_level, file_size, key_order, rewriter.get()));
    SLUICE_RETURN_NOT_OK(rewriter->FinishCompaction(&result));
    return result;
  });
  return Status::OK();
}

Status MergeTreeCompactManager::OnResult(const CompactResult& result) {
  return levels_.Update(result.before, result.after);
}

}  // namespace sluice
