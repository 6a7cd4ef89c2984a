// SigkillFileIO: a FileIO for SIGKILL tests (fork a child, let it die at a chosen point) that
// forwards to another one and raises SIGKILL in its own process right before its n-th mutating
// call (file create, append, close, rename, delete, mkdir, directory sync). POSIX only.
//
// Thread safety: not thread-safe (one operation in one child process).
#pragma once

#include <signal.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sluice/fs/file_io.h"

namespace sluice::test {

// Forwards to another FileIO; raises SIGKILL right before mutating call number `kill_at`
// (0: never). Counts the calls either way.
class SigkillFileIO final : public FileIO {
 public:
  SigkillFileIO(std::shared_ptr<FileIO> base, int64_t kill_at)
      : base_(std::move(base)), kill_at_(kill_at) {}

  int64_t calls() const { return calls_; }

  void Mutating() {
    if (++calls_ == kill_at_) raise(SIGKILL);
  }

  Result<std::unique_ptr<RandomAccessFile>> OpenForRead(const std::string& path) override {
    return base_->OpenForRead(path);
  }
  Result<std::unique_ptr<WritableFile>> OpenForWrite(const std::string& path,
                                                     bool overwrite) override {
    Mutating();
    SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<WritableFile> file,
                            base_->OpenForWrite(path, overwrite));
    return std::unique_ptr<WritableFile>(new File(this, std::move(file)));
  }
  Result<std::string> ReadFile(const std::string& path) override { return base_->ReadFile(path); }
  Result<bool> Exists(const std::string& path) override { return base_->Exists(path); }
  Result<FileStatus> GetStatus(const std::string& path) override { return base_->GetStatus(path); }
  Result<std::vector<FileStatus>> ListDir(const std::string& dir) override {
    return base_->ListDir(dir);
  }
  Status MkDirs(const std::string& dir) override {
    Mutating();
    return base_->MkDirs(dir);
  }
  Status Delete(const std::string& path, bool recursive) override {
    Mutating();
    return base_->Delete(path, recursive);
  }
  Status RenameNoReplace(const std::string& from, const std::string& to) override {
    Mutating();
    return base_->RenameNoReplace(from, to);
  }
  Status Rename(const std::string& from, const std::string& to) override {
    Mutating();
    return base_->Rename(from, to);
  }
  Status SyncDir(const std::string& dir) override {
    Mutating();
    return base_->SyncDir(dir);
  }

 private:
  class File final : public WritableFile {
   public:
    File(SigkillFileIO* io, std::unique_ptr<WritableFile> base) : io_(io), base_(std::move(base)) {}
    const std::string& path() const override { return base_->path(); }
    Status Append(std::string_view data) override {
      io_->Mutating();
      return base_->Append(data);
    }
    int64_t bytes_written() const override { return base_->bytes_written(); }
    Status Close() override {
      io_->Mutating();
      return base_->Close();
    }

   private:
    SigkillFileIO* io_;
    std::unique_ptr<WritableFile> base_;
  };

  std::shared_ptr<FileIO> base_;
  const int64_t kill_at_;
  int64_t calls_ = 0;
};

}  // namespace sluice::test
