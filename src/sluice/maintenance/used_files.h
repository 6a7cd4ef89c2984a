// UsedFiles: the set of files (full paths) that some snapshots, tags or long-lived changelogs of
// a table need (Java OrphanFilesClean.getUsedFiles and FileDeletionBase.manifestSkippingSet):
// what expiry, rollback and orphan cleanup must not delete.
//
// Per snapshot it counts three groups, added separately so that expiry can keep the metadata of
// a snapshot without its data: data files (the live files of base + delta, with their extra
// files), metadata (the base and delta manifest lists and their manifests, the index manifest
// and its index files, the statistics file), and changelog (the changelog manifest list, its
// manifests and the changelog files they add).
//
// Thread safety: not thread-safe; the table is only read.
#pragma once

#include <string>
#include <unordered_set>
#include <vector>

#include "sluice/fs/file_io.h"
#include "sluice/meta/manifest_entry.h"
#include "sluice/meta/snapshot.h"
#include "sluice/result.h"
#include "sluice/table/file_store_table.h"

namespace sluice {

class UsedFiles {
 public:
  explicit UsedFiles(const FileStoreTable& table) : table_(table) {}

  Status AddDataFiles(const Snapshot& snapshot);
  Status AddMetadataFiles(const Snapshot& snapshot);
  Status AddChangelogFiles(const Snapshot& snapshot);
  // All three groups.
  Status AddSnapshot(const Snapshot& snapshot);
  // What long-lived changelog `changelog` still needs: of the manifest lists it names, those
  // expiry kept (ExpireSnapshotsImpl deletes some) with their manifests, and its changelog: the
  // files its changelog manifest list adds, or, without one, the files written by writes (file
  // source APPEND) its delta adds or deletes (snapshot expiry kept the deleted ones for the
  // changelog's expiry to delete). Files compactions wrote are not changelog; their snapshots'
  // expiry deletes them, as Java's does.
  Status AddLongLivedChangelog(const Snapshot& changelog);
  // Every snapshot, tag and long-lived changelog of every branch of the table other than
  // `except_branch` (all branches when it is empty): branches share data files and manifests.
  Status AddOtherBranches(const std::string& except_branch);

  // Paths are compared normalized (NormalizePath), so that `file:` and doubled slashes in a
  // table path never make a used file look unused.
  void Add(const std::string& path) { paths_.insert(NormalizePath(path)); }
  bool Contains(const std::string& path) const { return paths_.count(NormalizePath(path)) != 0; }
  const std::unordered_set<std::string>& paths() const { return paths_; }

 private:
  // Which files of a manifest list's entries count besides the list and its manifests.
  enum class AddedFiles : unsigned char { kNone, kAll, kWrittenByWrites };
  Status AddManifestList(const std::string& list_name, AddedFiles added);

  const FileStoreTable& table_;
  std::unordered_set<std::string> paths_;
};

// The entries of every manifest of manifest list `list_name` (in manifest/ of the table), in
// order, not folded.
Result<std::vector<ManifestEntry>> ReadManifestListEntries(const FileStoreTable& table,
                                                           const std::string& list_name);

// Where the data file of `entry` is (its external path, else in its bucket folder), and where
// its extra files are (beside it).
Result<std::string> DataFilePathOf(const FileStoreTable& table, const ManifestEntry& entry);
Result<std::vector<std::string>> ExtraFilePathsOf(const FileStoreTable& table,
                                                  const ManifestEntry& entry);

}  // namespace sluice
