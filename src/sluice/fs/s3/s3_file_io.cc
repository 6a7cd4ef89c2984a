#include "sluice/fs/s3/s3_file_io.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <optional>
#include <thread>

#include "sluice/fs/s3/aws_sigv4.h"
#include "sluice/fs/s3/s3_client.h"
#include "sluice/fs/s3/s3_object_writer.h"
#include "sluice/fs/s3/s3_path.h"
#include "sluice/fs/s3/s3_xml.h"

namespace sluice {

namespace {

// DeleteObjects takes at most this many keys.
constexpr size_t kMaxDeleteBatch = 1000;

// A listing's "2026-12-07T21:41:01.000Z" in milliseconds since the epoch; 0 when malformed.
int64_t ParseIsoTimeMs(const std::string& text) {
  std::tm tm{};
  int millis = 0;
  if (std::sscanf(text.c_str(), "%d-%d-%dT%d:%d:%d.%3d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                  &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &millis) < 6) {
    return 0;
  }
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return static_cast<int64_t>(timegm(&tm)) * 1000 + millis;
}

// A HEAD's Last-Modified, "Mon, 07 Dec 2026 21:41:01 GMT", in milliseconds; 0 when malformed.
int64_t ParseHttpTimeMs(const std::string& text) {
  std::tm tm{};
  if (strptime(text.c_str(), "%a, %d %b %Y %H:%M:%S", &tm) == nullptr) return 0;
  return static_cast<int64_t>(timegm(&tm)) * 1000;
}

int64_t ParseInt(const std::string& text) {
  return text.empty() ? 0 : static_cast<int64_t>(std::strtoll(text.c_str(), nullptr, 10));
}

// Reads that a store of round trips serves better from a larger request kept in memory:
// - a file of at most kSmallFileSize is fetched whole by its first partial read (a manifest, a
//   small data file: its magic, footer and columns in one request);
// - a read of at most kWindowSize bytes within the last kWindowSize of a larger file fetches
//   that whole tail (a Parquet footer's length, then the footer; an ORC postscript, footer and
//   metadata), and one within the first kWindowSize fetches the head (the format's magic).
constexpr int64_t kSmallFileSize = int64_t{1} << 20;
constexpr int64_t kWindowSize = int64_t{64} << 10;
// Prefetch: ranges at most this far apart are one request, requests at most this large.
constexpr CoalesceOptions kPrefetchCoalesce{int64_t{1} << 20, int64_t{8} << 20};
// One Prefetch call fetches at most this much (a larger row group is read on demand past it).
constexpr int64_t kMaxPrefetchBytes = int64_t{256} << 20;
// Prefetch requests in flight at once, in the whole process.
constexpr int kMaxRequestsInFlight = 8;

// The workers that run prefetch requests, first come first served: a reader's requests run in
// the order it will need them, and those of its next row group after those of this one.
// Process-wide and never destroyed (its threads may still wait at exit).
class FetchPool {
 public:
  static FetchPool& Get() {
    static FetchPool* pool = new FetchPool();
    return *pool;
  }

  void Submit(std::function<void()> task) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      queue_.push_back(std::move(task));
    }
    cv_.notify_one();
  }

 private:
  FetchPool() {
    for (int i = 0; i < kMaxRequestsInFlight; ++i) std::thread([this] { Work(); }).detach();
  }

  void Work() {
    while (true) {
      std::function<void()> task;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [this] { return !queue_.empty(); });
        task = std::move(queue_.front());
        queue_.pop_front();
      }
      task();
    }
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
};

// The bytes [range.offset, range.end()) of the object, by one ranged GET (conditional on
// `etag` unless it is empty).
Result<std::string> GetRange(const S3Client& client, const S3Path& path,
                             const std::string& display_path, const std::string& etag, int64_t size,
                             ReadRange range) {
  S3Request get{
      "GET",
      path.bucket,
      path.key,
      {},
      {{"range", "bytes=" + std::to_string(range.offset) + "-" + std::to_string(range.end() - 1)}},
      {}};
  if (!etag.empty()) get.headers.emplace_back("if-match", etag);
  SLUICE_ASSIGN_OR_RETURN(S3Response response, client.Send(get));
  if (response.status == 412) {
    return Status::IOError(
        S3Client::ErrorStatus(display_path + ": read: the object was replaced since it was opened",
                              get, response)
            .message());
  }
  if (!response.ok()) return S3Client::ErrorStatus(display_path + ": read", get, response);
  // A server that ignores the range sends the whole object.
  if (response.status == 200 && static_cast<int64_t>(response.body.size()) == size &&
      range.length != size) {
    response.body =
        response.body.substr(static_cast<size_t>(range.offset), static_cast<size_t>(range.length));
  }
  if (static_cast<int64_t>(response.body.size()) != range.length) {
    return Status::Corruption(display_path + ": read of " + std::to_string(range.length) +
                              " bytes at offset " + std::to_string(range.offset) + " got " +
                              std::to_string(response.body.size()) + " bytes (bucket '" +
                              path.bucket + "', key '" + path.key + "')");
  }
  return std::move(response.body);
}

class S3RandomAccessFile final : public RandomAccessFile {
 public:
  // `etag` empty: reads are not conditional (a file opened with a known size, never replaced).
  S3RandomAccessFile(std::shared_ptr<const S3Client> client, S3Path path, int64_t size,
                     std::string etag)
      : client_(std::move(client)),
        path_(std::move(path)),
        display_path_(path_.ToString()),
        size_(size),
        etag_(std::move(etag)) {}

  const std::string& path() const override { return display_path_; }
  int64_t size() const override { return size_; }

  Status ReadAt(int64_t offset, int64_t n, uint8_t* out) const override {
    if (offset < 0 || n < 0 || offset > size_ || n > size_ - offset) {
      return Status::Corruption(display_path_ + ": read of " + std::to_string(n) +
                                " bytes at offset " + std::to_string(offset) +
                                " is past the end of the file (size " + std::to_string(size_) +
                                ")");
    }
    if (n == 0) return Status::OK();
    std::lock_guard<std::mutex> lock(mu_);
    Status st;
    if (CopyFromFetched(offset, n, out, &st)) return st;
    std::optional<ReadRange> window;
    if (size_ <= kSmallFileSize && n < size_) {
      window = ReadRange{0, size_};
    } else if (n <= kWindowSize && offset >= size_ - kWindowSize) {
      window = ReadRange{size_ - kWindowSize, kWindowSize};
    } else if (n <= kWindowSize && offset + n <= kWindowSize) {
      window = ReadRange{0, kWindowSize};
    }
    if (!window) {
      SLUICE_ASSIGN_OR_RETURN(std::string body, GetRange(*client_, path_, display_path_, etag_,
                                                         size_, ReadRange{offset, n}));
      std::memcpy(out, body.data(), body.size());
      return Status::OK();
    }
    // Kept only when it succeeded: a failure is reported once, and the next read tries again.
    Result<std::string> body = GetRange(*client_, path_, display_path_, etag_, size_, *window);
    if (!body.ok()) return body.status();
    std::promise<Result<std::string>> fetched;
    fetched.set_value(std::move(body));
    windows_.push_back(Fetch{*window, fetched.get_future().share(), nullptr});
    if (CopyFromFetched(offset, n, out, &st)) return st;
    return Status::Corruption(display_path_ + ": read window does not cover the read");
  }

  // Keeps `data`, the bytes [0, data.size()) read when the file was opened.
  void KeepHead(std::string data) {
    const auto n = static_cast<int64_t>(data.size());
    if (n == 0) return;
    std::promise<Result<std::string>> fetched;
    fetched.set_value(std::move(data));
    windows_.push_back(Fetch{ReadRange{0, n}, fetched.get_future().share(), nullptr});
  }

  void Prefetch(const std::vector<ReadRange>& ranges) const override {
    std::vector<ReadRange> clipped;
    for (ReadRange r : ranges) {
      r.offset = std::max<int64_t>(r.offset, 0);
      r.length = std::min(r.end(), size_) - r.offset;
      if (r.length > 0) clipped.push_back(r);
    }
    std::lock_guard<std::mutex> lock(mu_);
    // The requests, then in the order a reader consumes them: the first piece of every column
    // chunk, then the second, ... (a chunk larger than the request size is cut into pieces of
    // exactly that size, which is how its continuation pieces are recognized).
    std::vector<std::pair<int, ReadRange>> ranked;
    int64_t bytes = 0;
    int rank = 0;
    ReadRange last{0, 0};
    for (const ReadRange& r : CoalesceReadRanges(std::move(clipped), kPrefetchCoalesce)) {
      rank = last.end() == r.offset && last.length == kPrefetchCoalesce.max_size ? rank + 1 : 0;
      last = r;
      if (Covered(r)) continue;
      if (bytes + r.length > kMaxPrefetchBytes) break;
      bytes += r.length;
      ranked.emplace_back(rank, r);
    }
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<Fetch> generation;
    for (const auto& ranked_range : ranked) {
      // A copy, not a structured binding: clang (the fuzz build) cannot capture those.
      const ReadRange r = ranked_range.second;
      auto promise = std::make_shared<std::promise<Result<std::string>>>();
      Fetch fetch{r, promise->get_future().share(), std::make_shared<std::atomic<bool>>(false)};
      FetchPool::Get().Submit([client = client_, path = path_, display = display_path_,
                               etag = etag_, size = size_, r, promise,
                               cancelled = fetch.cancelled] {
        // Dropped before it ran (the file closed, a later row group's data replaced it).
        if (cancelled->load()) {
          promise->set_value(Status::IOError(display + ": prefetch cancelled"));
          return;
        }
        promise->set_value(GetRange(*client, path, display, etag, size, r));
      });
      generation.push_back(std::move(fetch));
    }
    // Nothing new to fetch: the data kept stays as it is.
    if (generation.empty()) return;
    prefetched_.push_back(std::move(generation));
    if (prefetched_.size() > 2) {
      Cancel(prefetched_.front());
      prefetched_.pop_front();
    }
  }

  ~S3RandomAccessFile() override {
    for (const auto& generation : prefetched_) Cancel(generation);
  }

 private:
  // Bytes being or already fetched; `data` holds exactly range.length bytes when it is OK.
  struct Fetch {
    ReadRange range;
    std::shared_future<Result<std::string>> data;
    // Set when nobody will read it: a request not yet started is skipped.
    std::shared_ptr<std::atomic<bool>> cancelled;
  };

  static void Cancel(const std::vector<Fetch>& generation) {
    for (const Fetch& f : generation) {
      if (f.cancelled) f.cancelled->store(true);
    }
  }

  // The fetch holding byte `pos`, or null. REQUIRES: mu_ held.
  const Fetch* Holding(int64_t pos) const {
    for (const auto& generation : prefetched_) {
      for (const Fetch& f : generation) {
        if (f.range.offset <= pos && pos < f.range.end()) return &f;
      }
    }
    for (const Fetch& f : windows_) {
      if (f.range.offset <= pos && pos < f.range.end()) return &f;
    }
    return nullptr;
  }

  // Whether fetches already cover all of `r`. REQUIRES: mu_ held.
  bool Covered(const ReadRange& r) const {
    int64_t pos = r.offset;
    while (pos < r.end()) {
      const Fetch* f = Holding(pos);
      if (f == nullptr) return false;
      pos = f->range.end();
    }
    return true;
  }

  // Copies [offset, offset + n) from fetches that cover it, waiting for them: false when they do
  // not cover it; true with `st` set (a failed fetch's error) otherwise. REQUIRES: mu_ held.
  bool CopyFromFetched(int64_t offset, int64_t n, uint8_t* out, Status* st) const {
    if (!Covered(ReadRange{offset, n})) return false;
    int64_t pos = offset;
    while (pos < offset + n) {
      const Fetch* f = Holding(pos);
      const Result<std::string>& data = f->data.get();
      if (!data.ok()) {
        *st = data.status();
        return true;
      }
      const int64_t take = std::min(offset + n, f->range.end()) - pos;
      std::memcpy(out + (pos - offset), data->data() + (pos - f->range.offset),
                  static_cast<size_t>(take));
      pos += take;
    }
    *st = Status::OK();
    return true;
  }

  std::shared_ptr<const S3Client> client_;
  S3Path path_;
  std::string display_path_;
  int64_t size_;
  std::string etag_;
  mutable std::mutex mu_;
  // The whole small file, or its head and tail windows, kept while the file is open.
  mutable std::vector<Fetch> windows_;
  // The ranges of the last two Prefetch calls.
  mutable std::deque<std::vector<Fetch>> prefetched_;
};

// One page of a ListObjectsV2 answer.
struct ListPage {
  std::vector<FileStatus> objects;  // path holds the key
  std::vector<std::string> prefixes;
  std::string next_token;  // "" on the last page
};

class S3FileIOImpl final : public FileIO {
 public:
  explicit S3FileIOImpl(std::shared_ptr<const S3Client> client) : client_(std::move(client)) {}

  // One GET of the first kSmallFileSize bytes instead of a HEAD: its Content-Range gives the
  // size and its ETag the version, and a small file (a manifest) comes whole with it.
  Result<std::unique_ptr<RandomAccessFile>> OpenForRead(const std::string& raw) override {
    SLUICE_ASSIGN_OR_RETURN(S3Path path, ParseObject(raw, "open"));
    S3Request get{"GET",
                  path.bucket,
                  path.key,
                  {},
                  {{"range", "bytes=0-" + std::to_string(kSmallFileSize - 1)}},
                  {}};
    SLUICE_ASSIGN_OR_RETURN(S3Response response, client_->Send(get));
    if (response.status == 404) return NotFound(path, "open");
    if (response.status == 416) {
      // An empty object has no byte 0.
      SLUICE_ASSIGN_OR_RETURN(auto head, Head(path, "open"));
      if (!head) return NotFound(path, "open");
      return std::unique_ptr<RandomAccessFile>(std::make_unique<S3RandomAccessFile>(
          client_, path, ParseInt(head->Header("content-length")), head->Header("etag")));
    }
    if (!response.ok()) return S3Client::ErrorStatus(path.ToString() + ": open", get, response);
    auto size = static_cast<int64_t>(response.body.size());  // 200: the whole object
    if (response.status == 206) {
      const std::string range = response.Header("content-range");  // "bytes 0-N/SIZE"
      const size_t slash = range.rfind('/');
      size = slash == std::string::npos ? -1 : ParseInt(range.substr(slash + 1));
      if (size < static_cast<int64_t>(response.body.size())) {
        return Status::IOError(path.ToString() +
                               ": open: a ranged GET answered with Content-Range '" + range +
                               "' for " + std::to_string(response.body.size()) +
                               " bytes (bucket '" + path.bucket + "', key '" + path.key + "')");
      }
    }
    auto file = std::make_unique<S3RandomAccessFile>(client_, path, size, response.Header("etag"));
    file->KeepHead(std::move(response.body));
    return std::unique_ptr<RandomAccessFile>(std::move(file));
  }

  Result<std::unique_ptr<RandomAccessFile>> OpenForReadWithSize(const std::string& raw,
                                                                int64_t size) override {
    SLUICE_ASSIGN_OR_RETURN(S3Path path, ParseObject(raw, "open"));
    if (size <= 0) return OpenForRead(raw);  // a size left unset
    return std::unique_ptr<RandomAccessFile>(
        std::make_unique<S3RandomAccessFile>(client_, std::move(path), size, ""));
  }

  Result<std::unique_ptr<WritableFile>> OpenForWrite(const std::string& raw,
                                                     bool overwrite) override {
    SLUICE_ASSIGN_OR_RETURN(S3Path path, ParseObject(raw, "create"));
    // Fails early, as a local create does; the conditional create at Close is what decides.
    if (!overwrite) {
      SLUICE_ASSIGN_OR_RETURN(auto head, Head(path, "create"));
      if (head) return Status::AlreadyExists(path.ToString() + ": create: File exists");
    }
    return std::unique_ptr<WritableFile>(
        std::make_unique<S3WritableFile>(client_, std::move(path), overwrite));
  }

  Result<std::string> ReadFile(const std::string& raw) override {
    SLUICE_ASSIGN_OR_RETURN(S3Path path, ParseObject(raw, "open"));
    S3Request get{"GET", path.bucket, path.key, {}, {}, {}};
    SLUICE_ASSIGN_OR_RETURN(S3Response response, client_->Send(get));
    if (!response.ok()) return S3Client::ErrorStatus(path.ToString() + ": open", get, response);
    return std::move(response.body);
  }

  Status WriteFileAtomic(const std::string& raw, std::string_view content,
                         bool overwrite) override {
    SLUICE_ASSIGN_OR_RETURN(S3Path path, ParseObject(raw, "create"));
    return S3PutObject(*client_, path, content, overwrite);
  }

  Result<bool> Exists(const std::string& raw) override {
    SLUICE_ASSIGN_OR_RETURN(S3Path path, Parse(raw));
    if (!path.key.empty()) {
      SLUICE_ASSIGN_OR_RETURN(auto head, Head(path, "stat"));
      if (head) return true;
    }
    return IsDirectory(path);
  }

  Result<FileStatus> GetStatus(const std::string& raw) override {
    SLUICE_ASSIGN_OR_RETURN(S3Path path, Parse(raw));
    if (!path.key.empty()) {
      SLUICE_ASSIGN_OR_RETURN(auto head, Head(path, "stat"));
      if (head) {
        return FileStatus{path.ToString(), ParseInt(head->Header("content-length")), false,
                          ParseHttpTimeMs(head->Header("last-modified"))};
      }
    }
    SLUICE_ASSIGN_OR_RETURN(bool dir, IsDirectory(path));
    if (!dir) return NotFound(path, "stat");
    return FileStatus{path.ToString(), 0, true, 0};
  }

  Result<std::vector<FileStatus>> ListDir(const std::string& raw) override {
    SLUICE_ASSIGN_OR_RETURN(S3Path dir, Parse(raw));
    const std::string prefix = dir.DirPrefix();
    std::vector<FileStatus> out;
    bool found = false;
    std::string token;
    do {
      SLUICE_ASSIGN_OR_RETURN(
          ListPage page, List(dir, prefix, "/", token, client_->options().list_page_size, "list"));
      for (FileStatus& object : page.objects) {
        found = true;
        // A "dir/" marker object (written by other tools) makes the directory, not an entry.
        if (object.path == prefix) continue;
        object.path = dir.root + "/" + object.path;
        out.push_back(std::move(object));
      }
      for (std::string& sub : page.prefixes) {
        found = true;
        sub.pop_back();  // the delimiter
        out.push_back(FileStatus{dir.root + "/" + sub, 0, true, 0});
      }
      token = std::move(page.next_token);
    } while (!token.empty());
    if (!found && !dir.key.empty()) {
      return Status::NotFound(dir.ToString() + ": list: no such directory (bucket '" + dir.bucket +
                              "', prefix '" + prefix + "')");
    }
    std::sort(out.begin(), out.end(),
              [](const FileStatus& a, const FileStatus& b) { return a.path < b.path; });
    return out;
  }

  // As Hadoop's S3A does: an empty "dir/" marker object, so that a directory created empty (a
  // new database) is listed. AlreadyExists when an object has the directory's name.
  Status MkDirs(const std::string& raw) override {
    SLUICE_ASSIGN_OR_RETURN(S3Path path, Parse(raw));
    if (path.key.empty()) return Status::OK();
    SLUICE_ASSIGN_OR_RETURN(auto head, Head(path, "mkdir"));
    if (head) return Status::AlreadyExists(path.ToString() + ": mkdir: not a directory");
    S3Request put{"PUT", path.bucket, path.DirPrefix(), {}, {}, {}};
    SLUICE_ASSIGN_OR_RETURN(S3Response response, client_->Send(put));
    if (!response.ok()) return S3Client::ErrorStatus(path.ToString() + ": mkdir", put, response);
    return Status::OK();
  }

  Status Delete(const std::string& raw, bool recursive) override {
    SLUICE_ASSIGN_OR_RETURN(S3Path path, Parse(raw));
    const std::string prefix = path.DirPrefix();
    if (!recursive) {
      // Keys list in order, so a "dir/" marker comes before anything under it.
      SLUICE_ASSIGN_OR_RETURN(ListPage page, List(path, prefix, "", "", 2, "delete"));
      bool marker = false;
      for (const FileStatus& object : page.objects) {
        if (object.path != prefix) {
          return Status::IOError(path.ToString() + ": delete: Directory not empty");
        }
        marker = true;
      }
      std::vector<std::string> keys;
      if (!path.key.empty()) keys.push_back(path.key);
      if (marker) keys.push_back(prefix);
      return DeleteKeys(path, keys);
    }
    if (!path.key.empty()) SLUICE_RETURN_NOT_OK(DeleteKeys(path, {path.key}));
    std::string token;
    do {
      SLUICE_ASSIGN_OR_RETURN(ListPage page, List(path, prefix, "", token,
                                                  client_->options().list_page_size, "delete"));
      std::vector<std::string> keys;
      for (const FileStatus& object : page.objects) keys.push_back(object.path);
      SLUICE_RETURN_NOT_OK(DeleteKeys(path, keys));
      token = std::move(page.next_token);
    } while (!token.empty());
    return Status::OK();
  }

  Status RenameNoReplace(const std::string& from, const std::string& to) override {
    return Move(from, to, /*replace=*/false);
  }

  Status Rename(const std::string& from, const std::string& to) override {
    return Move(from, to, /*replace=*/true);
  }

  Status SyncDir(const std::string& raw) override { return Parse(raw).status(); }

 private:
  static Result<S3Path> Parse(const std::string& raw) { return S3Path::Parse(raw); }

  // A path that must name an object, not the bucket.
  static Result<S3Path> ParseObject(const std::string& raw, std::string_view what) {
    SLUICE_ASSIGN_OR_RETURN(S3Path path, S3Path::Parse(raw));
    if (path.key.empty()) {
      return Status::InvalidArgument(raw + ": " + std::string(what) +
                                     ": is a bucket, not an object");
    }
    return path;
  }

  static Status NotFound(const S3Path& path, std::string_view what) {
    return Status::NotFound(path.ToString() + ": " + std::string(what) +
                            ": no such file or directory (bucket '" + path.bucket + "', key '" +
                            path.key + "')");
  }

  // The HEAD of the object, or nullopt when there is none.
  Result<std::optional<S3Response>> Head(const S3Path& path, std::string_view what) const {
    S3Request head{"HEAD", path.bucket, path.key, {}, {}, {}};
    SLUICE_ASSIGN_OR_RETURN(S3Response response, client_->Send(head));
    if (response.status == 404) return std::optional<S3Response>();
    if (!response.ok()) {
      return S3Client::ErrorStatus(path.ToString() + ": " + std::string(what), head, response);
    }
    return std::optional<S3Response>(std::move(response));
  }

  // Whether any key is under `path` as a directory (for the bucket: whether it exists).
  Result<bool> IsDirectory(const S3Path& path) const {
    Result<ListPage> page = List(path, path.DirPrefix(), "", "", 1, "stat");
    if (page.status().IsNotFound()) return false;  // NoSuchBucket
    SLUICE_RETURN_NOT_OK(page.status());
    return path.key.empty() || !page->objects.empty() || !page->prefixes.empty();
  }

  Result<ListPage> List(const S3Path& path, const std::string& prefix, const std::string& delimiter,
                        const std::string& token, int max_keys, std::string_view what) const {
    S3Request list{
        "GET", path.bucket,
        "",    {{"list-type", "2"}, {"prefix", prefix}, {"max-keys", std::to_string(max_keys)}},
        {},    {}};
    if (!delimiter.empty()) list.query.emplace_back("delimiter", delimiter);
    if (!token.empty()) list.query.emplace_back("continuation-token", token);
    SLUICE_ASSIGN_OR_RETURN(S3Response response, client_->Send(list));
    if (!response.ok()) {
      return S3Client::ErrorStatus(
          path.ToString() + ": " + std::string(what) + " (prefix '" + prefix + "')", list,
          response);
    }
    ListPage page;
    for (std::string_view contents : XmlElements(response.body, "Contents")) {
      page.objects.push_back(FileStatus{XmlText(contents, "Key"),
                                        ParseInt(XmlText(contents, "Size")), false,
                                        ParseIsoTimeMs(XmlText(contents, "LastModified"))});
    }
    for (std::string_view common : XmlElements(response.body, "CommonPrefixes")) {
      page.prefixes.push_back(XmlText(common, "Prefix"));
    }
    if (XmlText(response.body, "IsTruncated") == "true") {
      page.next_token = XmlText(response.body, "NextContinuationToken");
      if (page.next_token.empty()) {
        return Status::IOError(path.ToString() + ": " + std::string(what) +
                               ": a truncated listing without a continuation token (bucket '" +
                               path.bucket + "', prefix '" + prefix + "')");
      }
    }
    return page;
  }

  // Deletes `keys` of `path`'s bucket (missing ones are fine).
  Status DeleteKeys(const S3Path& path, const std::vector<std::string>& keys) const {
    if (keys.size() == 1) {
      S3Request del{"DELETE", path.bucket, keys.front(), {}, {}, {}};
      SLUICE_ASSIGN_OR_RETURN(S3Response response, client_->Send(del));
      if (!response.ok() && response.status != 404) {
        return S3Client::ErrorStatus(path.ToString() + ": delete", del, response);
      }
      return Status::OK();
    }
    for (size_t begin = 0; begin < keys.size(); begin += kMaxDeleteBatch) {
      const size_t end = std::min(keys.size(), begin + kMaxDeleteBatch);
      std::string body = "<Delete><Quiet>true</Quiet>";
      for (size_t i = begin; i < end; ++i) {
        body += "<Object><Key>" + XmlEscape(keys[i]) + "</Key></Object>";
      }
      body += "</Delete>";
      S3Request del{"POST",
                    path.bucket,
                    "",
                    {{"delete", ""}},
                    {{"content-md5", Md5Base64(body)}, {"content-type", "application/xml"}},
                    body};
      SLUICE_ASSIGN_OR_RETURN(S3Response response, client_->Send(del));
      if (!response.ok()) return S3Client::ErrorStatus(path.ToString() + ": delete", del, response);
      auto errors = XmlElements(response.body, "Error");
      if (!errors.empty()) {
        return Status::IOError(
            path.ToString() + ": delete: " + std::to_string(errors.size()) + " of " +
            std::to_string(end - begin) + " keys not deleted, e.g. '" +
            XmlText(errors.front(), "Key") + "': " + XmlText(errors.front(), "Code") + ": " +
            XmlText(errors.front(), "Message") + " (bucket '" + path.bucket + "')");
      }
    }
    return Status::OK();
  }

  Status Copy(const S3Path& from, const std::string& from_key, const S3Path& to,
              const std::string& to_key) const {
    S3Request copy{"PUT",
                   to.bucket,
                   to_key,
                   {},
                   {{"x-amz-copy-source", "/" + from.bucket + "/" + UriEncode(from_key, false)}},
                   {}};
    SLUICE_ASSIGN_OR_RETURN(S3Response response, client_->Send(copy));
    if (!response.ok()) {
      return S3Client::ErrorStatus(
          to.root + "/" + to_key + ": rename from " + from.root + "/" + from_key, copy, response);
    }
    return Status::OK();
  }

  // Copy, then delete: a file, or every key under a directory.
  Status Move(const std::string& raw_from, const std::string& raw_to, bool replace) {
    SLUICE_ASSIGN_OR_RETURN(S3Path from, ParseObject(raw_from, "rename"));
    SLUICE_ASSIGN_OR_RETURN(S3Path to, ParseObject(raw_to, "rename"));
    if (!replace) {
      SLUICE_ASSIGN_OR_RETURN(bool taken, Exists(raw_to));
      if (taken) {
        return Status::AlreadyExists(to.ToString() + ": rename from " + from.ToString() +
                                     ": File exists");
      }
    }
    SLUICE_ASSIGN_OR_RETURN(auto head, Head(from, "rename"));
    if (head) {
      SLUICE_RETURN_NOT_OK(Copy(from, from.key, to, to.key));
      return DeleteKeys(from, {from.key});
    }
    const std::string prefix = from.DirPrefix();
    bool found = false;
    std::string token;
    do {
      SLUICE_ASSIGN_OR_RETURN(ListPage page, List(from, prefix, "", token,
                                                  client_->options().list_page_size, "rename"));
      std::vector<std::string> keys;
      for (const FileStatus& object : page.objects) {
        found = true;
        SLUICE_RETURN_NOT_OK(
            Copy(from, object.path, to, to.DirPrefix() + object.path.substr(prefix.size())));
        keys.push_back(object.path);
      }
      SLUICE_RETURN_NOT_OK(DeleteKeys(from, keys));
      token = std::move(page.next_token);
    } while (!token.empty());
    if (!found) return NotFound(from, "rename");
    return Status::OK();
  }

  std::shared_ptr<const S3Client> client_;
};

}  // namespace

Result<std::shared_ptr<FileIO>> MakeS3FileIO(const S3Options& options) {
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<S3Client> client, S3Client::Make(options));
  return std::shared_ptr<FileIO>(
      std::make_shared<S3FileIOImpl>(std::shared_ptr<const S3Client>(std::move(client))));
}

}  // namespace sluice
