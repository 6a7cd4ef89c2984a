// CompactManager: the compaction side of one bucket's writer (Java compact.CompactManager and
// CompactFutureManager). Implementations: MergeTreeCompactManager (primary-key LSM, this
// folder) and BucketedAppendCompactManager (append tables, table/sink).
//
// How a writer drives it (Java MergeTreeWriter):
//
//   on restore:   the manager is made with the bucket's current files.
//   after flush:  for each new level-0 file: AddNewFile(file);
//                 if ShouldWaitForLatestCompaction() (sorted runs > num-sorted-run.stop-trigger:
//                   write back-pressure), GetCompactionResult(/*blocking=*/true) and apply it;
//                 else GetCompactionResult(false) and apply what it returns;
//                 then TriggerCompaction(/*full=*/false).
//   full compaction on demand (`sluice compact --full`, full-compaction.delta-commits):
//                 GetCompactionResult(true), apply, TriggerCompaction(true), and before the
//                 commit GetCompactionResult(true) again.
//   prepare commit: GetCompactionResult(wait) where wait = the caller asked to wait, or
//                 ShouldWaitForPreparingCheckpoint(); apply.
//   apply:        put result.before / result.after into the CommitMessageImpl's CompactIncrement
//                 (CompactIncrementBuilder in compact_increment_builder.h does the bookkeeping,
//                 including files that a later compaction in the same commit removed again).
//
// Compactions run inline (TriggerCompaction does the work and GetCompactionResult hands it out)
// or, with `background`, on one thread of their own; either way at most one runs at a time.
//
// Thread safety: not thread-safe; called from the writer's thread only (the background task
// touches no state of the manager).
#pragma once

#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <vector>

#include "sluice/lsm/compact_unit.h"
#include "sluice/lsm/compaction_metrics.h"
#include "sluice/meta/data_file_meta.h"
#include "sluice/result.h"

namespace sluice {

class CompactManager {
 public:
  virtual ~CompactManager();

  // The writer must wait for the running compaction before writing on (back-pressure).
  virtual bool ShouldWaitForLatestCompaction() const = 0;
  // The writer should wait for the compaction before it commits.
  virtual bool ShouldWaitForPreparingCheckpoint() const = 0;

  // A file the writer flushed (or a restored file). Corruption when its keys do not decode.
  virtual Status AddNewFile(const DataFileMeta& file) = 0;
  // Every live file of the bucket (including those being compacted).
  virtual std::vector<DataFileMeta> AllFiles() const = 0;

  // Picks and starts a compaction unless one is running. `full_compaction`: compact every file
  // (REQUIRES: no compaction running; wait for it with GetCompactionResult(true) first).
  virtual Status TriggerCompaction(bool full_compaction) = 0;

  // The finished compaction's result (the manager has applied it to its own file set), nothing
  // when none finished (or none ran). `blocking` waits for a running one. A failed compaction's
  // Status is returned once, then the manager is ready for the next.
  Result<std::optional<CompactResult>> GetCompactionResult(bool blocking);

  // Waits for a running compaction and drops its result. Files it wrote stay on disk.
  void CancelCompaction();

  // A compaction runs or its result has not been fetched.
  virtual bool CompactNotCompleted() const { return has_task(); }

  // Report into `reporter` (compaction_metrics.h, Java CompactionMetrics.Reporter): each
  // compaction as it is submitted, runs and ends, and the bucket's level-0 file count and live
  // size now and after each GetCompactionResult, which the writer calls after every flush.
  void SetMetricsReporter(std::unique_ptr<CompactionMetrics::Reporter> reporter);

 protected:
  explicit CompactManager(bool background) : background_(background) {}

  using Task = std::function<Result<CompactResult>()>;
  void Submit(Task task);
  bool has_task() const { return pending_.has_value() || future_.valid(); }
  // Applies a successful result to the manager's file set.
  virtual Status OnResult(const CompactResult& result) = 0;

 private:
  bool background_;
  std::optional<Result<CompactResult>> pending_;  // inline mode: the finished task
  std::future<Result<CompactResult>> future_;     // background mode
  // Declared after future_: the destructor's CancelCompaction waits for the task using it.
  std::unique_ptr<CompactionMetrics::Reporter> reporter_;

  void ReportFiles() const;
};

}  // namespace sluice
