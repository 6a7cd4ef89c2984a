#include "sluice/lsm/lookup/lookup_file_cache.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>

#include "sluice/base/uuid.h"

namespace sluice {
namespace {

int64_t SteadyMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::string TempDir() {
  const char* dir = std::getenv("TMPDIR");
  return dir != nullptr && *dir != '\0' ? std::string(dir) : std::string("/tmp");
}

}  // namespace

LookupFileCache::LookupFileCache(std::shared_ptr<FileIO> io, std::string directory,
                                 const LookupOptions& options, Clock clock)
    : io_(std::move(io)),
      directory_(std::move(directory)),
      options_(options),
      clock_(clock ? std::move(clock) : Clock(SteadyMillis)),
      cache_manager_(std::make_shared<CacheManager>(options.cache_max_memory_size)) {}

Result<std::shared_ptr<LookupFileCache>> LookupFileCache::Make(std::shared_ptr<FileIO> io,
                                                               std::string parent_dir,
                                                               const LookupOptions& options,
                                                               Clock clock) {
  if (parent_dir.empty()) parent_dir = TempDir();
  std::string directory = JoinPath(parent_dir, "sluice-lookup-" + NewUuidV4());
  SLUICE_RETURN_NOT_OK(io->MkDirs(directory));
  return std::shared_ptr<LookupFileCache>(
      new LookupFileCache(std::move(io), std::move(directory), options, std::move(clock)));
}

LookupFileCache::~LookupFileCache() {
  files_.clear();
  // Local scratch space: a failed delete leaves a directory in the temporary directory.
  io_->Delete(directory_, /*recursive=*/true).IgnoreError();
}

std::shared_ptr<LookupFile> LookupFileCache::Get(const std::string& data_file_name) {
  std::lock_guard<std::mutex> lock(mutex_);
  const int64_t now = clock_();
  ExpireLocked(now);
  auto it = files_.find(data_file_name);
  if (it == files_.end()) return nullptr;
  it->second.last_access = now;
  return it->second.file;
}

void LookupFileCache::Put(const std::string& data_file_name, std::shared_ptr<LookupFile> file) {
  std::lock_guard<std::mutex> lock(mutex_);
  const int64_t now = clock_();
  ExpireLocked(now);
  auto it = files_.find(data_file_name);
  if (it != files_.end()) EraseLocked(it);
  disk_size_ += file->size_bytes();
  files_[data_file_name] = Entry{std::move(file), now};
  EvictLocked(data_file_name);
}

void LookupFileCache::Invalidate(const std::string& data_file_name) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = files_.find(data_file_name);
  if (it != files_.end()) EraseLocked(it);
}

std::string LookupFileCache::NewLocalPath(const std::string& data_file_name) {
  std::lock_guard<std::mutex> lock(mutex_);
  return JoinPath(directory_, std::to_string(next_file_id_++) + "-" + data_file_name + ".lookup");
}

size_t LookupFileCache::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return files_.size();
}

int64_t LookupFileCache::disk_size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return disk_size_;
}

void LookupFileCache::EraseLocked(std::map<std::string, Entry>::iterator it) {
  disk_size_ -= it->second.file->size_bytes();
  files_.erase(it);
}

void LookupFileCache::ExpireLocked(int64_t now) {
  // Walking every file on every lookup would cost more than the lookup; a second late is fine.
  if (now < next_expiry_check_) return;
  next_expiry_check_ = now + std::min<int64_t>(options_.cache_file_retention_millis, 1000);
  for (auto it = files_.begin(); it != files_.end();) {
    auto next = std::next(it);
    if (now - it->second.last_access >= options_.cache_file_retention_millis) EraseLocked(it);
    it = next;
  }
}

void LookupFileCache::EvictLocked(const std::string& keep) {
  // The file just put stays even when it alone exceeds the bound: the lookup that built it
  // reads it next.
  while (disk_size_ > options_.cache_max_disk_size && files_.size() > 1) {
    auto oldest = files_.end();
    for (auto it = files_.begin(); it != files_.end(); ++it) {
      if (it->first == keep) continue;
      if (oldest == files_.end() || it->second.last_access < oldest->second.last_access) {
        oldest = it;
      }
    }
    EraseLocked(oldest);
  }
}

}  // namespace sluice
