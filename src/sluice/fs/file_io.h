// FileIO: the storage interface every layer above reads and writes files through, kept as
// small as LevelDB's Env. Paths are plain strings; LocalFileIO takes local paths and "file:" URIs.
//
// Thread safety: implementations are thread-safe; returned file objects are not.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/base/result.h"

namespace sluice {

// A file opened for positional reads.
class RandomAccessFile {
 public:
  virtual ~RandomAccessFile() = default;
  virtual const std::string& path() const = 0;
  virtual int64_t size() const = 0;
  // Reads exactly `n` bytes at `offset` into `out`; a short read is a Corruption naming the path.
  virtual Status ReadAt(int64_t offset, int64_t n, uint8_t* out) const = 0;
};

// A file being written sequentially. Nothing is visible under the final name until Close()
// succeeds when the file was opened with atomic visibility.
class WritableFile {
 public:
  virtual ~WritableFile() = default;
  virtual const std::string& path() const = 0;
  virtual Status Append(std::string_view data) = 0;
  virtual int64_t bytes_written() const = 0;
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
  // Creates (or truncates, when `overwrite`) a file; fails with AlreadyExists otherwise.
  virtual Result<std::unique_ptr<WritableFile>> OpenForWrite(const std::string& path,
                                                             bool overwrite) = 0;
  virtual Result<std::string> ReadFile(const std::string& path) = 0;
  // Writes the whole content to a temporary file, then moves it to `path`. With !overwrite the
  // move fails with AlreadyExists if `path` exists (the atomic "claim this name" of a commit).
  virtual Status WriteFileAtomic(const std::string& path, std::string_view content,
                                 bool overwrite) = 0;
  virtual Result<bool> Exists(const std::string& path) = 0;
  virtual Result<FileStatus> GetStatus(const std::string& path) = 0;
  // Entries directly under `dir`, sorted by name. NotFound if `dir` does not exist.
  virtual Result<std::vector<FileStatus>> ListDir(const std::string& dir) = 0;
  virtual Status MkDirs(const std::string& dir) = 0;
  virtual Status Delete(const std::string& path, bool recursive) = 0;
  // Renames `from` to `to`; fails with AlreadyExists if `to` exists.
  virtual Status RenameNoReplace(const std::string& from, const std::string& to) = 0;
};

// The local file system.
std::shared_ptr<FileIO> LocalFileIO();

// "file:/a/b" and "file:///a/b" -> "/a/b"; other paths unchanged.
std::string StripFileScheme(std::string_view path);

// Joins path parts with exactly one '/'.
std::string JoinPath(std::string_view a, std::string_view b);

}  // namespace sluice
