#include "sluice/maintenance/tag_deletion.h"

#include <algorithm>
#include <string>
#include <vector>

#include "sluice/maintenance/snapshot_deletion.h"
#include "sluice/maintenance/used_files.h"
#include "sluice/meta/changelog_manager.h"

namespace sluice {

Result<int64_t> DeleteTagAndUnusedFiles(const FileStoreTable& table, std::string_view name) {
  const TagManager& tags = table.tag_manager();
  SLUICE_ASSIGN_OR_RETURN(Tag tag, tags.LoadTag(name));
  const Snapshot& tagged = tag.snapshot;
  SLUICE_ASSIGN_OR_RETURN(bool snapshot_exists, table.snapshot_manager().SnapshotExists(tagged.id));
  if (snapshot_exists) {
    SLUICE_RETURN_NOT_OK(tags.DeleteTag(name));
    return int64_t{0};
  }
  SLUICE_ASSIGN_OR_RETURN(auto all_tags, tags.ListTags());
  UsedFiles keep(table);
  for (const auto& [other_name, other] : all_tags) {
    if (other_name == name) continue;
    if (other.snapshot.id == tagged.id) {
      SLUICE_RETURN_NOT_OK(tags.DeleteTag(name));
      return int64_t{0};
    }
    SLUICE_RETURN_NOT_OK_CTX(keep.AddSnapshot(other.snapshot), "tag '" + other_name + "'");
  }
  SLUICE_ASSIGN_OR_RETURN(std::vector<Snapshot> snapshots,
                          table.snapshot_manager().ListSnapshots());
  for (const Snapshot& snapshot : snapshots) SLUICE_RETURN_NOT_OK(keep.AddSnapshot(snapshot));
  ChangelogManager changelogs(table.io(), table.path(), table.branch());
  SLUICE_ASSIGN_OR_RETURN(std::vector<int64_t> changelog_ids, changelogs.ListChangelogIds());
  for (int64_t id : changelog_ids) {
    SLUICE_ASSIGN_OR_RETURN(Snapshot changelog, changelogs.LoadChangelog(id));
    SLUICE_RETURN_NOT_OK(keep.AddLongLivedChangelog(changelog));
  }
  SLUICE_RETURN_NOT_OK(keep.AddOtherBranches(table.branch()));

  UsedFiles data(table);
  UsedFiles metadata(table);
  SLUICE_RETURN_NOT_OK_CTX(data.AddDataFiles(tagged), "tag '" + std::string(name) + "'");
  SLUICE_RETURN_NOT_OK_CTX(metadata.AddMetadataFiles(tagged), "tag '" + std::string(name) + "'");
  // Data files first, then the metadata (Java doClean's order).
  auto unused = [&](const UsedFiles& group) {
    std::vector<std::string> files;
    for (const std::string& path : group.paths()) {
      if (!keep.Contains(path)) files.push_back(path);
    }
    std::sort(files.begin(), files.end());
    return files;
  };
  const std::vector<std::string> data_files = unused(data);
  const std::vector<std::string> metadata_files = unused(metadata);

  SLUICE_RETURN_NOT_OK(tags.DeleteTag(name));
  SLUICE_RETURN_NOT_OK(table.io()->SyncDir(tags.tag_dir()));
  SLUICE_ASSIGN_OR_RETURN(int64_t deleted, DeleteFiles(*table.io(), data_files));
  SLUICE_ASSIGN_OR_RETURN(int64_t deleted_metadata, DeleteFiles(*table.io(), metadata_files));
  return deleted + deleted_metadata;
}

}  // namespace sluice
