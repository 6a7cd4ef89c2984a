// LookupFileCache: the lookup files of one lookup engine, by data file name (Java's Caffeine
// cache of LookupFile.createCache, plus its CacheManager): lookup files live in a directory of
// their own on local disk, are dropped once unused for `lookup.cache-file-retention` and, least
// recently used first, while their bytes exceed `lookup.cache-max-disk-size`; their decompressed
// blocks share a CacheManager bounded by `lookup.cache-max-memory-size`. A dropped file that a
// lookup still holds is deleted when that lookup lets go of it.
//
// Thread safety: thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "sluice/fs/file_io.h"
#include "sluice/lsm/lookup/cache_manager.h"
#include "sluice/lsm/lookup/lookup_file.h"
#include "sluice/lsm/lookup/lookup_options.h"
#include "sluice/result.h"

namespace sluice {

class LookupFileCache {
 public:
  // Milliseconds of a monotonic clock; tests pass their own to expire files without waiting.
  using Clock = std::function<int64_t()>;

  // Creates a fresh directory under `parent_dir` (the system temporary directory when empty),
  // removed with the cache.
  static Result<std::shared_ptr<LookupFileCache>> Make(std::shared_ptr<FileIO> io,
                                                       std::string parent_dir,
                                                       const LookupOptions& options,
                                                       Clock clock = nullptr);
  ~LookupFileCache();

  // The lookup file of `data_file_name`, or null. Expires unused files first.
  std::shared_ptr<LookupFile> Get(const std::string& data_file_name);
  // Caches `file` for `data_file_name`, then drops files beyond the disk bound.
  void Put(const std::string& data_file_name, std::shared_ptr<LookupFile> file);
  // Drops the lookup file of `data_file_name` (its data file was compacted away).
  void Invalidate(const std::string& data_file_name);

  // A new path in the cache directory for the lookup file of `data_file_name`.
  std::string NewLocalPath(const std::string& data_file_name);

  const std::shared_ptr<FileIO>& io() const { return io_; }
  const std::shared_ptr<CacheManager>& cache_manager() const { return cache_manager_; }
  const LookupOptions& options() const { return options_; }
  const std::string& directory() const { return directory_; }
  size_t size() const;
  int64_t disk_size() const;

 private:
  struct Entry {
    std::shared_ptr<LookupFile> file;
    int64_t last_access = 0;
  };

  LookupFileCache(std::shared_ptr<FileIO> io, std::string directory, const LookupOptions& options,
                  Clock clock);
  void ExpireLocked(int64_t now);
  // Drops least recently used files other than `keep` while over the disk bound.
  void EvictLocked(const std::string& keep);
  void EraseLocked(std::map<std::string, Entry>::iterator it);

  std::shared_ptr<FileIO> io_;
  std::string directory_;
  LookupOptions options_;
  Clock clock_;
  std::shared_ptr<CacheManager> cache_manager_;
  mutable std::mutex mutex_;
  std::map<std::string, Entry> files_;
  int64_t disk_size_ = 0;
  uint64_t next_file_id_ = 0;
  int64_t next_expiry_check_ = 0;
};

}  // namespace sluice
