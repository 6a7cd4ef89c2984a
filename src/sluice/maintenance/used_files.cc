#include "sluice/maintenance/used_files.h"

#include "sluice/meta/branch_manager.h"
#include "sluice/meta/changelog_manager.h"
#include "sluice/meta/file_entry_merger.h"
#include "sluice/meta/manifest_file.h"
#include "sluice/meta/tag_manager.h"

namespace sluice {

Result<std::vector<ManifestEntry>> ReadManifestListEntries(const FileStoreTable& table,
                                                           const std::string& list_name) {
  FileIO& io = *table.io();
  SLUICE_ASSIGN_OR_RETURN(std::vector<ManifestFileMeta> metas,
                          ReadManifestList(io, ManifestFilePath(table.path(), list_name)));
  std::vector<ManifestEntry> entries;
  for (const ManifestFileMeta& meta : metas) {
    SLUICE_ASSIGN_OR_RETURN(std::vector<ManifestEntry> part,
                            ReadManifestFile(io, ManifestFilePath(table.path(), meta.file_name)));
    entries.insert(entries.end(), std::make_move_iterator(part.begin()),
                   std::make_move_iterator(part.end()));
  }
  return entries;
}

Result<std::string> DataFilePathOf(const FileStoreTable& table, const ManifestEntry& entry) {
  if (entry.file.external_path) return *entry.file.external_path;
  SLUICE_ASSIGN_OR_RETURN(std::string bucket_path, table.path_factory().BucketPathOfSerialized(
                                                       entry.partition, entry.bucket));
  return DataFilePath(bucket_path, entry.file.file_name);
}

Result<std::vector<std::string>> ExtraFilePathsOf(const FileStoreTable& table,
                                                  const ManifestEntry& entry) {
  std::vector<std::string> paths;
  if (entry.file.extra_files.empty()) return paths;
  SLUICE_ASSIGN_OR_RETURN(std::string data_path, DataFilePathOf(table, entry));
  // Java toAlignedPath: extra files sit beside the data file, wherever that is.
  const std::string dir = ParentDir(data_path);
  for (const std::string& extra : entry.file.extra_files) paths.push_back(JoinPath(dir, extra));
  return paths;
}

Status UsedFiles::AddDataFiles(const Snapshot& snapshot) {
  FileEntryMerger merger;
  for (const std::string* list : {&snapshot.base_manifest_list, &snapshot.delta_manifest_list}) {
    SLUICE_ASSIGN_OR_RETURN(std::vector<ManifestEntry> entries,
                            ReadManifestListEntries(table_, *list));
    SLUICE_RETURN_NOT_OK_CTX(merger.AddAll(std::move(entries)),
                             "snapshot " + std::to_string(snapshot.id) + " of " + table_.path());
  }
  for (const ManifestEntry& entry : std::move(merger).Finish()) {
    if (entry.kind != FileKind::kAdd) continue;
    SLUICE_ASSIGN_OR_RETURN(std::string path, DataFilePathOf(table_, entry));
    Add(std::move(path));
    SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> extras, ExtraFilePathsOf(table_, entry));
    for (std::string& extra : extras) Add(std::move(extra));
  }
  return Status::OK();
}

Status UsedFiles::AddManifestList(const std::string& list_name, AddedFiles added) {
  const std::string& table = table_.path();
  Add(ManifestFilePath(table, list_name));
  SLUICE_ASSIGN_OR_RETURN(std::vector<ManifestFileMeta> metas,
                          ReadManifestList(*table_.io(), ManifestFilePath(table, list_name)));
  for (const ManifestFileMeta& meta : metas) {
    Add(ManifestFilePath(table, meta.file_name));
    if (added == AddedFiles::kNone) continue;
    SLUICE_ASSIGN_OR_RETURN(
        std::vector<ManifestEntry> entries,
        ReadManifestFile(*table_.io(), ManifestFilePath(table, meta.file_name)));
    for (const ManifestEntry& entry : entries) {
      if (added == AddedFiles::kWrittenByWrites) {
        // Writes' files the delta adds, and those it deletes: snapshot expiry kept them for
        // this changelog's expiry to delete.
        if (entry.file.file_source.value_or(FileSource::kAppend) != FileSource::kAppend) continue;
      } else if (entry.kind != FileKind::kAdd) {
        continue;
      }
      SLUICE_ASSIGN_OR_RETURN(std::string path, DataFilePathOf(table_, entry));
      Add(std::move(path));
    }
  }
  return Status::OK();
}

Status UsedFiles::AddMetadataFiles(const Snapshot& snapshot) {
  const std::string& table = table_.path();
  SLUICE_RETURN_NOT_OK(AddManifestList(snapshot.base_manifest_list, AddedFiles::kNone));
  SLUICE_RETURN_NOT_OK(AddManifestList(snapshot.delta_manifest_list, AddedFiles::kNone));
  if (snapshot.index_manifest) {
    const std::string path = ManifestFilePath(table, *snapshot.index_manifest);
    Add(path);
    SLUICE_ASSIGN_OR_RETURN(std::vector<IndexManifestEntry> entries,
                            ReadIndexManifest(*table_.io(), path));
    for (const IndexManifestEntry& entry : entries) {
      if (entry.kind != FileKind::kAdd) continue;
      if (entry.external_path) {
        Add(*entry.external_path);
        continue;
      }
      SLUICE_ASSIGN_OR_RETURN(std::string index_path,
                              table_.path_factory().IndexFilePathOfSerialized(
                                  entry.partition, entry.bucket, entry.file_name));
      Add(std::move(index_path));
    }
  }
  if (snapshot.statistics) Add(StatisticsFilePath(table, *snapshot.statistics));
  return Status::OK();
}

Status UsedFiles::AddChangelogFiles(const Snapshot& snapshot) {
  if (!snapshot.changelog_manifest_list) return Status::OK();
  return AddManifestList(*snapshot.changelog_manifest_list, AddedFiles::kAll);
}

Status UsedFiles::AddSnapshot(const Snapshot& snapshot) {
  SLUICE_RETURN_NOT_OK(AddDataFiles(snapshot));
  SLUICE_RETURN_NOT_OK(AddMetadataFiles(snapshot));
  return AddChangelogFiles(snapshot);
}

Status UsedFiles::AddLongLivedChangelog(const Snapshot& changelog) {
  const bool has_changelog_list = changelog.changelog_manifest_list.has_value();
  std::vector<std::pair<std::string, AddedFiles>> lists{
      {changelog.base_manifest_list, AddedFiles::kNone},
      {changelog.delta_manifest_list,
       has_changelog_list ? AddedFiles::kNone : AddedFiles::kWrittenByWrites}};
  if (has_changelog_list) lists.emplace_back(*changelog.changelog_manifest_list, AddedFiles::kAll);
  for (const auto& [list, added] : lists) {
    SLUICE_ASSIGN_OR_RETURN(bool exists,
                            table_.io()->Exists(ManifestFilePath(table_.path(), list)));
    if (exists) SLUICE_RETURN_NOT_OK(AddManifestList(list, added));
  }
  return Status::OK();
}

Status UsedFiles::AddOtherBranches(const std::string& except_branch) {
  SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> branches,
                          BranchManager(table_.io(), table_.path()).ListBranches());
  branches.insert(branches.begin(), std::string(kMainBranch));
  for (const std::string& branch : branches) {
    if (!except_branch.empty() && NormalizeBranch(branch) == NormalizeBranch(except_branch)) {
      continue;
    }
    SnapshotManager snapshots(table_.io(), table_.path(), branch);
    SLUICE_ASSIGN_OR_RETURN(std::vector<Snapshot> list, snapshots.ListSnapshots());
    for (const Snapshot& snapshot : list) SLUICE_RETURN_NOT_OK(AddSnapshot(snapshot));
    SLUICE_ASSIGN_OR_RETURN(auto tags, TagManager(table_.io(), table_.path(), branch).ListTags());
    for (const auto& [name, tag] : tags) SLUICE_RETURN_NOT_OK(AddSnapshot(tag.snapshot));
    ChangelogManager changelogs(table_.io(), table_.path(), branch);
    SLUICE_ASSIGN_OR_RETURN(std::vector<int64_t> ids, changelogs.ListChangelogIds());
    for (int64_t id : ids) {
      SLUICE_ASSIGN_OR_RETURN(Snapshot changelog, changelogs.LoadChangelog(id));
      SLUICE_RETURN_NOT_OK(AddLongLivedChangelog(changelog));
    }
  }
  return Status::OK();
}

}  // namespace sluice
