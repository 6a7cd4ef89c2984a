#include "sluice/fs/fault_injection_file_io.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

namespace sluice {

namespace {

std::string_view OpName(FaultInjectionFileIO::Op op) {
  switch (op) {
    case FaultInjectionFileIO::Op::kCreate:
      return "create";
    case FaultInjectionFileIO::Op::kWrite:
      return "write";
    case FaultInjectionFileIO::Op::kSync:
      return "sync";
    case FaultInjectionFileIO::Op::kRename:
      return "rename";
    case FaultInjectionFileIO::Op::kDelete:
      return "delete";
    case FaultInjectionFileIO::Op::kMkDirs:
      return "mkdirs";
  }
  return "call";
}

// The last part of `path` ("/a/b" -> "b").
std::string BaseName(const std::string& path) { return path.substr(path.rfind('/') + 1); }

// The names on the way from "/" to `path` ("/a/b" -> {"a", "b"}).
std::vector<std::string> Components(const std::string& path) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string::npos) slash = path.size();
    if (slash > start) out.push_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return out;
}

}  // namespace

// A file or a directory (an inode): a rename moves the node, so what is durable of it moves too.
struct FaultInjectionFileIO::Node {
  explicit Node(bool dir) : is_dir(dir) {}

  bool is_dir;
  // A file's content as of its last successful Close(); nullopt for a file this object has not
  // touched yet, whose content is the wrapped FileIO's, durable, at the path it always had.
  std::optional<std::string> synced;
  // A directory's entries: `entries` as they are now, `durable` as of the last SyncDir of the
  // directory. Both are read from the wrapped FileIO when first needed (`loaded`); a directory
  // not loaded is untouched, at the path it always had.
  bool loaded = false;
  std::map<std::string, std::shared_ptr<Node>> entries;
  std::map<std::string, std::shared_ptr<Node>> durable;
};

class FaultInjectionFileIO::File final : public WritableFile {
 public:
  File(FaultInjectionFileIO* io, std::unique_ptr<WritableFile> base, std::shared_ptr<Node> node,
       uint64_t generation)
      : io_(io), base_(std::move(base)), node_(std::move(node)), generation_(generation) {}

  const std::string& path() const override { return base_->path(); }
  int64_t bytes_written() const override { return static_cast<int64_t>(content_.size()); }

  Status Append(std::string_view data) override {
    std::lock_guard<std::mutex> lock(io_->mutex_);
    SLUICE_RETURN_NOT_OK(CheckCurrent());
    SLUICE_RETURN_NOT_OK(io_->Admit(Op::kWrite, path()));
    SLUICE_RETURN_NOT_OK(base_->Append(data));
    content_.append(data);
    return Status::OK();
  }

  Status Close() override {
    std::lock_guard<std::mutex> lock(io_->mutex_);
    SLUICE_RETURN_NOT_OK(CheckCurrent());
    SLUICE_RETURN_NOT_OK(io_->Admit(Op::kSync, path()));
    SLUICE_RETURN_NOT_OK(base_->Close());
    node_->synced = content_;
    return Status::OK();
  }

 private:
  // A file opened before a power loss is gone with the process that had it open.
  Status CheckCurrent() const {
    if (generation_ != io_->generation_) {
      return Status::IOError(path() + ": opened before a power loss");
    }
    return Status::OK();
  }

  FaultInjectionFileIO* io_;
  std::unique_ptr<WritableFile> base_;
  std::shared_ptr<Node> node_;
  uint64_t generation_;
  std::string content_;
};

FaultInjectionFileIO::FaultInjectionFileIO(std::shared_ptr<FileIO> base)
    : base_(std::move(base)), root_(std::make_shared<Node>(/*dir=*/true)) {}
FaultInjectionFileIO::~FaultInjectionFileIO() = default;

Status FaultInjectionFileIO::Admit(Op op, const std::string& path) {
  ++mutations_;
  if (!crashed_ && crash_after_ >= 0 && mutations_ > crash_after_) crashed_ = true;
  if (crashed_) return Status::IOError(path + ": injected crash: the process is down");
  auto it = fail_countdown_.find(op);
  if (it != fail_countdown_.end() && --it->second == 0) {
    fail_countdown_.erase(it);
    return Status::IOError(path + ": injected failure of " + std::string(OpName(op)));
  }
  return Status::OK();
}

Status FaultInjectionFileIO::CheckAlive(const std::string& path) const {
  if (crashed_) return Status::IOError(path + ": injected crash: the process is down");
  return Status::OK();
}

Status FaultInjectionFileIO::Load(Node* dir, const std::string& path) {
  if (dir->loaded) return Status::OK();
  Result<std::vector<FileStatus>> children = base_->ListDir(path);
  if (!children.ok() && !children.status().IsNotFound()) return children.status();
  if (children.ok()) {
    for (const FileStatus& child : *children) {
      auto node = std::make_shared<Node>(child.is_dir);
      const std::string name = BaseName(NormalizePath(child.path));
      dir->entries[name] = node;
      dir->durable[name] = std::move(node);
    }
  }
  dir->loaded = true;
  return Status::OK();
}

Result<std::shared_ptr<FaultInjectionFileIO::Node>> FaultInjectionFileIO::Lookup(
    const std::string& path) {
  std::shared_ptr<Node> node = root_;
  std::string at = "/";
  for (const std::string& name : Components(path)) {
    if (!node->is_dir) return std::shared_ptr<Node>();
    SLUICE_RETURN_NOT_OK(Load(node.get(), at));
    auto it = node->entries.find(name);
    if (it == node->entries.end()) return std::shared_ptr<Node>();
    node = it->second;
    at = JoinPath(at, name);
  }
  return node;
}

Status FaultInjectionFileIO::Capture(Node* node, const std::string& path) {
  if (!node->is_dir) {
    if (!node->synced) {
      SLUICE_ASSIGN_OR_RETURN(std::string content, base_->ReadFile(path));
      node->synced = std::move(content);
    }
    return Status::OK();
  }
  SLUICE_RETURN_NOT_OK(Load(node, path));
  for (const auto& [name, child] : node->entries) {
    SLUICE_RETURN_NOT_OK(Capture(child.get(), JoinPath(path, name)));
  }
  return Status::OK();
}

Status FaultInjectionFileIO::AddDirs(const std::string& dir) {
  std::shared_ptr<Node> node = root_;
  std::string at = "/";
  for (const std::string& name : Components(dir)) {
    SLUICE_RETURN_NOT_OK(Load(node.get(), at));
    std::shared_ptr<Node>& child = node->entries[name];
    if (child == nullptr) {
      child = std::make_shared<Node>(/*dir=*/true);
      child->loaded = true;
      // The new directory's parent is synced (file_io.h): all its entries are durable now.
      node->durable = node->entries;
    }
    if (!child->is_dir) return Status::Internal(JoinPath(at, name) + ": mkdir over a file");
    node = child;
    at = JoinPath(at, name);
  }
  return Status::OK();
}

Status FaultInjectionFileIO::Restore(const Node& dir, const std::string& path,
                                     std::vector<const Node*>* on_the_way) {
  Result<std::vector<FileStatus>> present = base_->ListDir(path);
  if (!present.ok() && !present.status().IsNotFound()) return present.status();
  if (present.ok()) {
    for (const FileStatus& entry : *present) {
      if (!dir.durable.count(BaseName(NormalizePath(entry.path)))) {
        SLUICE_RETURN_NOT_OK(base_->Delete(entry.path, /*recursive=*/true));
      }
    }
  }
  for (const auto& [name, child] : dir.durable) {
    const std::string child_path = JoinPath(path, name);
    if (child->is_dir) {
      if (!child->loaded) continue;  // untouched, in place
      // A directory durable inside itself (renames between directories synced in some
      // orders) is cut at the second visit: a real file system cannot hold the cycle.
      if (std::find(on_the_way->begin(), on_the_way->end(), child.get()) != on_the_way->end()) {
        continue;
      }
      Result<FileStatus> in_the_way = base_->GetStatus(child_path);
      if (in_the_way.ok() && !in_the_way->is_dir) {
        SLUICE_RETURN_NOT_OK(base_->Delete(child_path, /*recursive=*/false));
      }
      SLUICE_RETURN_NOT_OK(base_->MkDirs(child_path));
      on_the_way->push_back(child.get());
      SLUICE_RETURN_NOT_OK(Restore(*child, child_path, on_the_way));
      on_the_way->pop_back();
      continue;
    }
    if (!child->synced) continue;  // untouched, in place
    SLUICE_RETURN_NOT_OK(base_->Delete(child_path, /*recursive=*/true));
    SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<WritableFile> file,
                            base_->OpenForWrite(child_path, /*overwrite=*/true));
    SLUICE_RETURN_NOT_OK(file->Append(*child->synced));
    SLUICE_RETURN_NOT_OK(file->Close());
  }
  return Status::OK();
}

Result<std::unique_ptr<RandomAccessFile>> FaultInjectionFileIO::OpenForRead(
    const std::string& path) {
  std::lock_guard<std::mutex> lock(mutex_);
  SLUICE_RETURN_NOT_OK(CheckAlive(path));
  return base_->OpenForRead(path);
}

Result<std::unique_ptr<WritableFile>> FaultInjectionFileIO::OpenForWrite(const std::string& raw,
                                                                         bool overwrite) {
  const std::string path = NormalizePath(raw);
  std::lock_guard<std::mutex> lock(mutex_);
  SLUICE_RETURN_NOT_OK(Admit(Op::kCreate, path));
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<Node> node, Lookup(path));
  // Overwriting truncates the same file: what it held stays durable until the next Close.
  if (node != nullptr && overwrite) SLUICE_RETURN_NOT_OK(Capture(node.get(), path));
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<WritableFile> file, base_->OpenForWrite(raw, overwrite));
  SLUICE_RETURN_NOT_OK(AddDirs(ParentDir(path)));
  if (node == nullptr) {
    node = std::make_shared<Node>(/*dir=*/false);
    node->synced.emplace();  // a new file has synced nothing yet
    SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<Node> parent, Lookup(ParentDir(path)));
    parent->entries[BaseName(path)] = node;
  }
  return std::unique_ptr<WritableFile>(
      std::make_unique<File>(this, std::move(file), std::move(node), generation_));
}

Result<std::string> FaultInjectionFileIO::ReadFile(const std::string& path) {
  std::lock_guard<std::mutex> lock(mutex_);
  SLUICE_RETURN_NOT_OK(CheckAlive(path));
  return base_->ReadFile(path);
}

Result<bool> FaultInjectionFileIO::Exists(const std::string& path) {
  std::lock_guard<std::mutex> lock(mutex_);
  SLUICE_RETURN_NOT_OK(CheckAlive(path));
  return base_->Exists(path);
}

Result<FileStatus> FaultInjectionFileIO::GetStatus(const std::string& path) {
  std::lock_guard<std::mutex> lock(mutex_);
  SLUICE_RETURN_NOT_OK(CheckAlive(path));
  return base_->GetStatus(path);
}

Result<std::vector<FileStatus>> FaultInjectionFileIO::ListDir(const std::string& dir) {
  std::lock_guard<std::mutex> lock(mutex_);
  SLUICE_RETURN_NOT_OK(CheckAlive(dir));
  return base_->ListDir(dir);
}

Status FaultInjectionFileIO::MkDirs(const std::string& dir) {
  std::lock_guard<std::mutex> lock(mutex_);
  SLUICE_RETURN_NOT_OK(Admit(Op::kMkDirs, dir));
  SLUICE_RETURN_NOT_OK(base_->MkDirs(dir));
  return AddDirs(NormalizePath(dir));
}

Status FaultInjectionFileIO::Delete(const std::string& raw, bool recursive) {
  std::lock_guard<std::mutex> lock(mutex_);
  return DeleteLocked(NormalizePath(raw), recursive);
}

Status FaultInjectionFileIO::DeleteLocked(const std::string& path, bool recursive) {
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<Node> node, Lookup(path));
  if (node != nullptr && node->is_dir && recursive) {
    // One entry at a time, as a file system deletes a tree: a crash can stop it half-way.
    SLUICE_RETURN_NOT_OK(Load(node.get(), path));
    std::vector<std::string> names;
    for (const auto& [name, child] : node->entries) names.push_back(name);
    for (const std::string& name : names) {
      SLUICE_RETURN_NOT_OK(DeleteLocked(JoinPath(path, name), /*recursive=*/true));
    }
  }
  SLUICE_RETURN_NOT_OK(Admit(Op::kDelete, path));
  if (node != nullptr) SLUICE_RETURN_NOT_OK(Capture(node.get(), path));
  SLUICE_RETURN_NOT_OK(base_->Delete(path, recursive));
  if (node == nullptr) return Status::OK();
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<Node> parent, Lookup(ParentDir(path)));
  parent->entries.erase(BaseName(path));
  return Status::OK();
}

Status FaultInjectionFileIO::MoveEntry(const std::string& raw_from, const std::string& raw_to,
                                       bool replace) {
  const std::string from = NormalizePath(raw_from);
  const std::string to = NormalizePath(raw_to);
  std::lock_guard<std::mutex> lock(mutex_);
  SLUICE_RETURN_NOT_OK(Admit(Op::kRename, to));
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<Node> node, Lookup(from));
  if (node != nullptr) SLUICE_RETURN_NOT_OK(Capture(node.get(), from));
  if (replace) {
    SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<Node> replaced, Lookup(to));
    if (replaced != nullptr) SLUICE_RETURN_NOT_OK(Capture(replaced.get(), to));
  }
  SLUICE_RETURN_NOT_OK(replace ? base_->Rename(raw_from, raw_to)
                               : base_->RenameNoReplace(raw_from, raw_to));
  if (node == nullptr) return Status::Internal(from + ": renamed what was not there");
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<Node> from_parent, Lookup(ParentDir(from)));
  from_parent->entries.erase(BaseName(from));
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<Node> to_parent, Lookup(ParentDir(to)));
  to_parent->entries[BaseName(to)] = std::move(node);
  return Status::OK();
}

Status FaultInjectionFileIO::RenameNoReplace(const std::string& from, const std::string& to) {
  return MoveEntry(from, to, /*replace=*/false);
}

Status FaultInjectionFileIO::Rename(const std::string& from, const std::string& to) {
  return MoveEntry(from, to, /*replace=*/true);
}

Status FaultInjectionFileIO::SyncDir(const std::string& raw) {
  const std::string dir = NormalizePath(raw);
  std::lock_guard<std::mutex> lock(mutex_);
  SLUICE_RETURN_NOT_OK(Admit(Op::kSync, dir));
  SLUICE_RETURN_NOT_OK(base_->SyncDir(raw));
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<Node> node, Lookup(dir));
  if (node == nullptr || !node->is_dir) return Status::OK();
  SLUICE_RETURN_NOT_OK(Load(node.get(), dir));
  node->durable = node->entries;
  return Status::OK();
}

int64_t FaultInjectionFileIO::mutations() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return mutations_;
}

void FaultInjectionFileIO::FailNth(Op op, int64_t n) {
  std::lock_guard<std::mutex> lock(mutex_);
  fail_countdown_[op] = n;
}

void FaultInjectionFileIO::CrashAfter(int64_t n) {
  std::lock_guard<std::mutex> lock(mutex_);
  crash_after_ = mutations_ + n;
  if (n == 0) crashed_ = true;
}

bool FaultInjectionFileIO::crashed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return crashed_;
}

Status FaultInjectionFileIO::DropUnsynced() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<const Node*> on_the_way{root_.get()};
  Status restored = root_->loaded ? Restore(*root_, "/", &on_the_way) : Status::OK();
  // What the wrapped FileIO holds now is all durable, and read afresh when needed.
  root_ = std::make_shared<Node>(/*dir=*/true);
  ++generation_;
  crashed_ = false;
  crash_after_ = -1;
  fail_countdown_.clear();
  mutations_ = 0;
  return restored;
}

}  // namespace sluice
