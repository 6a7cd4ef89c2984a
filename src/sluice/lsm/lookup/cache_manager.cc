#include "sluice/lsm/lookup/cache_manager.h"

#include <string>

namespace sluice {

uint64_t CacheManager::AddReader(uint64_t num_blocks) {
  std::lock_guard<std::mutex> lock(mutex_);
  const uint64_t id = next_reader_id_++;
  readers_[id].resize(static_cast<size_t>(num_blocks));
  return id;
}

Result<CacheManager::Block> CacheManager::GetBlock(
    uint64_t reader_id, uint64_t index, const std::function<Result<SortLookupStoreBlock>()>& load) {
  auto unknown = [&]() {
    return Status::InvalidArgument("lookup block cache: no block " + std::to_string(index) +
                                   " of reader " + std::to_string(reader_id));
  };
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto reader = readers_.find(reader_id);
    if (reader == readers_.end() || index >= reader->second.size()) return unknown();
    Slot& slot = reader->second[static_cast<size_t>(index)];
    if (slot.block != nullptr) {
      slot.used = true;
      return slot.block;
    }
  }
  // Loaded outside the lock: a slow read does not stall other readers. Two readers of one
  // block may both load it; the second insert finds the first.
  SLUICE_ASSIGN_OR_RETURN(SortLookupStoreBlock loaded, load());
  Block block = std::make_shared<const SortLookupStoreBlock>(std::move(loaded));
  std::lock_guard<std::mutex> lock(mutex_);
  auto reader = readers_.find(reader_id);
  if (reader == readers_.end()) return unknown();  // dropped while loading
  Slot& slot = reader->second[static_cast<size_t>(index)];
  if (slot.block != nullptr) return slot.block;
  slot.block = block;
  // A new block starts unused: a scan's blocks, each read once, go before the blocks that are
  // hit again.
  slot.used = false;
  resident_.push_back(Resident{reader_id, index});
  memory_size_ += block->memory_size();
  EvictLocked();
  return block;
}

void CacheManager::DropReader(uint64_t reader_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto reader = readers_.find(reader_id);
  if (reader == readers_.end()) return;
  for (size_t i = 0; i < resident_.size();) {
    if (resident_[i].reader_id == reader_id) {
      resident_[i] = resident_.back();
      resident_.pop_back();
    } else {
      ++i;
    }
  }
  for (const Slot& slot : reader->second) {
    if (slot.block != nullptr) memory_size_ -= slot.block->memory_size();
  }
  readers_.erase(reader);
  if (hand_ >= resident_.size()) hand_ = 0;
}

int64_t CacheManager::memory_size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return memory_size_;
}

void CacheManager::EvictLocked() {
  while (memory_size_ > max_memory_size_ && !resident_.empty()) {
    if (hand_ >= resident_.size()) hand_ = 0;
    const Resident at = resident_[hand_];
    Slot& slot = readers_.find(at.reader_id)->second[static_cast<size_t>(at.index)];
    if (slot.used) {
      // Second chance: used since the hand last came by.
      slot.used = false;
      ++hand_;
      continue;
    }
    memory_size_ -= slot.block->memory_size();
    slot.block.reset();
    resident_[hand_] = resident_.back();
    resident_.pop_back();
  }
}

}  // namespace sluice
