// The files a snapshot reads (Java FileStoreScan.plan with no filter, and
// IndexFileHandler.scan): the ADD entries left after folding the entries of its base and delta
// manifest lists, and the entries of its index manifest.
//
// Thread safety: pure functions over the FileIO.
#pragma once

#include <string_view>
#include <vector>

#include "sluice/fs/file_io.h"
#include "sluice/meta/index_manifest_entry.h"
#include "sluice/meta/manifest_entry.h"
#include "sluice/meta/snapshot.h"
#include "sluice/result.h"

namespace sluice {

// Live data files in manifest order. Errors name the manifest (list) that could not be read.
Result<std::vector<ManifestEntry>> ReadLiveDataFiles(FileIO& io, std::string_view table_path,
                                                     const Snapshot& snapshot);
// Live index files; none when the snapshot has no index manifest.
Result<std::vector<IndexManifestEntry>> ReadLiveIndexFiles(FileIO& io, std::string_view table_path,
                                                           const Snapshot& snapshot);

}  // namespace sluice
