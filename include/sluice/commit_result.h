// CommitResult: what one commit did.
//
// Thread safety: a value type.
#pragma once

#include <cstdint>
#include <vector>

#include "sluice/status.h"

namespace sluice {

struct CommitResult {
  // The snapshots created, in order (empty when nothing was committed).
  std::vector<int64_t> snapshot_ids;
  // Attempts over all snapshots (1 per snapshot without a lost race).
  int attempts = 0;
  // The identifier was already committed by this commit user; nothing was done.
  bool skipped = false;
  // Not OK when the compaction increments were dropped after the data increments landed: why
  // the COMPACT snapshot was not made (a Conflict when a concurrent commit deleted or compacted
  // the same files). The commit still succeeded: its data is committed, and the compaction is
  // work a later compaction redoes.
  Status compaction_dropped;
  // Files of a compaction that certainly did not land, deleted (its outputs, changelog and
  // index files; never a file it upgraded in place).
  int64_t compaction_files_deleted = 0;
  // Not OK when the maintenance after the commit (snapshot, changelog or partition expiry)
  // failed; the commit itself succeeded. With `snapshot.expire.execution-mode = async` it is
  // the failure of the previous commit's run.
  Status maintenance_failed;
};

}  // namespace sluice
