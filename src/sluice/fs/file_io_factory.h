// The FileIO that serves a path, chosen by the path's scheme as Java's FileIO.get(path,
// CatalogContext) picks a FileIOLoader: a local path or "file:" the local file system;
// "s3://", "s3a://" and "s3n://" S3 and the stores that speak its API (fs/s3/s3_file_io.h),
// configured by the catalog's or table's options (s3.endpoint, s3.access-key, ...; with
// cache.dir, wrapped in a local cache of the store's immutable files: caching_file_io.h). Other
// schemes (oss, gs, hdfs, ...) are NotSupported, naming the scheme.
//
// Thread safety: pure functions (an S3 FileIO reads the environment and ~/.aws when made).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "sluice/fs/file_io.h"
#include "sluice/result.h"

namespace sluice {

// The scheme of `path` lower-cased ("s3" for "S3://b/k"), "" for a local path or "file:".
std::string PathScheme(std::string_view path);

Result<std::shared_ptr<FileIO>> FileIOForPath(std::string_view path,
                                              const std::map<std::string, std::string>& options);

// A FileIO whose every call fails with `error`.
std::shared_ptr<FileIO> FailingFileIO(Status error);

// FileIOForPath's FileIO, or a FailingFileIO with its error: what an API that cannot return an
// error (Catalog::Filesystem, a compaction job's catalog) uses when it is given no FileIO, so
// that the first use reports why the store could not be set up instead of reading the path as
// a local one.
std::shared_ptr<FileIO> FileIOForPathOrFailing(std::string_view path,
                                               const std::map<std::string, std::string>& options);

}  // namespace sluice
