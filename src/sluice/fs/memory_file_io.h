// MemoryFileIO: a FileIO whose files and directories live in memory, for tests (LevelDB's
// memenv). It behaves as LocalFileIO does: OpenForWrite creates missing parent directories,
// RenameNoReplace refuses an existing target, ListDir is sorted by path, deleting a missing
// path is OK. Sync calls do nothing: nothing is lost while the object lives (wrap it in a
// FaultInjectionFileIO to model power loss).
//
// Paths are absolute; "file:" is stripped, repeated and trailing '/' are ignored; "/" always
// exists.
//
// Thread safety: thread-safe; returned file objects are not. Open files stay valid after the
// MemoryFileIO is destroyed (they share its state).
#pragma once

#include <memory>
#include <string>

#include "sluice/fs/file_io.h"

namespace sluice {

class MemoryFileIO final : public FileIO {
 public:
  MemoryFileIO();
  ~MemoryFileIO() override;

  Result<std::unique_ptr<RandomAccessFile>> OpenForRead(const std::string& path) override;
  Result<std::unique_ptr<WritableFile>> OpenForWrite(const std::string& path,
                                                     bool overwrite) override;
  Result<std::string> ReadFile(const std::string& path) override;
  Result<bool> Exists(const std::string& path) override;
  Result<FileStatus> GetStatus(const std::string& path) override;
  Result<std::vector<FileStatus>> ListDir(const std::string& dir) override;
  Status MkDirs(const std::string& dir) override;
  Status Delete(const std::string& path, bool recursive) override;
  Status RenameNoReplace(const std::string& from, const std::string& to) override;
  Status Rename(const std::string& from, const std::string& to) override;
  Status SyncDir(const std::string& dir) override;

  struct State;

 private:
  std::shared_ptr<State> state_;
};

}  // namespace sluice
