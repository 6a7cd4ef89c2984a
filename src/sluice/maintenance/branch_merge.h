// BranchMerge: applies the changes a branch made since it forked to another branch (usually
// main) in one atomic commit. No Paimon has this; it is built from Paimon's pieces (the branch's
// manifests and data files are shared with the target, so merging is committing the branch's
// file changes on the target).
//
// The merge base. The first merge of a branch starts from its fork point: the oldest snapshot
// the branch holds (the snapshot it was created from, copied by CreateBranchFromTag /
// CreateBranchFromSnapshot; a tag of the branch keeps it when the snapshot expired), or an
// empty table for a branch created without a snapshot. A merge records the branch and the
// branch snapshot it merged in the target snapshot's properties (`sluice.merge.branch`,
// `sluice.merge.branch-snapshot`), and the next merge of that branch starts there.
//
// What merges. The changes of each side are the data and index files its latest snapshot
// holds and its base did not (added) and the other way round (removed). They conflict when
//   - primary-key tables: both sides added or removed files in one partition and bucket (one
//     partition for dynamic-bucket tables, whose key-to-bucket assignment is per partition);
//   - append tables: both sides removed the same file, or both changed index files (deletion
//     vectors) of one partition and bucket;
//   - any table: the target's schema changed since the fork (its schema files are no longer a
//     prefix of the branch's). The branch's own later schemas come along: they are copied to
//     the target before the commit.
// A conflict is refused with a Conflict status naming the partitions, buckets and files of
// both sides, and nothing is written. Row-tracking and data-evolution tables (whose row ids
// are assigned per branch) are refused with NotSupported.
//
// Crash safety: the only writes are the branch's new schema files (each durable before the
// commit; a schema no snapshot uses yet is harmless and Java ignores it) and one commit through
// FileStoreCommit, which is atomic. The commit's own conflict check refuses it when a file the
// merge removes was removed by a concurrent commit.
//
// Thread safety: a function; concurrent commits to the target are detected as above.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/result.h"
#include "sluice/table/file_store_table.h"

namespace sluice {

inline constexpr std::string_view kMergeBranchProperty = "sluice.merge.branch";
inline constexpr std::string_view kMergeBranchSnapshotProperty = "sluice.merge.branch-snapshot";

struct BranchMergeResult {
  // The target's new snapshot; nullopt when the branch had nothing to merge.
  std::optional<int64_t> snapshot_id;
  // The branch snapshot merged, and the base the changes were taken from (nullopt: empty).
  int64_t branch_snapshot_id = 0;
  std::optional<int64_t> base_snapshot_id;
  int64_t files_added = 0;
  int64_t files_removed = 0;
  int64_t index_files_added = 0;
  int64_t index_files_removed = 0;
  // Schema ids copied from the branch to the target.
  std::vector<int64_t> schemas_copied;
};

// Merges branch `source_branch` into `target`'s branch. InvalidArgument when they are the same
// branch; NotFound when the source does not exist.
Result<BranchMergeResult> MergeBranch(const std::shared_ptr<const FileStoreTable>& target,
                                      std::string_view source_branch);

}  // namespace sluice
