// HashIndexFile: the HASH index file of one bucket of a dynamic-bucket table (Java
// index/HashIndexFile with utils/IntFileUtils): the int32 hashes of the keys assigned to the
// bucket, each big-endian, nothing else (no header, count or checksum). Its index manifest
// entry records the number of hashes as the row count.
//
// Thread safety: stateless functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/fs/file_io.h"
#include "sluice/meta/index_manifest_entry.h"
#include "sluice/result.h"

namespace sluice {

// IndexFileMeta.indexType of hash index files (HashIndexFile.HASH_INDEX).
inline constexpr std::string_view kHashIndexType = "HASH";

// The hashes of the file at `path`, in file order. A size that is not a multiple of 4 is a
// Corruption naming the file.
Result<std::vector<int32_t>> ReadHashIndexFile(FileIO& io, const std::string& path);

// Writes `hashes` to the new file `path` and returns its index manifest entry (kind ADD, index
// type HASH, the file's name, size and hash count; partition and bucket left for the caller).
Result<IndexManifestEntry> WriteHashIndexFile(FileIO& io, const std::string& path,
                                              const std::vector<int32_t>& hashes);

}  // namespace sluice
