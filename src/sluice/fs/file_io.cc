#include "sluice/fs/file_io.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <random>

namespace sluice {

namespace {

// Unique per process and call: the pid tells apart forked children, which inherit the seed and
// the counter, so two processes never write the same temporary file.
std::string TempNameFor(const std::string& path) {
  static std::atomic<uint64_t> counter{0};
  static const uint64_t seed = std::random_device{}();
  const std::string dir = ParentDir(path);
  std::string name = path.substr(dir.empty() ? 0 : dir.size() + (dir == "/" ? 0 : 1));
  return JoinPath(dir, "." + name + "." + std::to_string(seed) + "." + std::to_string(::getpid()) +
                           "." + std::to_string(counter++) + ".tmp");
}

}  // namespace

Status FileIO::WriteFileAtomic(const std::string& path, std::string_view content, bool overwrite) {
  const std::string tmp = TempNameFor(path);
  {
    SLUICE_ASSIGN_OR_RETURN(auto file, OpenForWrite(tmp, /*overwrite=*/false));
    Status st = file->Append(content);
    if (st.ok()) st = file->Close();
    if (!st.ok()) {
      Delete(tmp, /*recursive=*/false).IgnoreError();  // the first error is the one to report
      return st;
    }
  }
  Status moved = overwrite ? Rename(tmp, path) : RenameNoReplace(tmp, path);
  if (!moved.ok()) {
    Delete(tmp, /*recursive=*/false).IgnoreError();  // the move's error is the one to report
    return moved;
  }
  // The new name (and the temporary name's removal) survive a power loss only once the
  // directory is synced; before that, a commit reported as done could vanish.
  return SyncDir(ParentDir(path));
}

Result<std::unique_ptr<RandomAccessFile>> FileIO::OpenForReadWithSize(const std::string& path,
                                                                      int64_t size) {
  return OpenForRead(path);
}

Result<std::unique_ptr<DirectoryWatcher>> FileIO::WatchDir(const std::string& dir) {
  return NewPollingDirectoryWatcher(this, dir);
}

std::string StripFileScheme(std::string_view path) {
  if (path.size() >= 5 && (path.substr(0, 5) == "file:" || path.substr(0, 5) == "FILE:")) {
    path.remove_prefix(5);
    while (path.size() >= 2 && path[0] == '/' && path[1] == '/') path.remove_prefix(1);
  }
  return std::string(path);
}

std::string JoinPath(std::string_view a, std::string_view b) {
  if (a.empty()) return std::string(b);
  std::string out(a);
  if (out.back() != '/') out += '/';
  while (!b.empty() && b.front() == '/') b.remove_prefix(1);
  out += b;
  return out;
}

size_t UriRootLength(std::string_view path) {
  // A scheme is a letter, then letters, digits, '+', '-' or '.' (RFC 3986), and an authority
  // follows "//" up to the next '/'.
  if (path.empty() || !std::isalpha(static_cast<unsigned char>(path[0]))) return 0;
  size_t i = 1;
  while (i < path.size() && (std::isalnum(static_cast<unsigned char>(path[i])) || path[i] == '+' ||
                             path[i] == '-' || path[i] == '.')) {
    ++i;
  }
  if (path.substr(i, 3) != "://") return 0;
  const size_t slash = path.find('/', i + 3);
  return slash == std::string_view::npos ? path.size() : slash;
}

std::string NormalizePath(std::string_view raw) {
  std::string path = StripFileScheme(raw);
  const size_t root = UriRootLength(path);
  std::string out = path.substr(0, root);
  out.reserve(path.size());
  for (size_t i = root; i < path.size(); ++i) {
    const char c = path[i];
    if (c == '/' && out.size() > root && out.back() == '/') continue;
    out += c;
  }
  while (out.size() > std::max<size_t>(root, 1) && out.back() == '/') out.pop_back();
  return out;
}

std::string ParentDir(std::string_view path) {
  const size_t root = UriRootLength(path);
  while (path.size() > root + 1 && path.back() == '/') path.remove_suffix(1);
  // "s3://bucket" and "s3://bucket/" are the root of their store: no parent, as Java's Path.
  if (root > 0 && path.size() <= root + 1) return std::string();
  const size_t slash = path.rfind('/');
  if (slash == std::string_view::npos) return std::string();
  if (slash == 0) return "/";
  return std::string(path.substr(0, slash));
}

}  // namespace sluice
