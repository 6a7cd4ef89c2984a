// FileIO: the storage interface every layer above reads and writes files through, kept as
// small as LevelDB's Env. Paths are plain strings; LocalFileIO takes local paths and "file:" URIs.
//
// Durability (what survives a power loss), as on a POSIX file system:
//   - WritableFile::Close() makes the file's content durable (fsync);
//   - a new name (a created file, either end of a rename, a deleted file) is durable only once
//     its directory is synced with SyncDir();
//   - MkDirs() and WriteFileAtomic() return only once what they did is durable.
// So a file that a durable file will refer to (a data file a snapshot names) must be closed and
// its directory synced before the referring file is published. memory_file_io.h keeps files in
// memory; fault_injection_file_io.h wraps a FileIO and drops what was never synced.
//
// Thread safety: implementations are thread-safe; returned file objects are not.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/fs/directory_watcher.h"
#include "sluice/fs/read_range.h"
#include "sluice/result.h"

namespace sluice {

// A file opened for positional reads.
class RandomAccessFile {
 public:
  virtual ~RandomAccessFile() = default;
  virtual const std::string& path() const = 0;
  virtual int64_t size() const = 0;
  // Reads exactly `n` bytes at `offset` into `out`; a short read is a Corruption naming the path.
  virtual Status ReadAt(int64_t offset, int64_t n, uint8_t* out) const = 0;
  // A hint: the caller will soon read `ranges` (e.g. a Parquet row group's projected column
  // chunks). A store where each request is a round trip (S3) fetches them now, coalesced and in
  // parallel, and serves the ReadAt calls inside them from memory; it keeps the ranges of its
  // last two Prefetch calls (the reader's current and next row group or stripe). A failed fetch
  // is reported by the ReadAt that needs it. The default does nothing.
  virtual void Prefetch(const std::vector<ReadRange>& ranges) const {}
};

// A file being written sequentially, visible under its name from its creation on.
class WritableFile {
 public:
  virtual ~WritableFile() = default;
  virtual const std::string& path() const = 0;
  virtual Status Append(std::string_view data) = 0;
  virtual int64_t bytes_written() const = 0;
  // Syncs the content to durable storage and closes the file (not its directory entry).
  virtual Status Close() = 0;
};

struct FileStatus {
  std::string path;
  int64_t size = 0;
  bool is_dir = false;
  int64_t modification_time_ms = 0;
};

class FileIO {
 public:
  virtual ~FileIO() = default;

  virtual Result<std::unique_ptr<RandomAccessFile>> OpenForRead(const std::string& path) = 0;
  // OpenForRead of a file whose size the caller knows (Paimon's manifests record every data
  // file's size) and which is never replaced: a store may skip asking for the size (S3: no
  // HEAD). REQUIRES: `size` is the file's size. The default is OpenForRead(path).
  virtual Result<std::unique_ptr<RandomAccessFile>> OpenForReadWithSize(const std::string& path,
                                                                        int64_t size);
  // Creates (or truncates, when `overwrite`) a file; fails with AlreadyExists otherwise.
  virtual Result<std::unique_ptr<WritableFile>> OpenForWrite(const std::string& path,
                                                             bool overwrite) = 0;
  virtual Result<std::string> ReadFile(const std::string& path) = 0;
  // Writes the whole content to a temporary file (closed, so synced), moves it to `path` and
  // syncs the directory: when it returns OK, `path` holds `content` durably. With !overwrite
  // the move fails with AlreadyExists if `path` exists (the atomic "claim this name" of a
  // commit). An error after the move (the directory sync) leaves `path` visible but perhaps
  // not durable. Implemented on the primitives below; object stores may override it.
  virtual Status WriteFileAtomic(const std::string& path, std::string_view content, bool overwrite);
  virtual Result<bool> Exists(const std::string& path) = 0;
  virtual Result<FileStatus> GetStatus(const std::string& path) = 0;
  // Entries directly under `dir`, sorted by name. NotFound if `dir` does not exist.
  virtual Result<std::vector<FileStatus>> ListDir(const std::string& dir) = 0;
  // Creates `dir` and its missing parents, durably (each new directory's parent is synced).
  virtual Status MkDirs(const std::string& dir) = 0;
  // Deletes a file, or a directory (with its content when `recursive`); a missing path is OK.
  virtual Status Delete(const std::string& path, bool recursive) = 0;
  // Renames `from` to `to`; fails with AlreadyExists if `to` exists.
  virtual Status RenameNoReplace(const std::string& from, const std::string& to) = 0;
  // Renames the file `from` to `to`, replacing `to` atomically if it exists.
  virtual Status Rename(const std::string& from, const std::string& to) = 0;
  // Makes the entries of `dir` durable: files created, renamed in or out, or deleted there.
  // NotFound if `dir` does not exist.
  virtual Status SyncDir(const std::string& dir) = 0;
  // A watcher of the entries of `dir` (directory_watcher.h), which may not exist yet. This
  // FileIO must outlive it. The default polls ListDir; LocalFileIO uses inotify.
  virtual Result<std::unique_ptr<DirectoryWatcher>> WatchDir(const std::string& dir);
};

// The local file system.
std::shared_ptr<FileIO> LocalFileIO();

// "file:/a/b" and "file:///a/b" -> "/a/b"; other paths unchanged.
std::string StripFileScheme(std::string_view path);

// Joins path parts with exactly one '/'.
std::string JoinPath(std::string_view a, std::string_view b);

// The length of the "scheme://authority" that starts `path` ("s3://bucket/a" -> 11), 0 when
// `path` is not such a URI (a local path, "file:/a").
size_t UriRootLength(std::string_view path);

// `path` without "file:", repeated '/' and trailing '/' ("file:/a//b/" -> "/a/b"; "/" stays); a
// URI keeps its "scheme://authority" ("s3://b//a/" -> "s3://b/a").
std::string NormalizePath(std::string_view path);

// The directory part of `path` ("/a/b/c" -> "/a/b", "/a" -> "/", "c" -> "", "s3://b/a" ->
// "s3://b"); a store's root ("s3://b") has none ("").
std::string ParentDir(std::string_view path);

}  // namespace sluice
