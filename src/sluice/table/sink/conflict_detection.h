// Commit conflict detection (Java FileStoreCommitImpl.noConflictsOrFail): before a commit that
// deletes files (compaction, overwrite, deletes of an append), the files it changes are checked
// against the live files of the latest snapshot in the partitions it touches.
//
//   - Every file the commit deletes must be live: a file deleted twice, or compacted away by a
//     concurrent committer, is a conflict.
//   - A file the commit adds must not be live already.
//   - Except for OVERWRITE commits, a partition keeps one bucket count (`_TOTAL_BUCKETS`).
//   - Primary-key tables: within a partition and bucket, the files of one level >= 1 must have
//     disjoint key ranges (an LSM level is one sorted run).
//   - Index files the commit deletes must be live (CheckNoIndexConflicts; Java reaches the same
//     end by pairing deletion vectors with their data files).
//
// A conflict is a Status::Conflict that names the partition, bucket and file(s), the commit
// users involved and the snapshot checked against.
//
// Thread safety: stateless functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sluice/data_type.h"
#include "sluice/meta/index_manifest_entry.h"
#include "sluice/meta/manifest_entry.h"
#include "sluice/meta/snapshot.h"
#include "sluice/result.h"

namespace sluice {

struct ConflictCheckContext {
  // The table's partition type (for naming partitions) and, for primary-key tables, the
  // trimmed primary key type the files' min / max keys are rows of; null for append tables.
  DataTypePtr partition_type;
  DataTypePtr key_type;
  std::string table_path;
  std::string commit_user;
};

// `base`: the live (ADD) entries of the latest snapshot `latest` in the changed partitions;
// `delta`: the entries of the commit being made.
Status CheckNoConflicts(const ConflictCheckContext& context, const Snapshot& latest,
                        const std::vector<ManifestEntry>& base,
                        const std::vector<ManifestEntry>& delta, CommitKind kind);

// Index files (deletion vectors, hash index): every index file the commit deletes must be live
// in `live_index` (the entries of the latest snapshot's index manifest), and none it adds may be
// live already; two commits replacing one bucket's deletion vectors at once conflict here. A
// HASH file the commit adds must replace (delete) its bucket's live one: two writers that
// both assigned keys to one dynamic bucket conflict here, whatever the commit kind.
Status CheckNoIndexConflicts(const ConflictCheckContext& context, const Snapshot& latest,
                             const std::vector<IndexManifestEntry>& live_index,
                             const std::vector<IndexManifestEntry>& delta);

// "k1=v1, k2=v2" (values as JSON text), "<unpartitioned>" for the empty row.
std::string DescribePartition(const std::string& serialized_partition,
                              const DataType& partition_type);

}  // namespace sluice
