// CacheManager: the memory cache of decompressed lookup-file blocks shared by the readers of one
// lookup engine (Java io.cache.CacheManager), bounded by `lookup.cache-max-memory-size`: once
// the cached bytes (blocks and their hash indexes) exceed the bound, blocks not used since the
// eviction hand last passed them are dropped (CLOCK, the usual approximation of least recently
// used; Java's Caffeine cache is no exact LRU either). A hit only marks its block used: it moves
// nothing, so the hot path of a point lookup is one array slot, not a hash map and list nodes.
// A block still in use by a reader stays alive (shared ownership) after it leaves the cache.
//
// Thread safety: thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "sluice/lsm/lookup/sort_lookup_store_block.h"
#include "sluice/result.h"

namespace sluice {

class CacheManager {
 public:
  using Block = std::shared_ptr<const SortLookupStoreBlock>;

  explicit CacheManager(int64_t max_memory_size) : max_memory_size_(max_memory_size) {}

  // A reader of `num_blocks` blocks (indexes 0 .. num_blocks - 1); returns its id, unique in
  // this cache.
  uint64_t AddReader(uint64_t num_blocks);

  // The block `index` of reader `reader_id`, loaded with `load` when not cached. A load error
  // is returned and nothing is cached. InvalidArgument for an unknown reader or index.
  Result<Block> GetBlock(uint64_t reader_id, uint64_t index,
                         const std::function<Result<SortLookupStoreBlock>()>& load);

  // Drops every block of `reader_id` (its file is closed) and forgets the reader.
  void DropReader(uint64_t reader_id);

  int64_t memory_size() const;
  int64_t max_memory_size() const { return max_memory_size_; }

 private:
  struct Slot {
    Block block;  // null: not cached
    bool used = false;
  };
  struct Resident {
    uint64_t reader_id;
    uint64_t index;
  };

  void EvictLocked();

  const int64_t max_memory_size_;
  mutable std::mutex mutex_;
  uint64_t next_reader_id_ = 1;
  std::unordered_map<uint64_t, std::vector<Slot>> readers_;
  // The cached blocks, in no order; the eviction hand walks it round.
  std::vector<Resident> resident_;
  size_t hand_ = 0;
  int64_t memory_size_ = 0;
};

}  // namespace sluice
