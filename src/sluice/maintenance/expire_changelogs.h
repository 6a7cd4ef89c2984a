// ExpireChangelogImpl: expires the long-lived changelogs of one branch (Java
// ExpireChangelogImpl), after snapshot expiry at commit when the changelog is decoupled, and
// the `expire_changelogs` procedure.
//
// The range follows ExpireSnapshotsImpl's rules with the changelog options, counted from the
// latest snapshot: changelogs older than the newest `changelog.num-retained.max` snapshots go;
// of the rest, those older than the newest `...min`, committed before `older_than_millis`,
// stopping at the first younger one; never what a consumer reads next; at most `max_deletes`;
// and, as Java, never the latest long-lived changelog. Files a tag or the earliest snapshot
// needs stay (ChangelogDeletion).
//
// Order (crash safety): plan, then the changelog files oldest first, the folder synced, the
// EARLIEST hint, then the files.
//
// Thread safety: not thread-safe.
#pragma once

#include <cstdint>
#include <memory>

#include "sluice/maintenance/expire_snapshots.h"
#include "sluice/meta/expire_config.h"
#include "sluice/result.h"
#include "sluice/table/file_store_table.h"

namespace sluice {

class ExpireChangelogImpl {
 public:
  explicit ExpireChangelogImpl(std::shared_ptr<const FileStoreTable> table)
      : table_(std::move(table)) {}

  // InvalidArgument "retainMax (<max>) must not be less than retainMin (<min>)".
  Result<ExpireSummary> Expire(const ExpireConfig& config, int64_t now_millis);
  // Every long-lived changelog (Java expireAll, expire_changelogs delete_all => true).
  // InvalidArgument when a changelog is not older than the earliest snapshot.
  Result<ExpireSummary> ExpireAll(const ExpireConfig& config);

 private:
  // Expires changelogs [earliest, end_exclusive), keeping what `end_changelog` (if any) and the
  // earliest snapshot need.
  Result<ExpireSummary> ExpireUntil(const ExpireConfig& config, int64_t earliest,
                                    int64_t end_exclusive, bool delete_hints);

  std::shared_ptr<const FileStoreTable> table_;
};

}  // namespace sluice
