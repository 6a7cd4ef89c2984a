// RollbackHelper: makes an older snapshot the latest one of a branch (Java RollbackHelper, as
// the rollback_to / rollback_to_timestamp procedures and Table.rollbackTo use it).
//
// Rolling back to snapshot R deletes every snapshot after R, every tag of a snapshot after R and
// every long-lived changelog after R, then the files only they used: data, changelog and index
// files, manifests and statistics that neither R, an older snapshot, a kept tag or changelog,
// nor another branch needs. Java leaves those files to orphan cleanup; Sluice deletes them at
// once. When R survives only as a tag (its snapshot expired), its snapshot file is written back
// from the tag first, and the EARLIEST hint points to it.
//
// Order (crash safety): the LATEST hint, then the snapshot files newest first (so that what is
// left is always a prefix of the history ending in a committed snapshot), the tag files and the
// changelog files, the folders synced; only then the files. A process killed anywhere leaves a
// table that reads as one committed snapshot; a second run finishes the rollback.
//
// Thread safety: not thread-safe; do not commit to the branch while it runs.
#pragma once

#include <cstdint>
#include <memory>

#include "sluice/result.h"
#include "sluice/table/file_store_table.h"

namespace sluice {

class RollbackHelper {
 public:
  explicit RollbackHelper(std::shared_ptr<const FileStoreTable> table) : table_(std::move(table)) {}

  // NotFound "snapshot <id> does not exist" (naming the table) when neither the snapshot nor a
  // tag of it exists. Returns how many files were deleted.
  Result<int64_t> RollbackTo(int64_t snapshot_id);
  // NotFound naming the tag.
  Result<int64_t> RollbackToTag(const std::string& tag);
  // The latest snapshot committed at or before `time_millis`; NotFound naming the time when
  // there is none. Returns its id.
  Result<int64_t> RollbackToTimestamp(int64_t time_millis);

 private:
  // Rolls back to `retained`, a snapshot of the branch or a tag's.
  Result<int64_t> CleanLargerThan(const Snapshot& retained);

  std::shared_ptr<const FileStoreTable> table_;
};

}  // namespace sluice
