// CacheManager: the memory cache of decompressed lookup-file blocks shared by the readers of one
// lookup engine (Java io.cache.CacheManager), bounded by `lookup.cache-max-memory-size`: the
// least recently used blocks are dropped once the cached bytes exceed the bound. A block still
// in use by a reader stays alive (shared ownership) after it leaves the cache.
//
// Thread safety: thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "sluice/result.h"

namespace sluice {

class CacheManager {
 public:
  using Block = std::shared_ptr<const std::string>;

  explicit CacheManager(int64_t max_memory_size) : max_memory_size_(max_memory_size) {}

  // A reader id unique in this cache; the key space of its blocks.
  uint64_t NewReaderId();

  // The block `index` of reader `reader_id`, loaded with `load` when not cached. A load error
  // is returned and nothing is cached.
  Result<Block> GetBlock(uint64_t reader_id, uint64_t index,
                         const std::function<Result<std::string>()>& load);

  // Drops every block of `reader_id` (its file is closed).
  void DropReader(uint64_t reader_id);

  int64_t memory_size() const;
  int64_t max_memory_size() const { return max_memory_size_; }

 private:
  struct Key {
    uint64_t reader_id;
    uint64_t index;
    bool operator==(const Key& o) const { return reader_id == o.reader_id && index == o.index; }
  };
  struct KeyHash {
    size_t operator()(const Key& k) const {
      return (k.reader_id * 0x9E3779B97F4A7C15ull) ^ k.index;
    }
  };
  struct Entry {
    Key key;
    Block block;
  };

  void EvictLocked();

  const int64_t max_memory_size_;
  mutable std::mutex mutex_;
  uint64_t next_reader_id_ = 1;
  std::list<Entry> lru_;  // most recently used first
  std::unordered_map<Key, std::list<Entry>::iterator, KeyHash> index_;
  int64_t memory_size_ = 0;
};

}  // namespace sluice
