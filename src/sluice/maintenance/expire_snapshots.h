// ExpireSnapshotsImpl: expires the oldest snapshots of one branch (Java ExpireSnapshotsImpl),
// what runs after each commit and the `expire_snapshots` procedure.
//
// The range: snapshots older than the newest `retain_max` go; of the rest, those older than the
// newest `retain_min`, committed before `older_than_millis`, go, stopping at the first younger
// one; never the snapshot a consumer reads next (unless `consumer.changelog-only`), never more
// than `max_deletes` at a time. Expiring [begin, end) keeps snapshot `end` and everything it
// uses, every tag's files and every other branch's (UsedFiles).
//
// Order (crash safety): all reading and planning first; then each expired snapshot file goes,
// oldest first (after writing it to changelog/ when the changelog is decoupled), and the
// snapshot folder is synced; then the EARLIEST hint; only then the data files, changelog files
// and manifests (SnapshotDeletion). A process killed anywhere leaves snapshots [k, latest]
// whole; what the planned deletion did not reach is orphaned (RemoveOrphanFiles).
//
// Thread safety: not thread-safe; the table is only shared read-only.
#pragma once

#include <cstdint>
#include <memory>

#include "sluice/meta/expire_config.h"
#include "sluice/result.h"
#include "sluice/table/file_store_table.h"

namespace sluice {

// What an expiry removed.
struct ExpireSummary {
  int64_t expired = 0;
  int64_t files_deleted = 0;
};

class ExpireSnapshotsImpl {
 public:
  explicit ExpireSnapshotsImpl(std::shared_ptr<const FileStoreTable> table)
      : table_(std::move(table)) {}

  // Expires by `config`, with the clock at `now_millis`. InvalidArgument "retainMax (<max>) must
  // not be less than retainMin (<min>)".
  Result<ExpireSummary> Expire(const ExpireConfig& config, int64_t now_millis);

  // Expires snapshots [earliest, end_exclusive) (Java expireUntil).
  Result<ExpireSummary> ExpireUntil(const ExpireConfig& config, int64_t earliest,
                                    int64_t end_exclusive);

 private:
  std::shared_ptr<const FileStoreTable> table_;
};

// Epoch millis now (the wall clock).
int64_t CurrentTimeMillis();

}  // namespace sluice
