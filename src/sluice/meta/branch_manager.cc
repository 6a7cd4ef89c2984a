#include "sluice/meta/branch_manager.h"

#include <algorithm>

#include "sluice/base/string_util.h"
#include "sluice/base/uuid.h"
#include "sluice/meta/file_paths.h"
#include "sluice/meta/schema_manager.h"
#include "sluice/meta/snapshot_manager.h"
#include "sluice/meta/tag_manager.h"

namespace sluice {

namespace {

std::string Quoted(std::string_view name) { return "'" + std::string(name) + "'"; }

// A hidden name in branch/ for a branch directory being made or removed.
std::string HiddenBranchPath(std::string_view table, std::string_view name,
                             std::string_view suffix) {
  return JoinPath(BranchDir(table), "." + std::string(kBranchPrefix) + std::string(name) + "." +
                                        NewUuidV4() + std::string(suffix));
}

// Copies schema-0 .. schema-<up_to> of `from` that exist into the branch at `to_branch_path`.
Status CopySchemas(FileIO& io, const SchemaManager& from, std::string_view to_branch_path,
                   int64_t up_to) {
  SLUICE_ASSIGN_OR_RETURN(std::vector<int64_t> ids, from.ListSchemaIds());
  SLUICE_RETURN_NOT_OK(io.MkDirs(SchemaDir(to_branch_path)));
  for (int64_t id : ids) {
    if (id > up_to) break;
    SLUICE_RETURN_NOT_OK(CopyFileDurably(io, from.schema_path(id), SchemaPath(to_branch_path, id),
                                         /*overwrite=*/false));
  }
  return Status::OK();
}

}  // namespace

Status CopyFileDurably(FileIO& io, const std::string& from, const std::string& to, bool overwrite) {
  SLUICE_ASSIGN_OR_RETURN(std::string content, io.ReadFile(from));
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<WritableFile> out, io.OpenForWrite(to, overwrite));
  SLUICE_RETURN_NOT_OK(out->Append(content));
  SLUICE_RETURN_NOT_OK(out->Close());
  return io.SyncDir(ParentDir(to));
}

BranchManager::BranchManager(std::shared_ptr<FileIO> io, std::string table_path)
    : io_(std::move(io)), table_path_(std::move(table_path)) {}

Result<std::vector<std::string>> BranchManager::ListBranches() const {
  Result<std::vector<FileStatus>> entries = io_->ListDir(BranchDir(table_path_));
  if (!entries.ok()) {
    if (entries.status().IsNotFound()) return std::vector<std::string>{};
    return entries.status();
  }
  std::vector<std::string> names;
  for (const FileStatus& entry : *entries) {
    if (!entry.is_dir) continue;
    std::string_view name = entry.path;
    if (size_t slash = name.rfind('/'); slash != std::string_view::npos) {
      name.remove_prefix(slash + 1);
    }
    if (name.substr(0, kBranchPrefix.size()) != kBranchPrefix) continue;
    names.emplace_back(name.substr(kBranchPrefix.size()));
  }
  std::sort(names.begin(), names.end());
  return names;
}

Result<bool> BranchManager::BranchExists(std::string_view branch) const {
  const std::string normalized = NormalizeBranch(branch);
  if (IsMainBranch(normalized)) return true;
  return io_->Exists(BranchPath(table_path_, normalized));
}

Status BranchManager::ValidateBranchName(std::string_view name) {
  if (IsMainBranch(name)) {
    return Status::InvalidArgument("branch name 'main' is the default branch and cannot be used");
  }
  if (IsJavaBlank(name))
    return Status::InvalidArgument("branch name " + Quoted(name) + " is blank");
  if (std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return Status::InvalidArgument("branch name cannot be pure numeric string but is " +
                                   Quoted(name));
  }
  if (name.find('/') != std::string_view::npos || name.find('$') != std::string_view::npos) {
    return Status::InvalidArgument("branch name " + Quoted(name) + " must not contain '/' or '$'");
  }
  return Status::OK();
}

Status BranchManager::CreateStaged(
    std::string_view name, bool ignore_if_exists,
    const std::function<Status(const std::string& staged)>& fill) const {
  SLUICE_RETURN_NOT_OK(ValidateBranchName(name));
  const std::string target = BranchPath(table_path_, name);
  SLUICE_ASSIGN_OR_RETURN(bool exists, io_->Exists(target));
  if (exists) {
    if (ignore_if_exists) return Status::OK();
    return Status::AlreadyExists("branch " + Quoted(name) + " already exists: " + target);
  }
  const std::string staged = HiddenBranchPath(table_path_, name, ".tmp");
  SLUICE_RETURN_NOT_OK(io_->MkDirs(staged));
  Status filled = fill(staged);
  if (filled.ok()) filled = io_->RenameNoReplace(staged, target);
  if (!filled.ok()) {
    io_->Delete(staged, /*recursive=*/true).IgnoreError();  // the first error is the one to report
    if (filled.IsAlreadyExists()) {
      if (ignore_if_exists) return Status::OK();
      return Status::AlreadyExists("branch " + Quoted(name) + " already exists: " + target);
    }
    return filled.WithContext("creating branch " + Quoted(name));
  }
  return io_->SyncDir(BranchDir(table_path_));
}

Status BranchManager::CreateBranch(std::string_view name, std::string_view from_branch,
                                   bool ignore_if_exists) const {
  SchemaManager schemas(io_, table_path_, from_branch);
  SLUICE_ASSIGN_OR_RETURN(std::optional<TableSchema> latest, schemas.LatestSchema());
  if (!latest) {
    return Status::NotFound("branch " + Quoted(NormalizeBranch(from_branch)) + " of " +
                            table_path_ + " has no schema");
  }
  return CreateStaged(name, ignore_if_exists, [&](const std::string& staged) {
    return CopySchemas(*io_, schemas, staged, latest->id());
  });
}

Status BranchManager::CreateBranchFromTag(std::string_view name, std::string_view from_branch,
                                          std::string_view tag, bool ignore_if_exists) const {
  TagManager tags(io_, table_path_, from_branch);
  SLUICE_ASSIGN_OR_RETURN(Tag loaded, tags.LoadTag(tag));
  SnapshotManager snapshots(io_, table_path_, from_branch);
  SchemaManager schemas(io_, table_path_, from_branch);
  const Snapshot& snapshot = loaded.snapshot;
  return CreateStaged(name, ignore_if_exists, [&](const std::string& staged) -> Status {
    SLUICE_RETURN_NOT_OK(io_->MkDirs(TagDir(staged)));
    SLUICE_RETURN_NOT_OK(
        CopyFileDurably(*io_, tags.tag_path(tag), TagPath(staged, tag), /*overwrite=*/false));
    SLUICE_RETURN_NOT_OK(io_->MkDirs(SnapshotDir(staged)));
    SLUICE_ASSIGN_OR_RETURN(bool snapshot_exists, snapshots.SnapshotExists(snapshot.id));
    if (snapshot_exists) {
      SLUICE_RETURN_NOT_OK(CopyFileDurably(*io_, snapshots.snapshot_path(snapshot.id),
                                           SnapshotPath(staged, snapshot.id),
                                           /*overwrite=*/false));
    } else {
      // The tag outlived its snapshot: the tag carries the snapshot's content.
      SLUICE_RETURN_NOT_OK(io_->WriteFileAtomic(SnapshotPath(staged, snapshot.id),
                                                snapshot.ToJson(), /*overwrite=*/false));
    }
    return CopySchemas(*io_, schemas, staged, snapshot.schema_id);
  });
}

Status BranchManager::CreateBranchFromSnapshot(std::string_view name, std::string_view from_branch,
                                               int64_t snapshot_id, bool ignore_if_exists) const {
  SnapshotManager snapshots(io_, table_path_, from_branch);
  SchemaManager schemas(io_, table_path_, from_branch);
  SLUICE_ASSIGN_OR_RETURN(Snapshot snapshot, snapshots.LoadSnapshot(snapshot_id));
  return CreateStaged(name, ignore_if_exists, [&](const std::string& staged) -> Status {
    SLUICE_RETURN_NOT_OK(io_->MkDirs(SnapshotDir(staged)));
    SLUICE_RETURN_NOT_OK(CopyFileDurably(*io_, snapshots.snapshot_path(snapshot_id),
                                         SnapshotPath(staged, snapshot_id), /*overwrite=*/false));
    return CopySchemas(*io_, schemas, staged, snapshot.schema_id);
  });
}

Status BranchManager::DropBranch(std::string_view name) const {
  if (IsMainBranch(NormalizeBranch(name))) {
    return Status::InvalidArgument("cannot delete the main branch");
  }
  const std::string path = BranchPath(table_path_, name);
  SLUICE_ASSIGN_OR_RETURN(bool exists, io_->Exists(path));
  if (!exists) return Status::NotFound("branch " + Quoted(name) + " does not exist: " + path);
  // One rename takes the branch away whole; the recursive delete after it may stop half-way.
  const std::string hidden = HiddenBranchPath(table_path_, name, ".deleted");
  SLUICE_RETURN_NOT_OK(io_->RenameNoReplace(path, hidden));
  SLUICE_RETURN_NOT_OK(io_->SyncDir(BranchDir(table_path_)));
  return io_->Delete(hidden, /*recursive=*/true);
}

Status BranchManager::RenameBranch(std::string_view from, std::string_view to) const {
  if (IsMainBranch(NormalizeBranch(from))) {
    return Status::InvalidArgument("cannot rename the main branch");
  }
  SLUICE_RETURN_NOT_OK(ValidateBranchName(to));
  const std::string from_path = BranchPath(table_path_, from);
  const std::string to_path = BranchPath(table_path_, to);
  SLUICE_ASSIGN_OR_RETURN(bool exists, io_->Exists(from_path));
  if (!exists) return Status::NotFound("branch " + Quoted(from) + " does not exist: " + from_path);
  Status renamed = io_->RenameNoReplace(from_path, to_path);
  if (renamed.IsAlreadyExists()) {
    return Status::AlreadyExists("branch " + Quoted(to) + " already exists: " + to_path);
  }
  SLUICE_RETURN_NOT_OK(renamed);
  return io_->SyncDir(BranchDir(table_path_));
}

Status BranchManager::FastForward(std::string_view branch, std::string_view into_branch) const {
  const std::string from = NormalizeBranch(branch);
  const std::string into = NormalizeBranch(into_branch);
  if (IsMainBranch(from)) {
    return Status::InvalidArgument("branch name 'main' do not use in fast-forward");
  }
  if (from == into) {
    return Status::InvalidArgument("fast-forward from the current branch " + Quoted(from) +
                                   " is not allowed");
  }
  SLUICE_ASSIGN_OR_RETURN(bool exists, BranchExists(from));
  if (!exists) {
    return Status::NotFound("branch " + Quoted(from) +
                            " does not exist: " + BranchPath(table_path_, from));
  }
  SnapshotManager from_snapshots(io_, table_path_, from);
  SchemaManager from_schemas(io_, table_path_, from);
  TagManager from_tags(io_, table_path_, from);
  SnapshotManager into_snapshots(io_, table_path_, into);
  SchemaManager into_schemas(io_, table_path_, into);
  TagManager into_tags(io_, table_path_, into);

  SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> earliest, from_snapshots.EarliestSnapshot());
  if (!earliest) {
    return Status::InvalidArgument("cannot fast forward branch " + Quoted(from) +
                                   ", because it does not have snapshot");
  }
  const int64_t earliest_id = earliest->id;
  const int64_t earliest_schema = earliest->schema_id;

  // Newest first: at every step the remaining snapshots are a prefix of the old history.
  SLUICE_RETURN_NOT_OK(io_->MkDirs(into_snapshots.snapshot_dir()));
  SLUICE_RETURN_NOT_OK(
      io_->Delete(LatestHintPath(into_snapshots.snapshot_dir()), /*recursive=*/false));
  SLUICE_ASSIGN_OR_RETURN(std::vector<int64_t> snapshot_ids, into_snapshots.ListSnapshotIds());
  for (auto it = snapshot_ids.rbegin(); it != snapshot_ids.rend() && *it >= earliest_id; ++it) {
    SLUICE_RETURN_NOT_OK(io_->Delete(into_snapshots.snapshot_path(*it), /*recursive=*/false));
  }
  SLUICE_ASSIGN_OR_RETURN(auto into_tag_list, into_tags.ListTags());
  for (const auto& [tag_name, tag] : into_tag_list) {
    if (tag.snapshot.id >= earliest_id) {
      SLUICE_RETURN_NOT_OK(io_->Delete(into_tags.tag_path(tag_name), /*recursive=*/false));
    }
  }
  SLUICE_ASSIGN_OR_RETURN(std::vector<int64_t> schema_ids, into_schemas.ListSchemaIds());
  for (auto it = schema_ids.rbegin(); it != schema_ids.rend() && *it >= earliest_schema; ++it) {
    SLUICE_RETURN_NOT_OK(io_->Delete(into_schemas.schema_path(*it), /*recursive=*/false));
  }
  SLUICE_RETURN_NOT_OK(io_->SyncDir(into_snapshots.snapshot_dir()));
  SLUICE_RETURN_NOT_OK(io_->SyncDir(into_schemas.schema_dir()));

  // Oldest first, schemas before the snapshots that name them.
  SLUICE_ASSIGN_OR_RETURN(std::vector<int64_t> from_schema_ids, from_schemas.ListSchemaIds());
  for (int64_t id : from_schema_ids) {
    if (id < earliest_schema) continue;
    SLUICE_RETURN_NOT_OK(CopyFileDurably(*io_, from_schemas.schema_path(id),
                                         into_schemas.schema_path(id), /*overwrite=*/true));
  }
  SLUICE_ASSIGN_OR_RETURN(std::vector<int64_t> from_snapshot_ids, from_snapshots.ListSnapshotIds());
  for (int64_t id : from_snapshot_ids) {
    SLUICE_RETURN_NOT_OK(CopyFileDurably(*io_, from_snapshots.snapshot_path(id),
                                         into_snapshots.snapshot_path(id), /*overwrite=*/true));
  }
  SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> from_tag_names, from_tags.ListTagNames());
  if (!from_tag_names.empty()) SLUICE_RETURN_NOT_OK(io_->MkDirs(into_tags.tag_dir()));
  for (const std::string& tag_name : from_tag_names) {
    SLUICE_RETURN_NOT_OK(CopyFileDurably(*io_, from_tags.tag_path(tag_name),
                                         into_tags.tag_path(tag_name), /*overwrite=*/true));
  }
  if (!from_snapshot_ids.empty()) {
    SLUICE_RETURN_NOT_OK(into_snapshots.CommitLatestHint(from_snapshot_ids.back()));
  }
  return Status::OK();
}

}  // namespace sluice
