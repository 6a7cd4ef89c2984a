#include "sluice/lsm/memory_pool_factory.h"

#include <algorithm>

namespace sluice {

void MemoryPoolFactory::NotifyNewOwner(MemoryOwner* owner) {
  owners_.push_back(owner);
  num_owners_.store(static_cast<int64_t>(owners_.size()), std::memory_order_relaxed);
  Account(owner->memory_occupancy());
}

void MemoryPoolFactory::RemoveOwner(MemoryOwner* owner) {
  auto found = std::find(owners_.begin(), owners_.end(), owner);
  if (found == owners_.end()) return;
  Account(-owner->memory_occupancy());
  owners_.erase(found);
  num_owners_.store(static_cast<int64_t>(owners_.size()), std::memory_order_relaxed);
}

Status MemoryPoolFactory::Reclaim(MemoryOwner* requester) {
  // Every flush empties an owner, so each owner is flushed at most once.
  for (size_t round = 0; round <= owners_.size() && used_bytes_ > total_bytes_; ++round) {
    MemoryOwner* largest = nullptr;
    int64_t largest_bytes = 0;
    for (MemoryOwner* other : owners_) {
      if (other != requester && other->memory_occupancy() > largest_bytes) {
        largest = other;
        largest_bytes = other->memory_occupancy();
      }
    }
    if (largest == nullptr) {
      return requester->memory_occupancy() > 0 ? requester->FlushMemory() : Status::OK();
    }
    preempt_count_.fetch_add(1, std::memory_order_relaxed);
    SLUICE_RETURN_NOT_OK(largest->FlushMemory());
  }
  return Status::OK();
}

}  // namespace sluice
