#include "sluice/maintenance/snapshot_deletion.h"

#include <algorithm>
#include <functional>
#include <map>
#include <unordered_map>

#include "sluice/meta/manifest_file.h"

namespace sluice {

SnapshotDeletion::SnapshotDeletion(const FileStoreTable& table, bool changelog_decoupled)
    : table_(table),
      changelog_decoupled_(changelog_decoupled),
      produce_changelog_(table.options().changelog_producer() != ChangelogProducer::kNone) {}

void SnapshotDeletion::PlanDataFile(std::string path) {
  bucket_dirs_.insert(ParentDir(path));
  data_files_.push_back(std::move(path));
}

Status SnapshotDeletion::PlanDeletedEntries(const std::vector<ManifestEntry>& entries,
                                            const UsedFiles& keep, bool skip_append_files) {
  // A DELETE is not final at once: the same delta may add the file again (a level upgrade).
  std::unordered_map<std::string, const ManifestEntry*> deleted;
  std::vector<std::string> order;
  for (const ManifestEntry& entry : entries) {
    SLUICE_ASSIGN_OR_RETURN(std::string path, DataFilePathOf(table_, entry));
    if (entry.kind == FileKind::kAdd) {
      deleted.erase(path);
      continue;
    }
    if (deleted.emplace(path, &entry).second) order.push_back(std::move(path));
  }
  for (std::string& path : order) {
    auto it = deleted.find(path);
    if (it == deleted.end() || keep.Contains(path)) continue;
    const ManifestEntry& entry = *it->second;
    if (skip_append_files &&
        entry.file.file_source.value_or(FileSource::kAppend) == FileSource::kAppend) {
      continue;
    }
    SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> extras, ExtraFilePathsOf(table_, entry));
    PlanDataFile(std::move(path));
    for (std::string& extra : extras) data_files_.push_back(std::move(extra));
  }
  return Status::OK();
}

Status SnapshotDeletion::PlanAddedEntries(const std::vector<ManifestEntry>& entries) {
  for (const ManifestEntry& entry : entries) {
    if (entry.kind != FileKind::kAdd) continue;
    SLUICE_ASSIGN_OR_RETURN(std::string path, DataFilePathOf(table_, entry));
    PlanDataFile(std::move(path));
  }
  return Status::OK();
}

Status SnapshotDeletion::PlanUnusedDataFiles(const Snapshot& snapshot, const UsedFiles& keep) {
  SLUICE_ASSIGN_OR_RETURN(std::vector<ManifestEntry> entries,
                          ReadManifestListEntries(table_, snapshot.delta_manifest_list));
  return PlanDeletedEntries(entries, keep, changelog_decoupled_ && !produce_changelog_);
}

Status SnapshotDeletion::PlanAddedChangelogFiles(const Snapshot& snapshot) {
  if (!snapshot.changelog_manifest_list) return Status::OK();
  SLUICE_ASSIGN_OR_RETURN(std::vector<ManifestEntry> entries,
                          ReadManifestListEntries(table_, *snapshot.changelog_manifest_list));
  return PlanAddedEntries(entries);
}

Status SnapshotDeletion::PlanManifestList(const std::string& list_name, const UsedFiles& keep) {
  const std::string list_path = ManifestFilePath(table_.path(), list_name);
  SLUICE_ASSIGN_OR_RETURN(std::vector<ManifestFileMeta> metas,
                          ReadManifestList(*table_.io(), list_path));
  for (const ManifestFileMeta& meta : metas) {
    std::string path = ManifestFilePath(table_.path(), meta.file_name);
    if (!keep.Contains(path)) metadata_files_.insert(std::move(path));
  }
  if (!keep.Contains(list_path)) metadata_files_.insert(list_path);
  return Status::OK();
}

Status SnapshotDeletion::PlanUnusedManifests(const Snapshot& snapshot, const UsedFiles& keep) {
  if (!changelog_decoupled_ || produce_changelog_) {
    SLUICE_RETURN_NOT_OK(PlanManifestList(snapshot.base_manifest_list, keep));
    SLUICE_RETURN_NOT_OK(PlanManifestList(snapshot.delta_manifest_list, keep));
  }
  if (!changelog_decoupled_ && snapshot.changelog_manifest_list) {
    SLUICE_RETURN_NOT_OK(PlanManifestList(*snapshot.changelog_manifest_list, keep));
  }
  if (snapshot.index_manifest) {
    const std::string path = ManifestFilePath(table_.path(), *snapshot.index_manifest);
    SLUICE_ASSIGN_OR_RETURN(std::vector<IndexManifestEntry> entries,
                            ReadIndexManifest(*table_.io(), path));
    for (const IndexManifestEntry& entry : entries) {
      std::string index_path;
      if (entry.external_path) {
        index_path = *entry.external_path;
      } else {
        SLUICE_ASSIGN_OR_RETURN(index_path, table_.path_factory().IndexFilePathOfSerialized(
                                                entry.partition, entry.bucket, entry.file_name));
      }
      if (!keep.Contains(index_path)) metadata_files_.insert(std::move(index_path));
    }
    if (!keep.Contains(path)) metadata_files_.insert(path);
  }
  if (snapshot.statistics) {
    std::string path = StatisticsFilePath(table_.path(), *snapshot.statistics);
    if (!keep.Contains(path)) metadata_files_.insert(std::move(path));
  }
  return Status::OK();
}

std::vector<std::string> SnapshotDeletion::PlannedFiles() const {
  std::vector<std::string> files = data_files_;
  files.insert(files.end(), metadata_files_.begin(), metadata_files_.end());
  return files;
}

Result<int64_t> SnapshotDeletion::DeletePlanned(bool clean_empty_directories) {
  FileIO& io = *table_.io();
  SLUICE_ASSIGN_OR_RETURN(int64_t deleted, DeleteFiles(io, data_files_));
  SLUICE_ASSIGN_OR_RETURN(
      int64_t metadata,
      DeleteFiles(io, std::vector<std::string>(metadata_files_.begin(), metadata_files_.end())));
  if (clean_empty_directories) {
    DeleteEmptyDirectories(io, bucket_dirs_, table_.schema().partition_keys().size());
  }
  data_files_.clear();
  metadata_files_.clear();
  bucket_dirs_.clear();
  return deleted + metadata;
}

Result<int64_t> DeleteFiles(FileIO& io, const std::vector<std::string>& paths) {
  int64_t deleted = 0;
  Status first;
  for (const std::string& path : paths) {
    Status st = io.Delete(path, /*recursive=*/false);
    if (st.ok()) {
      ++deleted;
    } else if (first.ok()) {
      first = st.WithContext("deleting " + path);
    }
  }
  if (!first.ok()) return first;
  return deleted;
}

void DeleteEmptyDirectories(FileIO& io, const std::set<std::string>& bucket_dirs, size_t levels) {
  // Deepest first, so that a partition folder is tried after the folders inside it.
  std::map<size_t, std::set<std::string>, std::greater<>> by_depth;
  for (const std::string& dir : bucket_dirs) {
    std::string path = dir;
    for (size_t level = 0; level <= levels && !path.empty(); ++level) {
      by_depth[std::count(path.begin(), path.end(), '/')].insert(path);
      path = ParentDir(path);
    }
  }
  for (const auto& [depth, dirs] : by_depth) {
    for (const std::string& dir : dirs) {
      Result<std::vector<FileStatus>> entries = io.ListDir(dir);
      // A folder that cannot be listed or is not empty stays; that is not an error.
      if (entries.ok() && entries->empty()) io.Delete(dir, /*recursive=*/false).IgnoreError();
    }
  }
}

}  // namespace sluice
