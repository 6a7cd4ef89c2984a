#include "sluice/lsm/compact_manager.h"

#include <chrono>

namespace sluice {

CompactManager::~CompactManager() { CancelCompaction(); }

void CompactManager::SetMetricsReporter(std::unique_ptr<CompactionMetrics::Reporter> reporter) {
  reporter_ = std::move(reporter);
  ReportFiles();
}

void CompactManager::ReportFiles() const {
  if (!reporter_) return;
  int64_t level0 = 0;
  int64_t bytes = 0;
  for (const DataFileMeta& f : AllFiles()) {
    level0 += f.level == 0;
    bytes += f.file_size;
  }
  reporter_->ReportLevel0FileCount(level0);
  reporter_->ReportTotalFileSize(bytes);
}

void CompactManager::Submit(Task task) {
  if (reporter_) {
    reporter_->CompactionQueued();
    task = [task = std::move(task), reporter = reporter_.get()]() -> Result<CompactResult> {
      const auto start = reporter->CompactionStarted();
      Result<CompactResult> result = task();
      int64_t input = 0;
      int64_t output = 0;
      if (result.ok()) {
        for (const DataFileMeta& f : result->before) input += f.file_size;
        for (const DataFileMeta& f : result->after) output += f.file_size;
      }
      reporter->CompactionFinished(start, result.ok(), input, output);
      return result;
    };
  }
  if (background_) {
    future_ = std::async(std::launch::async, std::move(task));
  } else {
    pending_.emplace(task());
  }
}

Result<std::optional<CompactResult>> CompactManager::GetCompactionResult(bool blocking) {
  ReportFiles();  // the files the writer added since the last call
  std::optional<Result<CompactResult>> done;
  if (pending_) {
    done = std::move(pending_);
    pending_.reset();
  } else if (future_.valid()) {
    if (!blocking && future_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
      return std::optional<CompactResult>();
    }
    done.emplace(future_.get());
  }
  if (!done) return std::optional<CompactResult>();
  if (!done->ok()) return done->status();
  CompactResult result = std::move(*done).value();
  SLUICE_RETURN_NOT_OK(OnResult(result));
  ReportFiles();
  return std::optional<CompactResult>(std::move(result));
}

void CompactManager::CancelCompaction() {
  pending_.reset();
  if (future_.valid()) future_.wait(), future_ = {};
}

}  // namespace sluice
