// ConsumerProgress: where the streaming readers of one `consumer-id` stand, kept in Java's
// consumer files (meta/consumer_manager.h) so that expiry keeps what they have not read and a
// restarted reader continues.
//
// One reader (shard count 1) records its next snapshot in `consumer/consumer-<id>`. Parallel
// readers (shards, possibly in separate processes) read at different rates and share no
// coordinator (Java's ConsumerProgressCalculator runs in Flink's split enumerator): reader
// `i` of `n` keeps its own position in `consumer/consumer-<id>.reader-<i>-of-<n>` and resumes
// from it, and every record also rewrites `consumer-<id>` as the smallest position of the `n`
// readers, the snapshot every one of them still needs. A reader that has not recorded yet is
// taken at `consumer-<id>`'s value (where it will start); while none is known, `consumer-<id>`
// is left as it is. Two readers recording at once may leave `consumer-<id>` at an older
// reader's position: too small, never too large, so expiry stays safe and the next record
// mends it. The reader files are consumers to Java too (its expiry keeps their snapshots and
// `consumer.expiration-time` drops them when idle).
//
// `consumer.mode` (Java ConsumerMode) decides what a position means:
//   exactly-once   the snapshot after the last one whose rows were all handed on: recorded only
//                  by the caller's NotifyCheckpointComplete.
//   at-least-once  the snapshot being read: every plan of a new snapshot records it, so a
//                  restarted reader reads that snapshot again even if the caller never
//                  confirmed anything.
//
// Thread safety: immutable; records are atomic file replacements.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "sluice/meta/consumer_manager.h"
#include "sluice/result.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/source/stream_shard.h"

namespace sluice {

class ConsumerProgress {
 public:
  ConsumerProgress(const FileStoreTable& table, std::string consumer_id, StreamShard shard);

  // The snapshot this reader resumes at; nullopt when nothing was recorded for it.
  Result<std::optional<int64_t>> Load() const;
  // Records that this reader's next snapshot is `next` (and, for shards, the readers' smallest).
  Status Record(int64_t next) const;

  // The file id of reader `index` of `count`.
  static std::string ReaderId(const std::string& consumer_id, StreamShard shard);

 private:
  ConsumerManager consumers_;
  std::string consumer_id_;
  StreamShard shard_;
};

}  // namespace sluice
