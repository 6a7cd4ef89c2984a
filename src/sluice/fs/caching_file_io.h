// A FileIO that keeps local copies of an object store's immutable files, so that a scan does not
// fetch the same manifests and data files again: a FileIO decorator (file_io_factory.h wraps
// the S3 FileIO in it when `cache.dir` is set).
//
// What is cached: files Paimon writes once and never changes, by name: data and changelog files
// ("data-*", "changelog-*"), manifests and manifest lists ("manifest-*"), index files and index
// manifests ("index-*"), statistics ("stat-*"). Never snapshots, LATEST / EARLIEST hints,
// schemas, tags, consumers or anything else: those are read from the store every time. A cached
// file is read whole from the store on its first open (one GET), then from the local disk.
//
// The cache directory holds one file per cached path, named by the SHA-256 of the path. A new
// copy is written under a temporary name and renamed into place, so several processes can share
// a directory: a reader sees a whole copy or none. Eviction is LRU by bytes: an open touches its
// copy's modification time; after each insertion the oldest copies are deleted until the
// directory holds at most `max_bytes` (a file deleted while open stays readable on POSIX).
// Files larger than max_bytes / 8 are not cached.
//
// Options (catalog or table options; Java Paimon has no equivalent: its `cache-enabled`,
// `cache.expiration-interval` and `cache.manifest.*` options configure the catalog's in-memory
// caches of tables and manifests, not a disk cache of files):
//   cache.dir       the directory of the copies; unset: no cache
//   cache.max-size  its bound in bytes ("512mb", "2 gb"; default 1 GiB)
//
// Thread safety: thread-safe, as FileIO requires.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "sluice/fs/file_io.h"
#include "sluice/result.h"

namespace sluice {

struct FileCacheOptions {
  std::string dir;
  int64_t max_bytes = int64_t{1} << 30;

  // The cache.* options; nullopt when cache.dir is unset. InvalidArgument for a bad size.
  static Result<std::optional<FileCacheOptions>> FromOptions(
      const std::map<std::string, std::string>& options);
};

// Whether `path` names a file Paimon never changes once written (see above).
bool IsImmutableTableFile(std::string_view path);

// `base` with reads of immutable files served from copies in options.dir (created if missing).
Result<std::shared_ptr<FileIO>> MakeCachingFileIO(std::shared_ptr<FileIO> base,
                                                  const FileCacheOptions& options);

}  // namespace sluice
