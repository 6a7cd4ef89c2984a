// DataTableStreamScan: a continuous scan of a table (Java DataTableStreamScan). The first Plan
// is the starting scanner's (starting_scanner.h: by `scan.mode`, or the consumer's progress);
// each later Plan covers exactly one new snapshot the follow-up scanner reads
// (follow_up_scanner.h), skipping the snapshots it does not read (COMPACT snapshots of a table
// without changelog producer, OVERWRITE ones unless `streaming-read-overwrite`, on append tables
// `streaming-read-append-overwrite`, ...). A Plan
// with no snapshot means there is nothing new yet: WaitForNextSnapshot sleeps until there may
// be (an inotify watch of the snapshot directory on local tables, polling otherwise).
//
// Position: Checkpoint() is the id of the next snapshot to read (nullopt before the first
// plan), Restore() continues from one. With `consumer-id`, the reader starts where its
// consumer stopped (consumer_progress.h: one file per reader for shards), and
// NotifyCheckpointComplete(next) records `next`: call it once the rows of every plan before
// `next` have been handed on, so a restarted reader repeats at most the snapshot it was
// handing on. Under `consumer.mode = at-least-once` each plan of a new snapshot after the
// first plan also records that snapshot as the position, confirmed or not.
//
// Bounded reads: with `scan.bounded.watermark`, the scan ends (end_of_scan) at the first
// snapshot whose watermark is above it (Java BoundedChecker).
//
// A reader whose next snapshot has expired gets OutOfRange naming the snapshot, the earliest
// one and `consumer-id` (with a consumer, expiry keeps what it has not read).
//
// Shards (Java withShard, Flink's parallel source): reader `index` of `count` takes the
// buckets with bucket % count == index; of a bucket-unaware append table (`bucket` = -1), the
// files whose name's Java hash code, modulo count, is index. The shards of one table see every
// row once; a bucket's rows stay in order within its shard.
//
// Thread safety: not thread-safe; one reader thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "sluice/fs/directory_watcher.h"
#include "sluice/result.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/source/consumer_progress.h"
#include "sluice/table/source/follow_up_scanner.h"
#include "sluice/table/source/scan_planner.h"
#include "sluice/table/source/starting_scanner.h"
#include "sluice/table/source/stream_shard.h"

namespace sluice {

struct StreamPlan {
  // The snapshot planned; nullopt when there is no new snapshot yet.
  std::optional<int64_t> snapshot_id;
  std::vector<DataSplit> splits;
  // The bounded watermark was passed: there will be no more plans.
  bool end_of_scan = false;
};

class DataTableStreamScan {
 public:
  // `base` restricts every plan (partition, bucket, filter, path remap, threads); its version
  // and mode are set per plan. InvalidArgument for a bad shard or startup option.
  static Result<std::unique_ptr<DataTableStreamScan>> Create(
      std::shared_ptr<const FileStoreTable> table, ScanOptions base, StreamShard shard = {});

  Result<StreamPlan> Plan();
  // Blocks until the snapshot the next Plan reads may exist (true) or `timeout` passes
  // (false). Returns true at once when it exists already.
  Result<bool> WaitForNextSnapshot(std::chrono::milliseconds timeout);

  std::optional<int64_t> Checkpoint() const { return next_snapshot_id_; }
  void Restore(std::optional<int64_t> next_snapshot_id) { next_snapshot_id_ = next_snapshot_id; }
  Status NotifyCheckpointComplete(std::optional<int64_t> next_snapshot) const;

 private:
  DataTableStreamScan(std::shared_ptr<const FileStoreTable> table, ScanOptions base,
                      StreamShard shard, bool read_overwrite,
                      std::optional<ConsumerProgress> consumer,
                      std::unique_ptr<StartingScanner> starting,
                      std::unique_ptr<FollowUpScanner> follow_up,
                      std::unique_ptr<DirectoryWatcher> watcher);

  Result<StreamPlan> TryFirstPlan();
  Result<StreamPlan> NextPlan();
  // The next snapshot, nullopt when it does not exist yet; OutOfRange when it expired.
  Result<std::optional<Snapshot>> NextSnapshot();
  bool ShouldEndInput(const Snapshot& snapshot) const;
  StreamPlan Shard(ScanPlan plan) const;

  std::shared_ptr<const FileStoreTable> table_;
  ScanOptions base_;
  StreamShard shard_;
  bool read_overwrite_;                       // follow OVERWRITE snapshots
  std::optional<ConsumerProgress> consumer_;  // with `consumer-id`
  std::unique_ptr<StartingScanner> starting_;
  std::unique_ptr<FollowUpScanner> follow_up_;
  std::unique_ptr<DirectoryWatcher> watcher_;
  std::optional<int64_t> next_snapshot_id_;
  bool full_phase_end_ = false;
  int64_t misses_ = 0;
};

}  // namespace sluice
