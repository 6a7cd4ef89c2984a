// Reading and writing the three manifest file kinds: manifests (ManifestEntry), manifest lists
// (ManifestFileMeta) and index manifests (IndexManifestEntry).
//
// Files are read in whatever format they are stored in (detected by magic bytes, so Avro and
// the ORC manifests of older tables take the same path) and written in the format asked for.
//
// Thread safety: stateless functions; FileIO must be thread-safe.
#pragma once

#include <string>
#include <vector>

#include "sluice/format/file_format.h"
#include "sluice/fs/file_io.h"
#include "sluice/meta/index_manifest_entry.h"
#include "sluice/meta/manifest_entry.h"
#include "sluice/meta/manifest_file_meta.h"
#include "sluice/result.h"

namespace sluice {

Result<std::vector<ManifestEntry>> ReadManifestFile(FileIO& io, const std::string& path);
Result<std::vector<ManifestFileMeta>> ReadManifestList(FileIO& io, const std::string& path);
Result<std::vector<IndexManifestEntry>> ReadIndexManifest(FileIO& io, const std::string& path);

// Each writer creates `path` (which must not exist) and returns the file's size in bytes.
Result<int64_t> WriteManifestFile(FileIO& io, const std::string& path, const FileFormat& format,
                                  const WriterOptions& options,
                                  const std::vector<ManifestEntry>& entries);
Result<int64_t> WriteManifestList(FileIO& io, const std::string& path, const FileFormat& format,
                                  const WriterOptions& options,
                                  const std::vector<ManifestFileMeta>& metas);
Result<int64_t> WriteIndexManifest(FileIO& io, const std::string& path, const FileFormat& format,
                                   const WriterOptions& options,
                                   const std::vector<IndexManifestEntry>& entries);

}  // namespace sluice
