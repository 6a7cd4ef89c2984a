// CommitResult: what one commit did.
//
// Thread safety: a value type.
#pragma once

#include <cstdint>
#include <vector>

namespace sluice {

struct CommitResult {
  // The snapshots created, in order (empty when nothing was committed).
  std::vector<int64_t> snapshot_ids;
  // Attempts over all snapshots (1 per snapshot without a lost race).
  int attempts = 0;
  // The identifier was already committed by this commit user; nothing was done.
  bool skipped = false;
};

}  // namespace sluice
