// SortLookupStoreReader: point lookups in a sort lookup store file (Java
// lookup.sort.SortLookupStoreReader): the bloom filter rules a key out, the block index (held in
// memory) names the one block that may hold it, and the block's hash index finds it.
// Decompressed, indexed blocks (SortLookupStoreBlock) come from the engine's CacheManager.
//
// A damaged file (bad footer, checksum mismatch, entry out of bounds) gives Corruption naming the
// file, never a crash.
//
// Thread safety: not thread-safe (a lookup's value stays pinned until the next lookup).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/fs/file_io.h"
#include "sluice/lsm/lookup/bloom_filter.h"
#include "sluice/lsm/lookup/cache_manager.h"
#include "sluice/result.h"

namespace sluice {

class SortLookupStoreReader {
 public:
  static Result<std::unique_ptr<SortLookupStoreReader>> Open(FileIO* io, const std::string& path,
                                                             std::shared_ptr<CacheManager> cache);
  ~SortLookupStoreReader();

  // True and `*value` (valid until the next call) when `key` is in the file.
  Result<bool> Lookup(std::string_view key, std::string_view* value);

  const std::string& path() const { return path_; }
  int64_t file_size() const { return file_->size(); }
  int64_t entry_count() const { return static_cast<int64_t>(entry_count_); }

 private:
  struct BlockHandle {
    uint64_t offset = 0;
    uint64_t stored_size = 0;
    uint64_t raw_size = 0;
  };

  SortLookupStoreReader(std::string path, std::unique_ptr<RandomAccessFile> file,
                        std::shared_ptr<CacheManager> cache)
      : path_(std::move(path)), file_(std::move(file)), cache_(std::move(cache)) {}

  Status Init();
  // The stored bytes of the block at `offset`, checked against its trailer, decompressed to
  // `raw_size` bytes (index and bloom blocks: raw_size == size).
  Result<std::string> ReadBlock(uint64_t offset, uint64_t size, uint64_t raw_size,
                                const char* what) const;
  Status Corrupt(const std::string& what) const;
  // The first block whose last key is not below `key`, or index_.size().
  size_t BlockOf(std::string_view key) const;
  // The last key of block `i`.
  std::string_view LastKey(size_t i) const {
    return std::string_view(last_keys_)
        .substr(last_key_starts_[i], last_key_starts_[i + 1] - last_key_starts_[i]);
  }

  std::string path_;
  std::unique_ptr<RandomAccessFile> file_;
  std::shared_ptr<CacheManager> cache_;
  uint64_t reader_id_ = 0;  // its blocks' key space in cache_, from Init
  uint64_t entry_count_ = 0;
  std::vector<BlockHandle> index_;
  // The blocks' last keys end to end, and where each starts (one more, the end): the index's
  // binary search reads two flat arrays, not one heap string per block.
  std::string last_keys_;
  std::vector<size_t> last_key_starts_{0};
  // What every last key starts with, and each one's KeyHeadOf after it: the binary search
  // compares these integers, one small array, and reads a key only on a tie.
  std::string last_key_prefix_;
  std::vector<uint64_t> last_key_heads_;
  std::optional<BloomFilter> bloom_;
  CacheManager::Block pinned_;  // the block of the last value returned
};

}  // namespace sluice
