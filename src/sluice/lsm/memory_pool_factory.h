// MemoryPoolFactory: one write-buffer budget shared by the writers of a write task (Java
// org.apache.paimon.memory.MemoryPoolFactory). `write-buffer-size` bounds the buffers of all
// the bucket writers of a FileStoreWrite together, not each of them: an owner accounts what
// its buffer grew by, and when the owners together hold more than the budget the owner
// holding the most memory, other than the one that grew, is flushed (Java preemptMemory: a
// writer never flushes another while it is in the middle of its own write); when no other
// owner holds any, the one that grew flushes itself, as a Java buffer that finds the pool
// empty does.
//
// So after every Reclaim the owners hold at most the budget; during a write, at most the
// budget plus the batch being written.
//
// Thread safety: not thread-safe; the writer thread of the task. The figures (used_bytes,
// preempt_count, num_owners) may be read from any thread (the metrics: writer_buffer_metric.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "sluice/lsm/memory_owner.h"
#include "sluice/result.h"

namespace sluice {

class MemoryPoolFactory {
 public:
  explicit MemoryPoolFactory(int64_t total_bytes) : total_bytes_(total_bytes) {}
  MemoryPoolFactory(const MemoryPoolFactory&) = delete;
  MemoryPoolFactory& operator=(const MemoryPoolFactory&) = delete;

  // Registers an owner (holding nothing yet) / removes one, with whatever it still holds.
  void NotifyNewOwner(MemoryOwner* owner);
  void RemoveOwner(MemoryOwner* owner);

  // An owner's occupancy changed by `delta` bytes.
  void Account(int64_t delta) { used_bytes_.fetch_add(delta, std::memory_order_relaxed); }

  // Flushes owners until the budget holds again: the largest owner other than `requester`
  // first, `requester` itself when no other holds memory. Stops at the first failed flush.
  Status Reclaim(MemoryOwner* requester);

  int64_t total_bytes() const { return total_bytes_; }
  int64_t used_bytes() const { return used_bytes_.load(std::memory_order_relaxed); }
  // How often an owner was flushed to make room for another (Java bufferPreemptCount).
  int64_t preempt_count() const { return preempt_count_.load(std::memory_order_relaxed); }
  // The owners registered (Java numWriters).
  int64_t num_owners() const { return num_owners_.load(std::memory_order_relaxed); }

 private:
  int64_t total_bytes_;
  std::atomic<int64_t> used_bytes_{0};
  std::atomic<int64_t> preempt_count_{0};
  std::atomic<int64_t> num_owners_{0};
  std::vector<MemoryOwner*> owners_;
};

}  // namespace sluice
