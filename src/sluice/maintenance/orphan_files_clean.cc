#include "sluice/maintenance/orphan_files_clean.h"

#include <algorithm>
#include <set>

#include "sluice/maintenance/snapshot_deletion.h"
#include "sluice/maintenance/used_files.h"
#include "sluice/meta/branch_manager.h"

namespace sluice {
namespace {

// Entries of `dir`; none when it does not exist.
Result<std::vector<FileStatus>> ListIfExists(FileIO& io, const std::string& dir) {
  Result<std::vector<FileStatus>> entries = io.ListDir(dir);
  if (!entries.ok() && entries.status().IsNotFound()) return std::vector<FileStatus>();
  return entries;
}

std::string BaseName(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The bucket folders under `dir`, `levels` partition levels down (Java listFileDirs); a
// partition folder without bucket folders counts itself, so that it is removed when empty.
Status ListBucketDirs(FileIO& io, const std::string& dir, size_t levels,
                      std::vector<std::string>* out) {
  SLUICE_ASSIGN_OR_RETURN(std::vector<FileStatus> entries, ListIfExists(io, dir));
  for (const FileStatus& entry : entries) {
    if (!entry.is_dir) continue;
    const std::string name = BaseName(entry.path);
    if (levels == 0) {
      if (name.rfind(kBucketPrefix, 0) == 0) out->push_back(entry.path);
      continue;
    }
    if (name.find('=') == std::string::npos) continue;
    const size_t before = out->size();
    SLUICE_RETURN_NOT_OK(ListBucketDirs(io, entry.path, levels - 1, out));
    if (out->size() == before) out->push_back(entry.path);
  }
  return Status::OK();
}

bool IsVersionedOrHint(const std::string& name, std::string_view prefix) {
  return name.rfind(prefix, 0) == 0 || name == kEarliestHint || name == kLatestHint;
}

}  // namespace

Result<OrphanFiles> LocalOrphanFilesClean::Clean() {
  FileIO& io = *table_->io();
  const std::string& table = table_->path();
  const size_t partition_levels = table_->schema().partition_keys().size();

  // Candidates first: a file written after the listing is not one, whatever it is.
  std::vector<FileStatus> candidates;
  auto add_files_of = [&](const std::string& dir, std::string_view skip_prefix) -> Status {
    SLUICE_ASSIGN_OR_RETURN(std::vector<FileStatus> entries, ListIfExists(io, dir));
    for (FileStatus& entry : entries) {
      if (entry.is_dir || entry.modification_time_ms >= older_than_millis_) continue;
      if (!skip_prefix.empty() && IsVersionedOrHint(BaseName(entry.path), skip_prefix)) continue;
      candidates.push_back(std::move(entry));
    }
    return Status::OK();
  };
  SLUICE_RETURN_NOT_OK(add_files_of(ManifestDir(table), {}));
  SLUICE_RETURN_NOT_OK(add_files_of(IndexDir(table), {}));
  SLUICE_RETURN_NOT_OK(add_files_of(StatisticsDir(table), {}));
  std::string data_root = table;
  if (table_->options().data_file_path_directory()) {
    data_root = JoinPath(table, *table_->options().data_file_path_directory());
  }
  std::vector<std::string> data_dirs;
  SLUICE_RETURN_NOT_OK(ListBucketDirs(io, data_root, partition_levels, &data_dirs));
  for (const std::string& dir : data_dirs) SLUICE_RETURN_NOT_OK(add_files_of(dir, {}));
  SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> branches,
                          BranchManager(table_->io(), table).ListBranches());
  branches.insert(branches.begin(), std::string(kMainBranch));
  for (const std::string& branch : branches) {
    const std::string branch_path = BranchPath(table, branch);
    SLUICE_RETURN_NOT_OK(add_files_of(SnapshotDir(branch_path), kSnapshotPrefix));
    SLUICE_RETURN_NOT_OK(add_files_of(ChangelogDir(branch_path), kChangelogPrefix));
  }

  UsedFiles used(*table_);
  SLUICE_RETURN_NOT_OK(used.AddOtherBranches(/*except_branch=*/""));

  OrphanFiles orphans;
  for (const FileStatus& candidate : candidates) {
    if (used.Contains(candidate.path)) continue;
    orphans.files.push_back(candidate.path);
    orphans.bytes += candidate.size;
  }
  std::sort(orphans.files.begin(), orphans.files.end());
  if (dry_run_) return orphans;
  SLUICE_RETURN_NOT_OK(DeleteFiles(io, orphans.files).status());
  std::set<std::string> dirs(data_dirs.begin(), data_dirs.end());
  // Up to the partition folders above each bucket folder; only empty folders go, so a walk
  // from a listed partition folder that reaches above the data root removes nothing.
  DeleteEmptyDirectories(io, dirs, partition_levels);
  return orphans;
}

}  // namespace sluice
