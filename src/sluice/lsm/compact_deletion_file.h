// CompactDeletionFile: the deletion-vector index file a compaction of a deletion-vector bucket
// wrote (Java compact.CompactDeletionFile, generated mode): the bucket's new index file, the
// live one it replaces, and how to delete the new one should a later compaction replace it
// before any commit took it (Java GeneratedDeletionFile.mergeOldFile / clean).
//
// Thread safety: a value type; `clean` may run on any thread once.
#pragma once

#include <functional>
#include <optional>

#include "sluice/meta/index_manifest_entry.h"

namespace sluice {

struct CompactDeletionFile {
  // Absent when the bucket has no deletion vector left.
  std::optional<IndexManifestEntry> new_file;
  // The bucket's index file before this compaction, if it had one.
  std::optional<IndexManifestEntry> deleted_file;
  // Deletes new_file.
  std::function<void()> clean;

  // This file after `older` (both uncommitted, this one newer): replaces older's file, which is
  // deleted, and takes over the file older replaced.
  void MergeOlder(CompactDeletionFile older) {
    if (older.clean) older.clean();
    deleted_file = std::move(older.deleted_file);
  }
};

}  // namespace sluice
