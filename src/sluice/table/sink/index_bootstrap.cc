#include "sluice/table/sink/index_bootstrap.h"

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <vector>

#include "sluice/base/thread_pool.h"
#include "sluice/table/sink/row_key_extractor.h"
#include "sluice/table/source/scan_planner.h"
#include "sluice/table/source/split_reader.h"
#include "sluice/types/time_zone.h"

namespace sluice {

namespace {

// The keys of one bucket, concatenated.
struct BucketKeys {
  std::string bytes;
  std::vector<size_t> ends;
};

// Java filterSplit: some file of the bucket was created within the TTL.
bool WithinTtl(const DataSplit& split, int64_t ttl_millis, int64_t now_millis) {
  // Java's creationTimeEpochMillis reads the file's creation time (a wall clock) in the JVM's
  // zone: the process's here.
  const std::shared_ptr<const TimeZone> zone = TimeZone::Process();
  for (const DataFileMeta& file : split.data_files) {
    // A file without a creation time is kept: its age is unknown.
    if (!file.creation_time) return true;
    if (now_millis <= zone->UtcMillis(file.creation_time->millisecond) + ttl_millis) return true;
  }
  return false;
}

Status ReadKeys(const FileStoreTable& table, const DataSplit& split, BucketKeys* out) {
  const TableSchema& schema = table.schema();
  std::vector<int> columns;
  std::vector<DataTypePtr> types;
  for (const std::string& key : schema.primary_keys()) {
    columns.push_back(static_cast<int>(columns.size()));
    types.push_back(schema.FieldByName(key)->type);
  }
  RowProjectionEncoder encoder(std::move(columns), std::move(types));
  SplitReadOptions read;
  read.projection = schema.primary_keys();
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<SplitReader> reader,
                          OpenSplitReader(table, table.schema_ptr(), split, std::move(read)));
  ColumnBatch batch(reader->output_type());
  while (true) {
    batch.Clear();
    SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
    if (!more) break;
    for (int64_t row = 0; row < batch.num_rows(); ++row) {
      SLUICE_ASSIGN_OR_RETURN(std::string_view key, encoder.Encode(batch, row));
      out->bytes.append(key);
      out->ends.push_back(out->bytes.size());
    }
  }
  return Status::OK();
}

Status Deliver(const DataSplit& split, const BucketKeys& keys, const BootstrapKeySink& sink) {
  size_t begin = 0;
  for (size_t end : keys.ends) {
    SLUICE_RETURN_NOT_OK(sink(split.partition, split.bucket,
                              std::string_view(keys.bytes).substr(begin, end - begin)));
    begin = end;
  }
  return Status::OK();
}

}  // namespace

Status BootstrapKeys(const FileStoreTable& table, const IndexBootstrapOptions& options,
                     const BootstrapKeySink& sink) {
  ScanOptions scan;
  // Every live file, level 0 included, each bucket merged.
  scan.mode = ScanMode::kStreamFull;
  if (options.snapshot_id) scan.version = TableVersion::SnapshotId(*options.snapshot_id);
  SLUICE_ASSIGN_OR_RETURN(ScanPlan plan, PlanScan(table, scan));
  const std::optional<int64_t>& ttl = options.ttl_millis;
  std::vector<DataSplit> splits;
  for (DataSplit& split : plan.splits) {
    if (std::abs(split.bucket % options.num_assigners) != options.assign_id) continue;
    if (ttl && !WithinTtl(split, *ttl, options.now_millis)) continue;
    splits.push_back(std::move(split));
  }
  const size_t parallelism = static_cast<size_t>(
      std::clamp<int64_t>(table.options().cross_partition_upsert_bootstrap_parallelism(), 1,
                          static_cast<int64_t>(std::max<size_t>(splits.size(), 1))));
  if (parallelism == 1) {
    for (const DataSplit& split : splits) {
      BucketKeys keys;
      SLUICE_RETURN_NOT_OK(ReadKeys(table, split, &keys));
      SLUICE_RETURN_NOT_OK(Deliver(split, keys, sink));
    }
    return Status::OK();
  }
  // `parallelism` buckets at a time, read on the pool, handed over in plan order.
  ThreadPool pool(static_cast<int>(parallelism));
  for (size_t first = 0; first < splits.size(); first += parallelism) {
    const size_t count = std::min(parallelism, splits.size() - first);
    std::vector<BucketKeys> keys(count);
    std::vector<Status> results(count);
    std::mutex mutex;
    std::condition_variable done;
    size_t pending = count;
    for (size_t i = 0; i < count; ++i) {
      pool.Submit([&, i]() {
        Status st = ReadKeys(table, splits[first + i], &keys[i]);
        std::lock_guard<std::mutex> lock(mutex);
        results[i] = std::move(st);
        if (--pending == 0) done.notify_one();
      });
    }
    {
      std::unique_lock<std::mutex> lock(mutex);
      done.wait(lock, [&] { return pending == 0; });
    }
    for (size_t i = 0; i < count; ++i) {
      SLUICE_RETURN_NOT_OK(results[i]);
      SLUICE_RETURN_NOT_OK(Deliver(splits[first + i], keys[i], sink));
    }
  }
  return Status::OK();
}

}  // namespace sluice
