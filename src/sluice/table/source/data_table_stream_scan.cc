#include "sluice/table/source/data_table_stream_scan.h"

#include <cstdlib>

#include "sluice/base/java_string_hash.h"
#include "sluice/meta/option_value.h"

namespace sluice {

namespace {

// How many misses of the next snapshot pass between checks that the reader is not waiting for
// a snapshot that can never come (Java NextSnapshotFetcher.RANGE_CHECK_INTERVAL); the cheap
// expiry check runs on every miss.
constexpr int64_t kRangeCheckInterval = 16;

StreamPlan EndOfScan() {
  StreamPlan end;
  end.end_of_scan = true;
  return end;
}

}  // namespace

Result<std::unique_ptr<DataTableStreamScan>> DataTableStreamScan::Create(
    std::shared_ptr<const FileStoreTable> table, ScanOptions base, StreamShard shard) {
  if (shard.count < 1 || shard.index < 0 || shard.index >= shard.count) {
    return Status::InvalidArgument("reader index " + std::to_string(shard.index) + " of " +
                                   std::to_string(shard.count) +
                                   " readers: expected 0 <= index < count");
  }
  if (!table->schema().is_primary_key_table() && table->options().streaming_read_overwrite()) {
    // Java SchemaValidation.
    return Status::InvalidArgument(
        "option 'streaming-read-overwrite' needs primary keys: use "
        "'streaming-read-append-overwrite' to read the overwrites of an append table");
  }
  // Append tables follow overwrites under their own option (CoreOptions does not type it).
  bool read_overwrite = table->options().streaming_read_overwrite();
  if (!table->schema().is_primary_key_table()) {
    const std::string* append = table->options().Find("streaming-read-append-overwrite");
    read_overwrite = false;
    if (append != nullptr) {
      SLUICE_ASSIGN_OR_RETURN(read_overwrite,
                              ParseBooleanOption("streaming-read-append-overwrite", *append));
    }
  }
  const CoreOptions& options = table->options();
  std::optional<ConsumerProgress> consumer;
  std::optional<int64_t> resume_at;
  if (options.consumer_id()) {
    consumer.emplace(*table, *options.consumer_id(), shard);
    if (!options.consumer_ignore_progress()) {
      SLUICE_ASSIGN_OR_RETURN(resume_at, consumer->Load());
    }
  }
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<StartingScanner> starting,
                          CreateStartingScanner(*table, resume_at));
  // Watching from now on: a snapshot committed between a check and a wait is not missed.
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<DirectoryWatcher> watcher,
                          table->io()->WatchDir(table->snapshot_manager().snapshot_dir()));
  std::unique_ptr<FollowUpScanner> follow_up = CreateFollowUpScanner(*table);
  return std::unique_ptr<DataTableStreamScan>(new DataTableStreamScan(
      std::move(table), std::move(base), shard, read_overwrite, std::move(consumer),
      std::move(starting), std::move(follow_up), std::move(watcher)));
}

DataTableStreamScan::DataTableStreamScan(std::shared_ptr<const FileStoreTable> table,
                                         ScanOptions base, StreamShard shard, bool read_overwrite,
                                         std::optional<ConsumerProgress> consumer,
                                         std::unique_ptr<StartingScanner> starting,
                                         std::unique_ptr<FollowUpScanner> follow_up,
                                         std::unique_ptr<DirectoryWatcher> watcher)
    : table_(std::move(table)),
      base_(std::move(base)),
      shard_(shard),
      read_overwrite_(read_overwrite),
      consumer_(std::move(consumer)),
      starting_(std::move(starting)),
      follow_up_(std::move(follow_up)),
      watcher_(std::move(watcher)) {}

Result<StreamPlan> DataTableStreamScan::Plan() {
  if (!next_snapshot_id_) return TryFirstPlan();
  return NextPlan();
}

Result<StreamPlan> DataTableStreamScan::TryFirstPlan() {
  const CoreOptions& options = table_->options();
  ScanOptions first = base_;
  // Files a compaction has yet to turn into changelog would be read twice: in full now, and
  // as changelog later (Java DataTableStreamScan.tryFirstPlan).
  if (options.changelog_producer() == ChangelogProducer::kLookup) {
    first.level_filter = [](int32_t level) { return level > 0; };
  } else if (options.changelog_producer() == ChangelogProducer::kFullCompaction) {
    const int32_t top = options.num_levels() - 1;
    first.level_filter = [top](int32_t level) { return level == top; };
  }
  SLUICE_ASSIGN_OR_RETURN(StartingScanResult result, starting_->Scan(first));
  const SnapshotManager& snapshots = table_->snapshot_manager();
  switch (result.kind) {
    case StartingScanResult::Kind::kScanned: {
      const int64_t id = *result.plan.snapshot_id;
      next_snapshot_id_ = id + 1;
      SLUICE_ASSIGN_OR_RETURN(Snapshot snapshot, snapshots.LoadSnapshot(id));
      full_phase_end_ = ShouldEndInput(snapshot);
      return Shard(std::move(result.plan));
    }
    case StartingScanResult::Kind::kNextSnapshot: {
      next_snapshot_id_ = result.next_snapshot_id;
      const int64_t previous = result.next_snapshot_id - 1;
      SLUICE_ASSIGN_OR_RETURN(bool exists, snapshots.SnapshotExists(previous));
      if (exists) {
        SLUICE_ASSIGN_OR_RETURN(Snapshot snapshot, snapshots.LoadSnapshot(previous));
        full_phase_end_ = ShouldEndInput(snapshot);
      }
      return StreamPlan{};
    }
    case StartingScanResult::Kind::kNoSnapshot:
      return StreamPlan{};
  }
  return Status::Internal("unknown starting scan result");
}

Result<StreamPlan> DataTableStreamScan::NextPlan() {
  while (true) {
    if (full_phase_end_) return EndOfScan();
    SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> snapshot, NextSnapshot());
    if (!snapshot) return StreamPlan{};
    if (ShouldEndInput(*snapshot)) {
      full_phase_end_ = true;
      return EndOfScan();
    }
    std::optional<ScanPlan> plan;
    if (snapshot->commit_kind == CommitKind::kOverwrite && read_overwrite_) {
      SLUICE_ASSIGN_OR_RETURN(plan, follow_up_->OverwriteChangesPlan(*table_, *snapshot, base_));
    } else if (follow_up_->ShouldScanSnapshot(*snapshot)) {
      SLUICE_ASSIGN_OR_RETURN(plan, follow_up_->Scan(*table_, *snapshot, base_));
    }
    ++*next_snapshot_id_;
    if (!plan) continue;
    StreamPlan sharded = Shard(std::move(*plan));
    if (sharded.splits.empty()) continue;
    if (consumer_ && table_->options().consumer_mode() == ConsumerMode::kAtLeastOnce) {
      SLUICE_RETURN_NOT_OK(consumer_->Record(snapshot->id));
    }
    return sharded;
  }
}

Result<std::optional<Snapshot>> DataTableStreamScan::NextSnapshot() {
  const SnapshotManager& snapshots = table_->snapshot_manager();
  const int64_t next = *next_snapshot_id_;
  Result<Snapshot> snapshot = snapshots.LoadSnapshot(next);
  if (snapshot.ok()) {
    misses_ = 0;
    return std::optional<Snapshot>(std::move(*snapshot));
  }
  if (!snapshot.status().IsNotFound()) return snapshot.status();
  ++misses_;
  SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> earliest, snapshots.EarliestSnapshotId());
  if (earliest && *earliest > next) {
    const std::optional<std::string>& consumer = table_->options().consumer_id();
    return Status::OutOfRange(
        "snapshot " + std::to_string(next) + " of table " + table_->path() +
        " has expired (the earliest snapshot is " + std::to_string(*earliest) +
        "): the reader fell behind. " +
        (consumer ? "Consumer '" + *consumer +
                        "' did not keep it: expiry that respects option 'consumer-id' keeps "
                        "every snapshot a consumer has not read."
                  : std::string("Read with option 'consumer-id' so that expiry keeps the "
                                "snapshots the reader has not read, or expire snapshots later.")));
  }
  if (misses_ % kRangeCheckInterval == 0) {
    SLUICE_ASSIGN_OR_RETURN(std::vector<int64_t> ids, snapshots.ListSnapshotIds());
    const bool too_big = ids.empty() ? next > Snapshot::kFirstSnapshotId : next > ids.back() + 1;
    if (too_big) {
      return Status::OutOfRange("the next snapshot " + std::to_string(next) + " of table " +
                                table_->path() + " is past the latest one (" +
                                (ids.empty() ? "none" : std::to_string(ids.back())) +
                                "): was the table recreated?");
    }
  }
  return std::optional<Snapshot>();
}

bool DataTableStreamScan::ShouldEndInput(const Snapshot& snapshot) const {
  const std::optional<int64_t>& bound = table_->options().scan_bounded_watermark();
  return bound && snapshot.watermark && *snapshot.watermark > *bound;
}

StreamPlan DataTableStreamScan::Shard(ScanPlan plan) const {
  StreamPlan out;
  out.snapshot_id = plan.snapshot_id;
  if (shard_.count == 1) {
    out.splits = std::move(plan.splits);
    return out;
  }
  const bool by_file = !table_->schema().is_primary_key_table() && table_->options().bucket() == -1;
  for (DataSplit& split : plan.splits) {
    if (!by_file) {
      if (split.bucket % shard_.count == shard_.index) out.splits.push_back(std::move(split));
      continue;
    }
    DataSplit kept = split;
    kept.data_files.clear();
    kept.data_file_paths.clear();
    kept.deletion_files.clear();
    for (size_t i = 0; i < split.data_files.size(); ++i) {
      const int32_t hash = JavaStringHash(split.data_files[i].file_name);
      if (std::abs(hash % shard_.count) != shard_.index) continue;
      kept.data_files.push_back(std::move(split.data_files[i]));
      kept.data_file_paths.push_back(std::move(split.data_file_paths[i]));
      if (i < split.deletion_files.size()) kept.deletion_files.push_back(split.deletion_files[i]);
    }
    if (!kept.data_files.empty()) out.splits.push_back(std::move(kept));
  }
  return out;
}

Result<bool> DataTableStreamScan::WaitForNextSnapshot(std::chrono::milliseconds timeout) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point deadline = Clock::now() + timeout;
  const SnapshotManager& snapshots = table_->snapshot_manager();
  while (true) {
    bool ready = false;
    if (next_snapshot_id_) {
      SLUICE_ASSIGN_OR_RETURN(ready, snapshots.SnapshotExists(*next_snapshot_id_));
    } else {
      SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> latest, snapshots.LatestSnapshotId());
      ready = latest.has_value();
    }
    if (ready || full_phase_end_) return true;
    const Clock::time_point now = Clock::now();
    if (now >= deadline) return false;
    SLUICE_ASSIGN_OR_RETURN(
        bool changed,
        watcher_->Wait(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now)));
    if (!changed) return false;
  }
}

Status DataTableStreamScan::NotifyCheckpointComplete(std::optional<int64_t> next_snapshot) const {
  if (!next_snapshot || !consumer_) return Status::OK();
  return consumer_->Record(*next_snapshot);
}

}  // namespace sluice
