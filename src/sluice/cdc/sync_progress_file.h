// SyncProgressFile: how far a sync job has committed every table it writes, as one file per job
// beside its tables: `<warehouse>/<database>.db/.sluice-sync-<commit user>.json` (a file, so
// neither Java's catalog nor ours takes it for a table).
//
// Why a file of its own: each table's snapshots carry the offsets up to which that table holds
// the source's messages (TableSyncState), but a table that received nothing lately commits
// nothing, so its offsets lag; resuming from the smallest of them would re-read long stretches.
// The job stores the offsets after every round in which all tables committed; every message
// before them is in every table. A restarted job resumes there and skips, per table, what a
// table's own offsets say it already holds (a round can end between two tables' commits).
//
// Stored by an atomic replace (WriteFileAtomic), so a crash leaves the old or the new file.
//
// Thread safety: immutable; Load and Store may run from any thread, one Store at a time.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "sluice/cdc/source_offsets.h"
#include "sluice/fs/file_io.h"
#include "sluice/result.h"

namespace sluice {

class SyncProgressFile {
 public:
  SyncProgressFile(std::shared_ptr<FileIO> io, std::string database_path,
                   std::string_view commit_user);

  const std::string& path() const { return path_; }

  // nullopt when the job never completed a round. Corruption naming the file when it does not
  // parse.
  Result<std::optional<SourceOffsets>> Load() const;
  Status Store(const SourceOffsets& offsets) const;

 private:
  std::shared_ptr<FileIO> io_;
  std::string path_;
};

}  // namespace sluice
