#include "sluice/branches.h"

#include "sluice/api/api_access.h"
#include "sluice/maintenance/branch_merge.h"
#include "sluice/meta/branch_manager.h"

namespace sluice {

namespace {

BranchManager ManagerOf(const FileStoreTable& table) {
  return BranchManager(table.io(), table.path());
}

}  // namespace

Status CreateBranch(const Table& table, std::string_view name, const CreateBranchOptions& options) {
  const FileStoreTable& t = *ApiAccess::FileStoreTableOf(table);
  const BranchManager branches = ManagerOf(t);
  if (options.tag && options.snapshot_id) {
    return Status::InvalidArgument("branch '" + std::string(name) +
                                   "': give a tag or a snapshot to start from, not both");
  }
  if (options.tag) {
    return branches.CreateBranchFromTag(name, t.branch(), *options.tag, options.ignore_if_exists);
  }
  if (options.snapshot_id) {
    return branches.CreateBranchFromSnapshot(name, t.branch(), *options.snapshot_id,
                                             options.ignore_if_exists);
  }
  return branches.CreateBranch(name, t.branch(), options.ignore_if_exists);
}

Status DeleteBranches(const Table& table, const std::vector<std::string>& names) {
  const BranchManager branches = ManagerOf(*ApiAccess::FileStoreTableOf(table));
  for (const std::string& name : names) SLUICE_RETURN_NOT_OK(branches.DropBranch(name));
  return Status::OK();
}

Status RenameBranch(const Table& table, std::string_view from, std::string_view to) {
  return ManagerOf(*ApiAccess::FileStoreTableOf(table)).RenameBranch(from, to);
}

Status FastForward(const Table& table, std::string_view branch) {
  const FileStoreTable& t = *ApiAccess::FileStoreTableOf(table);
  return ManagerOf(t).FastForward(branch, t.branch());
}

Result<MergeBranchResult> MergeBranch(const Table& target, std::string_view branch) {
  SLUICE_ASSIGN_OR_RETURN(BranchMergeResult merged,
                          sluice::MergeBranch(ApiAccess::FileStoreTableOf(target), branch));
  MergeBranchResult result;
  result.snapshot_id = merged.snapshot_id;
  result.branch_snapshot_id = merged.branch_snapshot_id;
  result.base_snapshot_id = merged.base_snapshot_id;
  result.files_added = merged.files_added;
  result.files_removed = merged.files_removed;
  result.index_files_added = merged.index_files_added;
  result.index_files_removed = merged.index_files_removed;
  result.schemas_copied = merged.schemas_copied;
  return result;
}

}  // namespace sluice
