// The row types of manifest records, as Java Paimon declares them (ManifestFileMeta.SCHEMA,
// ManifestEntry.SCHEMA with DataFileMeta.SCHEMA and SimpleStats.SCHEMA, IndexManifestEntry),
// each with the leading `_VERSION` format identifier that ManifestSchemaUtils adds.
//
// These are the newest field sets. Reading resolves a file's (possibly older) schema against
// them by field name, so older files read through the same types; the fields older writers
// lacked are nullable and read as null.
//
// Thread safety: the returned types are immutable.
#pragma once

#include "sluice/data_type.h"

namespace sluice {

// `_VERSION` of manifests and manifest lists, and of index manifests.
inline constexpr int32_t kManifestVersion = 2;
inline constexpr int32_t kIndexManifestVersion = 1;

const DataTypePtr& SimpleStatsRowType();
const DataTypePtr& DataFileMetaRowType();
const DataTypePtr& ManifestEntryRowType();
const DataTypePtr& ManifestFileMetaRowType();
const DataTypePtr& IndexManifestEntryRowType();

}  // namespace sluice
