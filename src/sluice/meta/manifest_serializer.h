// Converts manifest records between their row form (a ColumnBatch of the row types in
// manifest_schemas.h, as every file format reads and writes them) and the structs of
// manifest_entry.h, manifest_file_meta.h and index_manifest_entry.h
// (Java: ManifestEntrySerializer, ManifestFileMetaSerializer, IndexManifestEntrySerializer).
//
// Thread safety: stateless functions.
#pragma once

#include <cstdint>

#include "sluice/column_batch.h"
#include "sluice/meta/index_manifest_entry.h"
#include "sluice/meta/manifest_entry.h"
#include "sluice/meta/manifest_file_meta.h"
#include "sluice/result.h"

namespace sluice {

// REQUIRES: batch.schema() is ManifestEntryRowType().
Result<ManifestEntry> ManifestEntryFromRow(const ColumnBatch& batch, int64_t row);
Status AppendManifestEntry(const ManifestEntry& entry, ColumnBatch* batch);

// REQUIRES: batch.schema() is ManifestFileMetaRowType().
Result<ManifestFileMeta> ManifestFileMetaFromRow(const ColumnBatch& batch, int64_t row);
Status AppendManifestFileMeta(const ManifestFileMeta& meta, ColumnBatch* batch);

// REQUIRES: batch.schema() is IndexManifestEntryRowType().
Result<IndexManifestEntry> IndexManifestEntryFromRow(const ColumnBatch& batch, int64_t row);
Status AppendIndexManifestEntry(const IndexManifestEntry& entry, ColumnBatch* batch);

}  // namespace sluice
