// The index manifest a commit writes (Java IndexManifestFileHandler): the previous snapshot's
// index files with the commit's changes applied. Hash index files are replaced per (partition,
// bucket); deletion-vector index files per (partition, bucket), or by file name for
// bucket-unaware tables (one index file may cover several buckets there).
//
// Thread safety: a pure function.
#pragma once

#include <vector>

#include "sluice/meta/index_manifest_entry.h"
#include "sluice/result.h"

namespace sluice {

// `previous` with `changes` applied (deletions first, so that a DELETE and an ADD of one
// bucket leave the ADD). NotSupported for an index type the committer does not know.
Result<std::vector<IndexManifestEntry>> CombineIndexManifestEntries(
    std::vector<IndexManifestEntry> previous, const std::vector<IndexManifestEntry>& changes,
    bool bucket_unaware);

}  // namespace sluice
