// The FileIO that serves a path, chosen by the path's scheme as Java's FileIO.get(path,
// CatalogContext) picks a FileIOLoader: a local path or "file:" the local file system;
// "s3://", "s3a://" and "s3n://" S3 and the stores that speak its API (fs/s3/s3_file_io.h),
// configured by the catalog's or table's options (s3.endpoint, s3.access-key, ...). Other
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

// A FileIO whose every call fails with `error`: what an API that cannot return an error
// (Catalog::Filesystem) hands its catalog when the store of its path cannot be set up, so that
// the first use reports why instead of reading the path as a local one.
std::shared_ptr<FileIO> FailingFileIO(Status error);

}  // namespace sluice
