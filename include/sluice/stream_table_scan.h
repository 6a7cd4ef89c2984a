// StreamTableScan: a continuous scan of a table (Java StreamTableScan, pypaimon's stream read
// builder). Made by ReadBuilder::NewStreamScan; its splits are read by a TableRead of a
// builder with ScanMode::kDelta (every row with its `_ROW_KIND`).
//
//   first Plan   by `scan.mode` (default, latest-full, full, latest, compacted-full,
//                from-timestamp, from-file-creation-time, from-snapshot, from-snapshot-full),
//                or where the consumer of option `consumer-id` stopped: the rows of a snapshot
//                in full (+I), or nothing (then the changes after a snapshot).
//   later Plans  one new snapshot each: its delta files, or its changelog for tables with a
//                `changelog-producer`. Snapshots with nothing to read (COMPACT without
//                changelog, OVERWRITE unless `streaming-read-overwrite`, on append tables
//                `streaming-read-append-overwrite`) are skipped.
//   no news      a Plan with no snapshot id: call WaitForNextSnapshot, which sleeps (inotify
//                on local tables) until a snapshot may have landed, then Plan again.
//   end          with `scan.bounded.watermark`, end_of_scan once a snapshot's watermark is
//                above it.
//
// Progress: Checkpoint() is the next snapshot id to read; Restore() resumes from one.
// NotifyCheckpointComplete(Checkpoint()) after the rows of the plans so far have been handed
// on records the progress in `consumer/consumer-<consumer-id>` (when `consumer-id` is set), so
// a restarted reader repeats at most the snapshot it was handing on. With `consumer.mode =
// at-least-once` each Plan of a new snapshot (after the first Plan) also records that snapshot,
// so a reader that never confirms still resumes at, and rereads, the snapshot it was reading.
// A reader whose next snapshot has expired gets OutOfRange naming it and `consumer-id`.
//
// Parallel readers: ReadBuilder::WithShard(index, count) gives reader `index` a share of the
// buckets (bucket % count == index; files by name hash for `bucket = -1` append tables); the
// `count` readers together see every row once, a bucket's rows in order. With `consumer-id`,
// reader `index` keeps its own position in `consumer/consumer-<id>.reader-<index>-of-<count>`
// and `consumer-<id>` holds the slowest reader's, so expiry keeps what any of them needs.
//
// Thread safety: not thread-safe (one reader thread); movable.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "sluice/result.h"
#include "sluice/split.h"

namespace sluice {

class DataTableStreamScan;

struct StreamScanPlan {
  // The snapshot planned; nullopt when there was nothing new.
  std::optional<int64_t> snapshot_id;
  std::vector<Split> splits;
  // No more plans will come (the bounded watermark was passed).
  bool end_of_scan = false;
};

class StreamTableScan {
 public:
  StreamTableScan(StreamTableScan&&) noexcept;
  StreamTableScan& operator=(StreamTableScan&&) noexcept;
  ~StreamTableScan();

  Result<StreamScanPlan> Plan();
  // true once the snapshot the next Plan reads may exist (at once if it does), false after
  // `timeout` without one.
  Result<bool> WaitForNextSnapshot(std::chrono::milliseconds timeout);

  std::optional<int64_t> Checkpoint() const;
  void Restore(std::optional<int64_t> next_snapshot_id);
  Status NotifyCheckpointComplete(std::optional<int64_t> next_snapshot) const;

 private:
  friend class ReadBuilder;
  StreamTableScan(std::string name, std::unique_ptr<DataTableStreamScan> scan);

  std::string name_;
  std::unique_ptr<DataTableStreamScan> scan_;
};

}  // namespace sluice
