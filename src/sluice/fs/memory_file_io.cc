#include "sluice/fs/memory_file_io.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

#include "sluice/fs/memory_file.h"

namespace sluice {

namespace {

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// What every path under `dir` starts with. Paths under a directory are contiguous in a map
// from this prefix on ("/a-b" sorts between "/a" and "/a/b", so "/a" itself cannot be used).
std::string ChildPrefix(const std::string& dir) { return dir == "/" ? dir : dir + "/"; }

bool IsUnder(const std::string& path, const std::string& dir) {
  const std::string prefix = ChildPrefix(dir);
  return path.size() > prefix.size() && path.compare(0, prefix.size(), prefix) == 0;
}

// The file's bytes, shared by its name and by the writer that has it open.
struct FileNode {
  std::string data;
  int64_t modification_time_ms = 0;
};

}  // namespace

struct MemoryFileIO::State {
  std::mutex mutex;
  std::map<std::string, std::shared_ptr<FileNode>> files;
  std::set<std::string> dirs;

  // REQUIRES: mutex held.
  bool IsDir(const std::string& path) const {
    return path.empty() || path == "/" || dirs.count(path) > 0;
  }
  bool HasChildren(const std::string& dir) const {
    auto file = files.lower_bound(ChildPrefix(dir));
    if (file != files.end() && IsUnder(file->first, dir)) return true;
    auto sub = dirs.lower_bound(ChildPrefix(dir));
    return sub != dirs.end() && IsUnder(*sub, dir);
  }
  Status MakeDirs(const std::string& dir) {
    std::vector<std::string> chain;
    for (std::string d = dir; !d.empty() && d != "/"; d = ParentDir(d)) chain.push_back(d);
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      if (files.count(*it)) return Status::AlreadyExists(*it + ": mkdir: not a directory");
      dirs.insert(*it);
    }
    return Status::OK();
  }
};

namespace {

class MemoryWritableFile final : public WritableFile {
 public:
  MemoryWritableFile(std::shared_ptr<MemoryFileIO::State> state, std::string path,
                     std::shared_ptr<FileNode> node)
      : state_(std::move(state)), path_(std::move(path)), node_(std::move(node)) {}

  const std::string& path() const override { return path_; }
  int64_t bytes_written() const override { return written_; }

  Status Append(std::string_view data) override {
    if (closed_) return Status::IOError(path_ + ": write after close");
    std::lock_guard<std::mutex> lock(state_->mutex);
    node_->data.append(data);
    node_->modification_time_ms = NowMillis();
    written_ += static_cast<int64_t>(data.size());
    return Status::OK();
  }

  Status Close() override {
    closed_ = true;
    return Status::OK();
  }

 private:
  std::shared_ptr<MemoryFileIO::State> state_;
  std::string path_;
  std::shared_ptr<FileNode> node_;
  int64_t written_ = 0;
  bool closed_ = false;
};

}  // namespace

MemoryFileIO::MemoryFileIO() : state_(std::make_shared<State>()) {}
MemoryFileIO::~MemoryFileIO() = default;

Result<std::unique_ptr<RandomAccessFile>> MemoryFileIO::OpenForRead(const std::string& raw) {
  const std::string path = NormalizePath(raw);
  std::lock_guard<std::mutex> lock(state_->mutex);
  auto it = state_->files.find(path);
  if (it == state_->files.end()) {
    if (state_->IsDir(path)) return Status::InvalidArgument(path + ": is a directory");
    return Status::NotFound(path + ": open: No such file or directory");
  }
  return std::unique_ptr<RandomAccessFile>(
      std::make_unique<MemoryRandomAccessFile>(path, it->second->data));
}

Result<std::unique_ptr<WritableFile>> MemoryFileIO::OpenForWrite(const std::string& raw,
                                                                 bool overwrite) {
  const std::string path = NormalizePath(raw);
  std::lock_guard<std::mutex> lock(state_->mutex);
  if (state_->IsDir(path)) return Status::IOError(path + ": create: Is a directory");
  SLUICE_RETURN_NOT_OK(state_->MakeDirs(ParentDir(path)));
  auto it = state_->files.find(path);
  std::shared_ptr<FileNode> node;
  if (it != state_->files.end()) {
    if (!overwrite) return Status::AlreadyExists(path + ": create: File exists");
    node = it->second;  // truncated in place, as O_TRUNC keeps the inode
    node->data.clear();
  } else {
    node = std::make_shared<FileNode>();
    state_->files.emplace(path, node);
  }
  node->modification_time_ms = NowMillis();
  return std::unique_ptr<WritableFile>(
      std::make_unique<MemoryWritableFile>(state_, path, std::move(node)));
}

Result<std::string> MemoryFileIO::ReadFile(const std::string& path) {
  SLUICE_ASSIGN_OR_RETURN(auto file, OpenForRead(path));
  std::string out(static_cast<size_t>(file->size()), '\0');
  SLUICE_RETURN_NOT_OK(file->ReadAt(0, file->size(), reinterpret_cast<uint8_t*>(out.data())));
  return out;
}

Result<bool> MemoryFileIO::Exists(const std::string& raw) {
  const std::string path = NormalizePath(raw);
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->files.count(path) > 0 || state_->IsDir(path);
}

Result<FileStatus> MemoryFileIO::GetStatus(const std::string& raw) {
  const std::string path = NormalizePath(raw);
  std::lock_guard<std::mutex> lock(state_->mutex);
  if (auto it = state_->files.find(path); it != state_->files.end()) {
    return FileStatus{path, static_cast<int64_t>(it->second->data.size()), false,
                      it->second->modification_time_ms};
  }
  if (state_->IsDir(path)) return FileStatus{path, 0, true, 0};
  return Status::NotFound(path + ": stat: No such file or directory");
}

Result<std::vector<FileStatus>> MemoryFileIO::ListDir(const std::string& raw) {
  const std::string dir = NormalizePath(raw);
  std::lock_guard<std::mutex> lock(state_->mutex);
  if (!state_->IsDir(dir)) return Status::NotFound(dir + ": list: No such file or directory");
  std::vector<FileStatus> out;
  const std::string prefix = ChildPrefix(dir);
  for (auto it = state_->files.lower_bound(prefix);
       it != state_->files.end() && IsUnder(it->first, dir); ++it) {
    if (ParentDir(it->first) != dir) continue;
    out.push_back({it->first, static_cast<int64_t>(it->second->data.size()), false,
                   it->second->modification_time_ms});
  }
  for (auto it = state_->dirs.lower_bound(prefix); it != state_->dirs.end() && IsUnder(*it, dir);
       ++it) {
    if (ParentDir(*it) == dir) out.push_back({*it, 0, true, 0});
  }
  std::sort(out.begin(), out.end(),
            [](const FileStatus& a, const FileStatus& b) { return a.path < b.path; });
  return out;
}

Status MemoryFileIO::MkDirs(const std::string& raw) {
  const std::string dir = NormalizePath(raw);
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->MakeDirs(dir);
}

Status MemoryFileIO::Delete(const std::string& raw, bool recursive) {
  const std::string path = NormalizePath(raw);
  std::lock_guard<std::mutex> lock(state_->mutex);
  if (state_->files.erase(path) > 0) return Status::OK();
  if (!state_->dirs.count(path)) return Status::OK();
  if (state_->HasChildren(path)) {
    if (!recursive) return Status::IOError(path + ": delete: Directory not empty");
    for (auto it = state_->files.lower_bound(ChildPrefix(path));
         it != state_->files.end() && IsUnder(it->first, path);) {
      it = state_->files.erase(it);
    }
    for (auto it = state_->dirs.lower_bound(ChildPrefix(path));
         it != state_->dirs.end() && IsUnder(*it, path);) {
      it = state_->dirs.erase(it);
    }
  }
  state_->dirs.erase(path);
  return Status::OK();
}

Status MemoryFileIO::RenameNoReplace(const std::string& raw_from, const std::string& raw_to) {
  const std::string from = NormalizePath(raw_from);
  const std::string to = NormalizePath(raw_to);
  std::lock_guard<std::mutex> lock(state_->mutex);
  if (state_->files.count(to) || state_->IsDir(to)) {
    return Status::AlreadyExists(to + ": rename: File exists");
  }
  if (!state_->IsDir(ParentDir(to))) {
    return Status::NotFound(to + ": rename: No such file or directory");
  }
  if (auto it = state_->files.find(from); it != state_->files.end()) {
    auto node = it->second;
    state_->files.erase(it);
    state_->files.emplace(to, std::move(node));
    return Status::OK();
  }
  if (!state_->dirs.count(from)) {
    return Status::NotFound(from + ": rename: No such file or directory");
  }
  if (IsUnder(to, from)) return Status::InvalidArgument(to + ": rename: into itself");
  // A directory moves with everything under it.
  const auto rebase = [&](const std::string& path) { return to + path.substr(from.size()); };
  std::vector<std::pair<std::string, std::shared_ptr<FileNode>>> moved_files;
  for (auto it = state_->files.lower_bound(ChildPrefix(from));
       it != state_->files.end() && IsUnder(it->first, from);) {
    moved_files.emplace_back(rebase(it->first), std::move(it->second));
    it = state_->files.erase(it);
  }
  std::vector<std::string> moved_dirs{to};
  for (auto it = state_->dirs.lower_bound(ChildPrefix(from));
       it != state_->dirs.end() && IsUnder(*it, from);) {
    moved_dirs.push_back(rebase(*it));
    it = state_->dirs.erase(it);
  }
  state_->dirs.erase(from);
  for (auto& [path, node] : moved_files) state_->files.emplace(path, std::move(node));
  state_->dirs.insert(moved_dirs.begin(), moved_dirs.end());
  return Status::OK();
}

Status MemoryFileIO::Rename(const std::string& raw_from, const std::string& raw_to) {
  const std::string from = NormalizePath(raw_from);
  const std::string to = NormalizePath(raw_to);
  std::lock_guard<std::mutex> lock(state_->mutex);
  auto it = state_->files.find(from);
  if (it == state_->files.end()) {
    return Status::NotFound(from + ": rename: No such file or directory");
  }
  if (state_->IsDir(to)) return Status::IOError(to + ": rename: Is a directory");
  if (!state_->IsDir(ParentDir(to))) {
    return Status::NotFound(to + ": rename: No such file or directory");
  }
  auto node = it->second;
  state_->files.erase(it);
  state_->files[to] = std::move(node);
  return Status::OK();
}

Status MemoryFileIO::SyncDir(const std::string& raw) {
  const std::string dir = NormalizePath(raw);
  std::lock_guard<std::mutex> lock(state_->mutex);
  if (!state_->IsDir(dir)) return Status::NotFound(dir + ": sync: No such file or directory");
  return Status::OK();
}

}  // namespace sluice
