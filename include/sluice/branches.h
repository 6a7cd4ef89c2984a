// Branches through the public API (Java Table.createBranch / deleteBranches / renameBranch /
// fastForward, and merge, which no Paimon has). A branch `b` of a table is read and written as
// `db.table$branch_b` or Table::OnBranch("b"); it shares the table's data files and manifests
// and has its own snapshots, schemas and tags under `branch/branch-b/`.
//
// Thread safety: functions. Creating, dropping and renaming a branch are each one atomic
// rename; fast-forward and merge are described below.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/result.h"
#include "sluice/table.h"

namespace sluice {

struct CreateBranchOptions {
  // Start from this tag of the table's branch (its snapshot, schema and the tag itself)...
  std::optional<std::string> tag;
  // ... or from this snapshot; neither: an empty branch with the latest schema.
  std::optional<int64_t> snapshot_id;
  bool ignore_if_exists = false;
};

// Creates branch `name` from `table`'s branch. InvalidArgument for "main", a blank or numeric
// name, or both a tag and a snapshot; AlreadyExists unless ignore_if_exists; NotFound naming the
// tag or snapshot.
Status CreateBranch(const Table& table, std::string_view name,
                    const CreateBranchOptions& options = {});
// Deletes the branches (NotFound naming the first missing one).
Status DeleteBranches(const Table& table, const std::vector<std::string>& names);
Status RenameBranch(const Table& table, std::string_view from, std::string_view to);
// Makes `table`'s branch what `branch` is: its snapshots, schemas and tags from `branch`'s
// earliest snapshot on (Java fastForward). Later snapshots of `table`'s branch are dropped.
Status FastForward(const Table& table, std::string_view branch);

struct MergeBranchResult {
  // The new snapshot of the target; nullopt when the branch had nothing new.
  std::optional<int64_t> snapshot_id;
  // The branch snapshot merged and the snapshot its changes were taken from (nullopt: the
  // branch started empty).
  int64_t branch_snapshot_id = 0;
  std::optional<int64_t> base_snapshot_id;
  int64_t files_added = 0;
  int64_t files_removed = 0;
  int64_t index_files_added = 0;
  int64_t index_files_removed = 0;
  std::vector<int64_t> schemas_copied;
};

// Applies the changes `branch` made since it forked (or since its last merge) to `target`'s
// branch in one commit, when the files each side added or removed since then touch different
// partitions and buckets (append tables: when no file was removed on both sides) and the
// target's schema has not changed since the fork; the branch's own schema changes come along.
// Otherwise a Conflict naming the partitions, buckets and files, and nothing changes.
Result<MergeBranchResult> MergeBranch(const Table& target, std::string_view branch);

}  // namespace sluice
