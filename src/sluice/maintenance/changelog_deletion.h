// ChangelogDeletion: which files the expiry of long-lived changelogs frees (Java
// ChangelogDeletion). A changelog with a changelog manifest list frees the changelog files it
// adds and that list; one without (no changelog producer: its changelog is its delta's files)
// frees the files its delta deleted, which snapshot expiry kept for it, and the base and delta
// lists snapshot expiry kept. Index files and statistics went with the snapshot.
//
// Thread safety: not thread-safe.
#pragma once

#include "sluice/maintenance/snapshot_deletion.h"

namespace sluice {

class ChangelogDeletion : public SnapshotDeletion {
 public:
  explicit ChangelogDeletion(const FileStoreTable& table)
      : SnapshotDeletion(table, /*changelog_decoupled=*/true) {}

  Status PlanChangelogDataFiles(const Snapshot& changelog, const UsedFiles& keep);
  Status PlanChangelogManifests(const Snapshot& changelog, const UsedFiles& keep);

 private:
  Result<bool> ListExists(const std::string& list_name) const;
};

}  // namespace sluice
