#include "sluice/lsm/compact_manager.h"

#include <chrono>

namespace sluice {

CompactManager::~CompactManager() { CancelCompaction(); }

void CompactManager::Submit(Task task) {
  if (background_) {
    future_ = std::async(std::launch::async, std::move(task));
  } else {
    pending_.emplace(task());
  }
}

Result<std::optional<CompactResult>> CompactManager::GetCompactionResult(bool blocking) {
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
  return std::optional<CompactResult>(std::move(result));
}

void CompactManager::CancelCompaction() {
  pending_.reset();
  if (future_.valid()) future_.wait(), future_ = {};
}

}  // namespace sluice
