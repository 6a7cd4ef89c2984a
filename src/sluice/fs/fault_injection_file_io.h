// FaultInjectionFileIO: a FileIO that forwards to another one (usually a MemoryFileIO) and
// models what a power loss keeps, for crash tests (LevelDB's fault_injection_test, RocksDB's
// FaultInjectionTestFS). Following file_io.h's durability rules it tracks, per file, the content
// as of its last successful Close() and, per directory, the entries as of its last SyncDir():
// DropUnsynced() puts the wrapped FileIO back in that state, so a file created, renamed or
// deleted in a directory that was not synced since is undone, and a file keeps only what its
// last Close() synced. Directories themselves (MkDirs, renames of directories) count as durable
// at once, as MkDirs promises; only files are modelled.
//
// It also injects failures: the n-th call of a kind fails with IOError and does nothing
// (FailNth), and a crash (CrashAfter) makes every call after the n-th mutating one fail, reads
// included, as if the process had died there, until DropUnsynced() "reboots".
//
// Files that exist in the wrapped FileIO before it is wrapped count as durable.
// Thread safety: thread-safe; returned file objects are not.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "sluice/fs/file_io.h"

namespace sluice {

class FaultInjectionFileIO final : public FileIO {
 public:
  // The mutating calls, by kind.
  enum class Op : unsigned char {
    kCreate,  // OpenForWrite
    kWrite,   // WritableFile::Append
    kSync,    // WritableFile::Close (syncs the content) and SyncDir
    kRename,  // RenameNoReplace, Rename
    kDelete,  // Delete
    kMkDirs,  // MkDirs
  };

  explicit FaultInjectionFileIO(std::shared_ptr<FileIO> base);
  ~FaultInjectionFileIO() override;

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

  // Mutating calls made so far (since construction or the last DropUnsynced).
  int64_t mutations() const;
  // The `n`-th call of kind `op` from now on (1 = the next one) fails with IOError.
  void FailNth(Op op, int64_t n);
  // The next `n` mutating calls work; every call after them fails ("crashed"), until
  // DropUnsynced(). CrashAfter(0): crash now.
  void CrashAfter(int64_t n);
  bool crashed() const;

  // Power loss: the wrapped FileIO returns to the durable state, files opened before are dead
  // (their calls fail), and failures and crashes armed are cleared.
  Status DropUnsynced();

 private:
  struct Node;
  class File;

  // Counts a mutating call of `op`: IOError when it is to fail (a crash, or FailNth).
  // REQUIRES: mutex_ held.
  Status Admit(Op op, const std::string& path);
  // Fails once crashed. REQUIRES: mutex_ held.
  Status CheckAlive(const std::string& path) const;
  // Records the state of `path` (a file, or every file under a directory) as the wrapped
  // FileIO holds it, durable, unless it is known already. REQUIRES: mutex_ held.
  Status Track(const std::string& path);

  std::shared_ptr<FileIO> base_;
  mutable std::mutex mutex_;
  // Tracked files present now and after a power loss; a path in neither is absent in both.
  std::map<std::string, std::shared_ptr<Node>> current_;
  std::map<std::string, std::shared_ptr<Node>> durable_;
  std::set<std::string> tracked_;
  int64_t mutations_ = 0;
  std::map<Op, int64_t> fail_countdown_;
  int64_t crash_after_ = -1;  // mutations_ after which the process is down; -1: never
  bool crashed_ = false;
  uint64_t generation_ = 0;  // bumped by each power loss: older files are dead
};

}  // namespace sluice
