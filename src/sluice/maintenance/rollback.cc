#include "sluice/maintenance/rollback.h"

#include <algorithm>
#include <string>
#include <vector>

#include "sluice/maintenance/snapshot_deletion.h"
#include "sluice/maintenance/used_files.h"
#include "sluice/meta/changelog_manager.h"

namespace sluice {

Result<int64_t> RollbackHelper::RollbackTo(int64_t snapshot_id) {
  Result<Snapshot> snapshot = table_->snapshot_manager().LoadSnapshot(snapshot_id);
  if (snapshot.ok()) return CleanLargerThan(*snapshot);
  if (!snapshot.status().IsNotFound()) return snapshot.status();
  // Java rollbackTo(long) falls back to a tag of that snapshot.
  SLUICE_ASSIGN_OR_RETURN(auto tags, table_->tag_manager().ListTags());
  for (const auto& [name, tag] : tags) {
    if (tag.snapshot.id == snapshot_id) return CleanLargerThan(tag.snapshot);
  }
  return Status::NotFound("Rollback snapshot '" + std::to_string(snapshot_id) +
                          "' doesn't exist in table " + table_->path());
}

Result<int64_t> RollbackHelper::RollbackToTag(const std::string& tag) {
  SLUICE_ASSIGN_OR_RETURN(Tag loaded, table_->tag_manager().LoadTag(tag));
  return CleanLargerThan(loaded.snapshot);
}

Result<int64_t> RollbackHelper::RollbackToTimestamp(int64_t time_millis) {
  SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> snapshot,
                          table_->snapshot_manager().EarlierOrEqualTimeMillis(time_millis));
  if (!snapshot) {
    return Status::NotFound("could not find a snapshot committed at or before " +
                            std::to_string(time_millis) + " in table " + table_->path());
  }
  SLUICE_RETURN_NOT_OK(CleanLargerThan(*snapshot).status());
  return snapshot->id;
}

Result<int64_t> RollbackHelper::CleanLargerThan(const Snapshot& retained) {
  const SnapshotManager& snapshot_manager = table_->snapshot_manager();
  const TagManager& tag_manager = table_->tag_manager();
  ChangelogManager changelogs(table_->io(), table_->path(), table_->branch());
  FileIO& io = *table_->io();

  // What goes: the snapshots, tags and long-lived changelogs after `retained`.
  SLUICE_ASSIGN_OR_RETURN(std::vector<int64_t> snapshot_ids, snapshot_manager.ListSnapshotIds());
  std::vector<Snapshot> removed;
  for (auto it = snapshot_ids.rbegin(); it != snapshot_ids.rend() && *it > retained.id; ++it) {
    SLUICE_ASSIGN_OR_RETURN(Snapshot snapshot, snapshot_manager.LoadSnapshot(*it));
    removed.push_back(std::move(snapshot));
  }
  SLUICE_ASSIGN_OR_RETURN(auto tags, tag_manager.ListTags());
  std::vector<std::string> removed_tags;
  SLUICE_ASSIGN_OR_RETURN(std::vector<int64_t> changelog_ids, changelogs.ListChangelogIds());
  std::vector<int64_t> removed_changelogs;

  // What stays needs its files: `retained` (a file of an older snapshot that a later one also
  // has is in every snapshot between), the kept tags and changelogs, the other branches.
  UsedFiles keep(*table_);
  UsedFiles gone(*table_);
  SLUICE_RETURN_NOT_OK(keep.AddSnapshot(retained));
  for (const Snapshot& snapshot : removed) SLUICE_RETURN_NOT_OK(gone.AddSnapshot(snapshot));
  for (const auto& [name, tag] : tags) {
    if (tag.snapshot.id > retained.id) {
      removed_tags.push_back(name);
      SLUICE_RETURN_NOT_OK(gone.AddSnapshot(tag.snapshot));
    } else {
      SLUICE_RETURN_NOT_OK(keep.AddSnapshot(tag.snapshot));
    }
  }
  for (int64_t id : changelog_ids) {
    SLUICE_ASSIGN_OR_RETURN(Snapshot changelog, changelogs.LoadChangelog(id));
    if (id > retained.id) {
      removed_changelogs.push_back(id);
      SLUICE_RETURN_NOT_OK(gone.AddLongLivedChangelog(changelog));
    } else {
      SLUICE_RETURN_NOT_OK(keep.AddLongLivedChangelog(changelog));
    }
  }
  SLUICE_RETURN_NOT_OK(keep.AddOtherBranches(table_->branch()));

  // A tag's snapshot that expired comes back as a snapshot file first.
  SLUICE_ASSIGN_OR_RETURN(bool retained_exists, snapshot_manager.SnapshotExists(retained.id));
  if (!retained_exists) {
    SLUICE_RETURN_NOT_OK(io.WriteFileAtomic(snapshot_manager.snapshot_path(retained.id),
                                            retained.ToJson(), /*overwrite=*/false));
    SLUICE_RETURN_NOT_OK(snapshot_manager.CommitEarliestHint(retained.id));
  }
  SLUICE_RETURN_NOT_OK(snapshot_manager.CommitLatestHint(retained.id));
  for (const Snapshot& snapshot : removed) {  // newest first
    SLUICE_RETURN_NOT_OK(io.Delete(snapshot_manager.snapshot_path(snapshot.id), false));
    SLUICE_RETURN_NOT_OK(io.SyncDir(snapshot_manager.snapshot_dir()));
  }
  for (const std::string& name : removed_tags) {
    SLUICE_RETURN_NOT_OK(io.Delete(tag_manager.tag_path(name), false));
  }
  if (!removed_tags.empty()) SLUICE_RETURN_NOT_OK(io.SyncDir(tag_manager.tag_dir()));
  if (!removed_changelogs.empty()) {
    // Java's hint: the changelog before the first removed one, -1 when none is left.
    const int64_t first_removed = removed_changelogs.front();
    const bool any_left = changelog_ids.front() < first_removed;
    SLUICE_RETURN_NOT_OK(changelogs.CommitLatestHint(any_left ? first_removed - 1 : -1));
    for (int64_t id : removed_changelogs) SLUICE_RETURN_NOT_OK(changelogs.DeleteChangelog(id));
    SLUICE_RETURN_NOT_OK(io.SyncDir(changelogs.changelog_dir()));
  }

  std::vector<std::string> files;
  for (const std::string& path : gone.paths()) {
    if (!keep.Contains(path)) files.push_back(path);
  }
  std::sort(files.begin(), files.end());
  return DeleteFiles(io, files);
}

}  // namespace sluice
