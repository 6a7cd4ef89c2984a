// FaultInjectionFileIO: a FileIO that forwards to another one (usually a MemoryFileIO) and
// models what a power loss keeps, for crash tests (LevelDB's fault_injection_test, RocksDB's
// FaultInjectionTestFS). Following file_io.h's durability rules, a file keeps the content of its
// last successful Close(), and a directory keeps the entries (files and directories alike) it
// had at its last SyncDir(): a file or directory created, renamed in or out of a directory, or
// deleted there since is undone by a power loss (DropUnsynced). MkDirs, and OpenForWrite's
// creation of missing parents, are durable at once, as file_io.h promises: each new directory's
// parent counts as synced, as LocalFileIO fsyncs it.
//
// The model is one of inodes, as on a POSIX file system: a directory renamed carries its
// entries (and what of them is durable) with it, and an entry is durable where the directory
// that names it was last synced. A directory renamed between two directories and only one of
// them synced can thus come back in both places (copies): stricter than ext4 or XFS, whose
// rename is one journal transaction, and never looser.
//
// A recursive Delete counts as one call per entry (deepest first), as a file system deletes a
// tree one entry at a time. It also injects failures: the n-th call of a kind fails with
// IOError and does nothing (FailNth), and a crash (CrashAfter) makes every call after the n-th
// mutating one fail, reads included, as if the process had died there, until DropUnsynced()
// "reboots". A SIGKILL loses nothing the operating system was told: model it by reading the wrapped
// FileIO on.
//
// What the wrapped FileIO holds when this object first looks at it counts as durable (it looks
// at a directory on the first mutating call under it).
// Thread safety: thread-safe; returned file objects are not.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

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
  // Reads the entries of `dir` (a directory node at `path`) from the wrapped FileIO unless
  // known already. REQUIRES: mutex_ held.
  Status Load(Node* dir, const std::string& path);
  // The node at `path`, nullptr if there is none (directories on the way are loaded).
  // REQUIRES: mutex_ held.
  Result<std::shared_ptr<Node>> Lookup(const std::string& path);
  // Makes `node` (at `path`) and everything under it independent of the wrapped FileIO's
  // content: before a call that moves, replaces or deletes it. REQUIRES: mutex_ held.
  Status Capture(Node* node, const std::string& path);
  // Records the directories of `dir` that MkDirs or OpenForWrite created, durably.
  // REQUIRES: mutex_ held.
  Status AddDirs(const std::string& dir);
  // Delete of a normalized path: a directory's entries one call each, then the directory.
  // REQUIRES: mutex_ held.
  Status DeleteLocked(const std::string& path, bool recursive);
  // RenameNoReplace, or Rename when `replace`.
  Status MoveEntry(const std::string& from, const std::string& to, bool replace);
  // Puts the wrapped FileIO's `path` back to the durable entries of `dir`; `on_the_way` holds
  // `dir` and the directories above it. REQUIRES: mutex_ held.
  Status Restore(const Node& dir, const std::string& path, std::vector<const Node*>* on_the_way);

  std::shared_ptr<FileIO> base_;
  mutable std::mutex mutex_;
  std::shared_ptr<Node> root_;  // "/": the entries now, and what a power loss leaves of them
  int64_t mutations_ = 0;
  std::map<Op, int64_t> fail_countdown_;
  int64_t crash_after_ = -1;  // mutations_ after which the process is down; -1: never
  bool crashed_ = false;
  uint64_t generation_ = 0;  // bumped by each power loss: older files are dead
};

}  // namespace sluice
