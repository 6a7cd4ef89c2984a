// TableSyncState: what a sync job committed to one table before it (re)started: the last commit
// identifier of the job's commit user, so that its next commits are not taken for replays
// (FileStoreCommit skips identifiers it has seen), and the source offsets its last commit
// carried (SourceOffsets::kSnapshotProperty), so that messages already applied are skipped.
//
// Thread safety: a value type; LoadTableSyncState reads the table's snapshots.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "sluice/cdc/source_offsets.h"
#include "sluice/result.h"
#include "sluice/table/file_store_table.h"

namespace sluice {

struct TableSyncState {
  std::optional<int64_t> last_identifier;
  // Empty when the user's snapshots carry none (never committed, or expired).
  SourceOffsets offsets;
};

// Walks the table's snapshots newest first to the newest one of `commit_user` (and, for the
// offsets, to the newest of that user carrying them). Errors name the table and snapshot.
Result<TableSyncState> LoadTableSyncState(const FileStoreTable& table,
                                          const std::string& commit_user);

}  // namespace sluice
