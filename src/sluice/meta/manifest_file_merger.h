// MergeManifestFiles: compacts the data manifests of a table's base manifest list before a
// commit (Java ManifestFileMerger), so that the number of manifests a read opens stays bounded
// and ADD/DELETE pairs of the same file disappear.
//
//   full compaction   when the manifests that must change (those with DELETE entries or smaller
//                     than the target size) add up to `full_compaction_threshold_size`: every
//                     DELETE is applied to the ADDs it cancels; manifests that cannot hold a
//                     deleted file (partition statistics) and are large and delete-free are kept
//                     as they are, the rest are rewritten (rolled at the target size).
//   minor compaction  otherwise: manifests are taken in order and grouped until a group reaches
//                     the target size, each group of two or more is merged into new files; the
//                     last group is merged only when it has at least `merge_min_count` manifests.
//
// Thread safety: as ManifestFileWriter (not thread-safe).
#pragma once

#include <cstdint>
#include <vector>

#include "sluice/data_type.h"
#include "sluice/meta/manifest_file_meta.h"
#include "sluice/meta/manifest_file_writer.h"
#include "sluice/result.h"
#include "sluice/value.h"

namespace sluice {

struct ManifestMergeOptions {
  int64_t target_file_size = 8 << 20;                 // `manifest.target-file-size`
  int32_t merge_min_count = 30;                       // `manifest.merge-min-count`
  int64_t full_compaction_threshold_size = 16 << 20;  // `manifest.full-compaction-threshold-size`
};

// Returns the manifests of the new base list. Files it wrote are appended to `new_files` (the
// caller deletes them if the commit does not land); on error they are deleted here.
Result<std::vector<ManifestFileMeta>> MergeManifestFiles(const std::vector<ManifestFileMeta>& input,
                                                         ManifestFileWriter* writer,
                                                         const ManifestMergeOptions& options,
                                                         std::vector<ManifestFileMeta>* new_files);

// True if the partition statistics of `meta` allow it to hold a file of one of `partitions`
// (decoded partition values of `partition_type`); true when the statistics cannot be read.
bool ManifestMayHoldPartitions(const ManifestFileMeta& meta,
                               const std::vector<ValueList>& partitions,
                               const DataType& partition_type);

}  // namespace sluice
