// ForwardingFileIO: a FileIO that passes every call to another one (LevelDB's EnvWrapper), the
// base of decorators that change a few calls (a cache of reads, commits sent elsewhere) and
// leave the rest as the wrapped FileIO does them.
//
// Thread safety: as the wrapped FileIO.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sluice/fs/file_io.h"

namespace sluice {

class ForwardingFileIO : public FileIO {
 public:
  explicit ForwardingFileIO(std::shared_ptr<FileIO> base) : base_(std::move(base)) {}

  Result<std::unique_ptr<RandomAccessFile>> OpenForRead(const std::string& path) override {
    return base_->OpenForRead(path);
  }
  Result<std::unique_ptr<RandomAccessFile>> OpenForReadWithSize(const std::string& path,
                                                                int64_t size) override {
    return base_->OpenForReadWithSize(path, size);
  }
  Result<std::unique_ptr<WritableFile>> OpenForWrite(const std::string& path,
                                                     bool overwrite) override {
    return base_->OpenForWrite(path, overwrite);
  }
  Result<std::string> ReadFile(const std::string& path) override { return base_->ReadFile(path); }
  Status WriteFileAtomic(const std::string& path, std::string_view content,
                         bool overwrite) override {
    return base_->WriteFileAtomic(path, content, overwrite);
  }
  Result<bool> Exists(const std::string& path) override { return base_->Exists(path); }
  Result<FileStatus> GetStatus(const std::string& path) override { return base_->GetStatus(path); }
  Result<std::vector<FileStatus>> ListDir(const std::string& dir) override {
    return base_->ListDir(dir);
  }
  Status MkDirs(const std::string& dir) override { return base_->MkDirs(dir); }
  Status Delete(const std::string& path, bool recursive) override {
    return base_->Delete(path, recursive);
  }
  Status RenameNoReplace(const std::string& from, const std::string& to) override {
    return base_->RenameNoReplace(from, to);
  }
  Status Rename(const std::string& from, const std::string& to) override {
    return base_->Rename(from, to);
  }
  Status SyncDir(const std::string& dir) override { return base_->SyncDir(dir); }
  Result<std::unique_ptr<DirectoryWatcher>> WatchDir(const std::string& dir) override {
    return base_->WatchDir(dir);
  }

 protected:
  const std::shared_ptr<FileIO>& base() const { return base_; }

 private:
  std::shared_ptr<FileIO> base_;
};

}  // namespace sluice
