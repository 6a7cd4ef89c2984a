#include "sluice/lsm/lookup/cache_manager.h"

namespace sluice {

uint64_t CacheManager::NewReaderId() {
  std::lock_guard<std::mutex> lock(mutex_);
  return next_reader_id_++;
}

Result<CacheManager::Block> CacheManager::GetBlock(
    uint64_t reader_id, uint64_t index, const std::function<Result<std::string>()>& load) {
  const Key key{reader_id, index};
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = index_.find(key);
    if (it != index_.end()) {
      lru_.splice(lru_.begin(), lru_, it->second);
      return it->second->block;
    }
  }
  // Loaded outside the lock: a slow read does not stall other readers. Two readers of one
  // block may both load it; the second insert finds the first.
  SLUICE_ASSIGN_OR_RETURN(std::string bytes, load());
  Block block = std::make_shared<const std::string>(std::move(bytes));
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = index_.find(key);
  if (it != index_.end()) return it->second->block;
  lru_.push_front(Entry{key, block});
  index_.emplace(key, lru_.begin());
  memory_size_ += static_cast<int64_t>(block->size());
  EvictLocked();
  return block;
}

void CacheManager::DropReader(uint64_t reader_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto it = lru_.begin(); it != lru_.end();) {
    if (it->key.reader_id == reader_id) {
      memory_size_ -= static_cast<int64_t>(it->block->size());
      index_.erase(it->key);
      it = lru_.erase(it);
    } else {
      ++it;
    }
  }
}

int64_t CacheManager::memory_size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return memory_size_;
}

void CacheManager::EvictLocked() {
  while (memory_size_ > max_memory_size_ && !lru_.empty()) {
    Entry& last = lru_.back();
    memory_size_ -= static_cast<int64_t>(last.block->size());
    index_.erase(last.key);
    lru_.pop_back();
  }
}

}  // namespace sluice
