#include "sluice/fs/fault_injection_file_io.h"

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

bool IsUnder(const std::string& path, const std::string& dir) {
  const std::string prefix = dir == "/" ? dir : dir + "/";
  return path.size() > prefix.size() && path.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

// One file's content as a power loss would leave it: as of its last successful Close().
struct FaultInjectionFileIO::Node {
  std::string synced;
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

FaultInjectionFileIO::FaultInjectionFileIO(std::shared_ptr<FileIO> base) : base_(std::move(base)) {}
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

Status FaultInjectionFileIO::Track(const std::string& path) {
  if (!tracked_.insert(path).second) return Status::OK();
  Result<FileStatus> status = base_->GetStatus(path);
  if (status.status().IsNotFound()) return Status::OK();
  SLUICE_RETURN_NOT_OK(status.status());
  if (status->is_dir) {
    SLUICE_ASSIGN_OR_RETURN(std::vector<FileStatus> children, base_->ListDir(path));
    for (const FileStatus& child : children) SLUICE_RETURN_NOT_OK(Track(NormalizePath(child.path)));
    return Status::OK();
  }
  auto node = std::make_shared<Node>();
  SLUICE_ASSIGN_OR_RETURN(node->synced, base_->ReadFile(path));
  current_[path] = node;
  durable_[path] = std::move(node);
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
  SLUICE_RETURN_NOT_OK(Track(path));
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<WritableFile> file, base_->OpenForWrite(raw, overwrite));
  std::shared_ptr<Node>& node = current_[path];
  // Overwriting truncates the same file (its synced content stays until the next Close);
  // a new file has synced nothing yet.
  if (node == nullptr) node = std::make_shared<Node>();
  return std::unique_ptr<WritableFile>(
      std::make_unique<File>(this, std::move(file), node, generation_));
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
  return base_->MkDirs(dir);
}

Status FaultInjectionFileIO::Delete(const std::string& raw, bool recursive) {
  const std::string path = NormalizePath(raw);
  std::lock_guard<std::mutex> lock(mutex_);
  SLUICE_RETURN_NOT_OK(Admit(Op::kDelete, path));
  SLUICE_RETURN_NOT_OK(Track(path));
  SLUICE_RETURN_NOT_OK(base_->Delete(raw, recursive));
  current_.erase(path);
  for (auto it = current_.begin(); it != current_.end();) {
    it = IsUnder(it->first, path) ? current_.erase(it) : std::next(it);
  }
  return Status::OK();
}

Status FaultInjectionFileIO::RenameNoReplace(const std::string& raw_from,
                                             const std::string& raw_to) {
  const std::string from = NormalizePath(raw_from);
  const std::string to = NormalizePath(raw_to);
  std::lock_guard<std::mutex> lock(mutex_);
  SLUICE_RETURN_NOT_OK(Admit(Op::kRename, to));
  SLUICE_RETURN_NOT_OK(Track(from));
  SLUICE_RETURN_NOT_OK(Track(to));
  SLUICE_RETURN_NOT_OK(base_->RenameNoReplace(raw_from, raw_to));
  if (auto it = current_.find(from); it != current_.end()) {
    std::shared_ptr<Node> node = std::move(it->second);
    current_.erase(it);
    current_[to] = std::move(node);
    return Status::OK();
  }
  // A directory: its files move now and after a power loss alike (see the header).
  for (auto* files : {&current_, &durable_}) {
    std::vector<std::pair<std::string, std::shared_ptr<Node>>> moved;
    for (auto it = files->begin(); it != files->end();) {
      if (!IsUnder(it->first, from)) {
        ++it;
        continue;
      }
      moved.emplace_back(to + it->first.substr(from.size()), std::move(it->second));
      it = files->erase(it);
    }
    for (auto& [path, node] : moved) (*files)[path] = std::move(node);
  }
  std::vector<std::string> moved_tracked;
  for (const std::string& path : tracked_) {
    if (IsUnder(path, from)) moved_tracked.push_back(to + path.substr(from.size()));
  }
  tracked_.insert(moved_tracked.begin(), moved_tracked.end());
  return Status::OK();
}

Status FaultInjectionFileIO::Rename(const std::string& raw_from, const std::string& raw_to) {
  const std::string from = NormalizePath(raw_from);
  const std::string to = NormalizePath(raw_to);
  std::lock_guard<std::mutex> lock(mutex_);
  SLUICE_RETURN_NOT_OK(Admit(Op::kRename, to));
  SLUICE_RETURN_NOT_OK(Track(from));
  SLUICE_RETURN_NOT_OK(Track(to));
  SLUICE_RETURN_NOT_OK(base_->Rename(raw_from, raw_to));
  auto it = current_.find(from);
  if (it == current_.end()) return Status::Internal(from + ": renamed a file that was not tracked");
  std::shared_ptr<Node> node = std::move(it->second);
  current_.erase(it);
  current_[to] = std::move(node);
  return Status::OK();
}

Status FaultInjectionFileIO::SyncDir(const std::string& raw) {
  const std::string dir = NormalizePath(raw);
  std::lock_guard<std::mutex> lock(mutex_);
  SLUICE_RETURN_NOT_OK(Admit(Op::kSync, dir));
  SLUICE_RETURN_NOT_OK(base_->SyncDir(raw));
  for (auto it = durable_.begin(); it != durable_.end();) {
    it = ParentDir(it->first) == dir && !current_.count(it->first) ? durable_.erase(it)
                                                                   : std::next(it);
  }
  for (const auto& [path, node] : current_) {
    if (ParentDir(path) == dir) durable_[path] = node;
  }
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
  Status first;
  auto keep = [&first](Status st) {
    if (first.ok() && !st.ok()) first = std::move(st);
  };
  for (const auto& [path, node] : current_) {
    if (!durable_.count(path)) keep(base_->Delete(path, /*recursive=*/false));
  }
  for (const auto& [path, node] : durable_) {
    keep(base_->MkDirs(ParentDir(path)));
    Result<std::unique_ptr<WritableFile>> file = base_->OpenForWrite(path, /*overwrite=*/true);
    if (!file.ok()) {
      keep(file.status());
      continue;
    }
    keep((*file)->Append(node->synced));
    keep((*file)->Close());
  }
  current_ = durable_;
  ++generation_;
  crashed_ = false;
  crash_after_ = -1;
  fail_countdown_.clear();
  mutations_ = 0;
  return first;
}

}  // namespace sluice
