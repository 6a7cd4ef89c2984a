// SnapshotDeletion: which files the expiry of some snapshots frees, and their deletion (Java
// SnapshotDeletion / FileDeletionBase). It plans first and deletes later, so that the caller can
// remove the snapshot files that refer to the files before the files themselves: a crash in
// between leaves orphans, never a snapshot that misses a file.
//
//   data files  a file a snapshot's delta deletes (and does not add again) is used by no later
//               snapshot; it goes unless `keep` holds it (a tag, another branch). With the
//               changelog decoupled and no changelog producer, files written by writes (file
//               source APPEND or unknown) are the changelog and stay for ChangelogDeletion.
//   changelog   the files a snapshot's changelog manifest list adds (not when decoupled).
//   manifests   the manifest lists, manifests, index manifest, index files and statistics of an
//               expired snapshot that `keep` does not hold; with the changelog decoupled the
//               changelog manifest list stays, and without a changelog producer the base and
//               delta lists too (a long-lived changelog reads its delta through them).
//
// Thread safety: not thread-safe.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "sluice/maintenance/used_files.h"
#include "sluice/meta/snapshot.h"
#include "sluice/result.h"
#include "sluice/table/file_store_table.h"

namespace sluice {

class SnapshotDeletion {
 public:
  SnapshotDeletion(const FileStoreTable& table, bool changelog_decoupled);

  Status PlanUnusedDataFiles(const Snapshot& snapshot, const UsedFiles& keep);
  Status PlanAddedChangelogFiles(const Snapshot& snapshot);
  Status PlanUnusedManifests(const Snapshot& snapshot, const UsedFiles& keep);

  // The files planned so far, data files first.
  std::vector<std::string> PlannedFiles() const;

  // Deletes the planned data and changelog files, then the planned metadata, then (with
  // `clean_empty_directories`) the bucket and partition folders left empty; returns how many
  // files it deleted. A file already gone counts as deleted (another expiry got there first).
  Result<int64_t> DeletePlanned(bool clean_empty_directories);

 protected:
  // The data files of `entries` (a delta, in order) that end deleted, with their extra files.
  Status PlanDeletedEntries(const std::vector<ManifestEntry>& entries, const UsedFiles& keep,
                            bool skip_append_files);
  Status PlanAddedEntries(const std::vector<ManifestEntry>& entries);
  // The list and its manifests, those `keep` does not hold.
  Status PlanManifestList(const std::string& list_name, const UsedFiles& keep);
  void PlanDataFile(std::string path);

  const FileStoreTable& table_;
  bool changelog_decoupled_;
  bool produce_changelog_;
  std::vector<std::string> data_files_;
  std::set<std::string> metadata_files_;
  // Bucket folders that lost a file: candidates for clean_empty_directories.
  std::set<std::string> bucket_dirs_;
};

// Deletes `paths` (missing ones count); returns how many. The first failure is returned after
// trying the rest.
Result<int64_t> DeleteFiles(FileIO& io, const std::vector<std::string>& paths);

// Removes `bucket_dirs` when empty, then their partition folders (up to `levels` above each)
// when empty, deepest first (Java FileDeletionBase.cleanEmptyDirectories).
void DeleteEmptyDirectories(FileIO& io, const std::set<std::string>& bucket_dirs, size_t levels);

}  // namespace sluice
