#include "sluice/fs/caching_file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "sluice/fs/forwarding_file_io.h"
#include "sluice/fs/s3/aws_sigv4.h"

namespace sluice {

namespace {

constexpr std::string_view kTempMarker = ".tmp-";
// A cached file may take at most this share of the cache.
constexpr int64_t kMaxFileShare = 8;

Result<int64_t> ParseCacheSize(const std::string& key, const std::string& text) {
  std::string lower;
  for (char c : text) {
    if (c != ' ') lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (lower.ends_with("b")) lower.pop_back();
  int64_t unit = 1;
  if (!lower.empty()) {
    const char last = lower.back();
    unit = last == 'k'   ? int64_t{1} << 10
           : last == 'm' ? int64_t{1} << 20
           : last == 'g' ? int64_t{1} << 30
           : last == 't' ? int64_t{1} << 40
                         : 1;
    if (unit != 1) lower.pop_back();
  }
  char* end = nullptr;
  const long long value = std::strtoll(lower.c_str(), &end, 10);
  if (lower.empty() || end != lower.c_str() + lower.size() || value <= 0) {
    return Status::InvalidArgument("option " + key + ": '" + text + "' is not a size in bytes");
  }
  return static_cast<int64_t>(value) * unit;
}

std::string_view BaseName(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

class CachingFileIO final : public ForwardingFileIO {
 public:
  CachingFileIO(std::shared_ptr<FileIO> base, FileCacheOptions options)
      : ForwardingFileIO(std::move(base)), options_(std::move(options)), local_(LocalFileIO()) {}

  Result<std::unique_ptr<RandomAccessFile>> OpenForRead(const std::string& path) override {
    return Open(path, -1);
  }
  Result<std::unique_ptr<RandomAccessFile>> OpenForReadWithSize(const std::string& path,
                                                                int64_t size) override {
    return Open(path, size);
  }
  Result<std::string> ReadFile(const std::string& path) override {
    if (!IsImmutableTableFile(path)) return base()->ReadFile(path);
    const std::string copy = CopyPath(path);
    if (Touch(copy)) {
      Result<std::string> cached = local_->ReadFile(copy);
      if (cached.ok()) return cached;
    }
    SLUICE_ASSIGN_OR_RETURN(std::string content, base()->ReadFile(path));
    Insert(copy, content);
    return content;
  }

  // Writes, listings, deletes and renames go to the store: a deleted or renamed path's copy is
  // left to eviction, as Paimon never writes a new file under an immutable file's name.

 private:
  std::string CopyPath(const std::string& path) const {
    return options_.dir + "/" + Sha256Hex(path);
  }

  // Marks the copy as just used; false when there is none.
  static bool Touch(const std::string& copy) {
    return ::utimensat(AT_FDCWD, copy.c_str(), nullptr, 0) == 0;
  }

  Result<std::unique_ptr<RandomAccessFile>> Open(const std::string& path, int64_t size) {
    auto from_store = [&]() {
      return size > 0 ? base()->OpenForReadWithSize(path, size) : base()->OpenForRead(path);
    };
    if (!IsImmutableTableFile(path)) return from_store();
    const std::string copy = CopyPath(path);
    if (Touch(copy)) {
      // Evicted between the touch and the open: read it from the store.
      Result<std::unique_ptr<RandomAccessFile>> cached = local_->OpenForRead(copy);
      if (cached.ok())
        return std::unique_ptr<RandomAccessFile>(
            std::make_unique<NamedFile>(std::move(*cached), path));
    }
    if (size > options_.max_bytes / kMaxFileShare) return from_store();
    SLUICE_ASSIGN_OR_RETURN(std::string content, base()->ReadFile(path));
    if (static_cast<int64_t>(content.size()) <= options_.max_bytes / kMaxFileShare) {
      Insert(copy, content);
    }
    return std::unique_ptr<RandomAccessFile>(
        std::make_unique<MemoryCopy>(path, std::move(content)));
  }

  // Writes `content` as the copy `copy` (temp name, then rename) and evicts down to the bound.
  // A failure only means the next read goes to the store again.
  void Insert(const std::string& copy, std::string_view content) {
    if (static_cast<int64_t>(content.size()) > options_.max_bytes / kMaxFileShare) return;
    const std::string temp = copy + std::string(kTempMarker) + std::to_string(::getpid()) + "-" +
                             std::to_string(counter_.fetch_add(1));
    Status st = local_->WriteFileAtomic(temp, content, true);
    if (st.ok()) st = local_->Rename(temp, copy);
    if (!st.ok()) {
      local_->Delete(temp, false).IgnoreError();
      return;
    }
    Evict();
  }

  // Deletes the least recently used copies until the directory holds at most max_bytes.
  void Evict() {
    struct Entry {
      std::filesystem::path path;
      int64_t size;
      int64_t used_ns;
    };
    std::vector<Entry> entries;
    int64_t total = 0;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(options_.dir, ec)) {
      const std::string name = e.path().filename().string();
      struct stat st;
      if (::stat(e.path().c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
      // Another process's copy in the making counts, but is not evicted.
      total += st.st_size;
      if (name.find(kTempMarker) != std::string::npos) continue;
      entries.push_back(Entry{e.path(), st.st_size,
                              int64_t{st.st_mtim.tv_sec} * 1000000000 + st.st_mtim.tv_nsec});
    }
    if (total <= options_.max_bytes) return;
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.used_ns < b.used_ns; });
    for (const Entry& e : entries) {
      if (total <= options_.max_bytes) break;
      if (std::filesystem::remove(e.path, ec)) total -= e.size;
    }
  }

  // A cached copy read under the store's path (errors name the path the caller knows).
  class NamedFile final : public RandomAccessFile {
   public:
    NamedFile(std::unique_ptr<RandomAccessFile> file, std::string path)
        : file_(std::move(file)), path_(std::move(path)) {}
    const std::string& path() const override { return path_; }
    int64_t size() const override { return file_->size(); }
    Status ReadAt(int64_t offset, int64_t n, uint8_t* out) const override {
      return file_->ReadAt(offset, n, out);
    }

   private:
    std::unique_ptr<RandomAccessFile> file_;
    std::string path_;
  };

  // The content just fetched, read from memory.
  class MemoryCopy final : public RandomAccessFile {
   public:
    MemoryCopy(std::string path, std::string content)
        : path_(std::move(path)), content_(std::move(content)) {}
    const std::string& path() const override { return path_; }
    int64_t size() const override { return static_cast<int64_t>(content_.size()); }
    Status ReadAt(int64_t offset, int64_t n, uint8_t* out) const override {
      if (offset < 0 || n < 0 || offset > size() || n > size() - offset) {
        return Status::Corruption(path_ + ": read of " + std::to_string(n) + " bytes at offset " +
                                  std::to_string(offset) + " is past the end of the file (size " +
                                  std::to_string(size()) + ")");
      }
      std::copy_n(content_.data() + offset, n, out);
      return Status::OK();
    }

   private:
    std::string path_;
    std::string content_;
  };

  FileCacheOptions options_;
  std::shared_ptr<FileIO> local_;
  std::atomic<uint64_t> counter_{0};
};

}  // namespace

Result<std::optional<FileCacheOptions>> FileCacheOptions::FromOptions(
    const std::map<std::string, std::string>& options) {
  auto dir = options.find("cache.dir");
  if (dir == options.end() || dir->second.empty()) return std::optional<FileCacheOptions>();
  FileCacheOptions out;
  out.dir = dir->second;
  if (auto size = options.find("cache.max-size"); size != options.end()) {
    SLUICE_ASSIGN_OR_RETURN(out.max_bytes, ParseCacheSize("cache.max-size", size->second));
  }
  return std::optional<FileCacheOptions>(std::move(out));
}

bool IsImmutableTableFile(std::string_view path) {
  const std::string_view name = BaseName(path);
  for (std::string_view prefix : {"data-", "changelog-", "manifest-", "index-", "stat-"}) {
    if (name.starts_with(prefix)) return true;
  }
  return false;
}

Result<std::shared_ptr<FileIO>> MakeCachingFileIO(std::shared_ptr<FileIO> base,
                                                  const FileCacheOptions& options) {
  std::error_code ec;
  std::filesystem::create_directories(options.dir, ec);
  if (ec) {
    return Status::IOError("cache.dir '" + options.dir + "': cannot create it: " + ec.message());
  }
  return std::shared_ptr<FileIO>(std::make_shared<CachingFileIO>(std::move(base), options));
}

}  // namespace sluice
