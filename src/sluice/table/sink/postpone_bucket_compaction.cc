#include "sluice/table/sink/postpone_bucket_compaction.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "sluice/batch/column_take.h"
#include "sluice/meta/file_paths.h"
#include "sluice/table/sink/file_store_write.h"
#include "sluice/table/source/scan_planner.h"
#include "sluice/table/source/split_reader.h"

namespace sluice {

namespace {

// The bucket count the partition's real buckets have (the `_TOTAL_BUCKETS` of their files),
// else `postpone.default-bucket-num`.
Result<int32_t> BucketCountOf(const FileStoreTable& table, int64_t snapshot_id,
                              const std::string& partition) {
  ScanOptions scan;
  scan.version = TableVersion::SnapshotId(snapshot_id);
  SLUICE_ASSIGN_OR_RETURN(ScanPlan plan, PlanScan(table, scan));
  for (const DataSplit& split : plan.splits) {
    if (split.partition == partition && split.bucket >= 0 && split.total_buckets > 0) {
      return split.total_buckets;
    }
  }
  return table.options().postpone_default_bucket_num();
}

// Replays one postpone file (read raw, every record with its kind) into `write`.
Status Replay(const FileStoreTable& table, const DataSplit& postpone, size_t file,
              FileStoreWrite* write) {
  DataSplit split = postpone;
  split.data_files = {postpone.data_files[file]};
  split.data_file_paths = {postpone.data_file_paths[file]};
  split.deletion_files.clear();
  split.raw_convertible = false;
  split.is_streaming = true;
  SplitReadOptions options;
  options.with_row_kind = true;
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<SplitReader> reader,
                          OpenSplitReader(table, table.schema_ptr(), std::move(split), options));
  ColumnBatch batch(reader->output_type());
  ColumnBatch rows(table.schema().LogicalRowType());
  std::vector<RowKind> kinds;
  while (true) {
    SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
    if (!more) return Status::OK();
    const int64_t n = batch.num_rows();
    kinds.resize(static_cast<size_t>(n));
    const ColumnVector& kind_column = *batch.column(0);
    for (int64_t i = 0; i < n; ++i) {
      std::optional<RowKind> kind = RowKindFromShortString(kind_column.GetBytes(i));
      if (!kind) {
        return Status::Corruption("postpone file " + postpone.data_files[file].file_name +
                                  ": row " + std::to_string(i) + " has no row kind");
      }
      kinds[static_cast<size_t>(i)] = *kind;
    }
    rows.Clear();
    for (int c = 0; c < rows.num_columns(); ++c) AppendAll(*batch.column(c + 1), rows.column(c));
    rows.set_num_rows(n);
    SLUICE_RETURN_NOT_OK(write->Write(rows, kinds.data()));
  }
}

}  // namespace

Result<std::vector<CommitMessageImpl>> CompactPostponeBucket(
    const std::shared_ptr<const FileStoreTable>& table, const std::string& partition) {
  std::vector<CommitMessageImpl> messages;
  SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> latest,
                          table->SelectSnapshot(TableVersion::Latest()));
  if (!latest) return messages;
  ScanOptions scan;
  scan.version = TableVersion::SnapshotId(latest->id);
  scan.bucket = kPostponeBucket;
  SLUICE_ASSIGN_OR_RETURN(ScanPlan plan, PlanScan(*table, scan));
  const DataSplit* postpone = nullptr;
  for (const DataSplit& split : plan.splits) {
    if (split.partition == partition) postpone = &split;
  }
  if (postpone == nullptr || postpone->data_files.empty()) return messages;

  SLUICE_ASSIGN_OR_RETURN(const int32_t buckets, BucketCountOf(*table, latest->id, partition));
  DynamicOptions dynamic = table->dynamic_options();
  dynamic["bucket"] = std::to_string(buckets);
  SLUICE_ASSIGN_OR_RETURN(
      std::shared_ptr<FileStoreTable> real,
      FileStoreTable::Open(table->io(), table->path(), table->branch(), dynamic));
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<FileStoreWrite> write, FileStoreWrite::Open(real));

  // Java replays the files in creation order: the order they were written in.
  std::vector<size_t> order(postpone->data_files.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const auto& ta = postpone->data_files[a].creation_time;
    const auto& tb = postpone->data_files[b].creation_time;
    const int64_t ma = ta ? ta->ToEpochMicros() : 0;
    const int64_t mb = tb ? tb->ToEpochMicros() : 0;
    return ma < mb;
  });
  Status status;
  for (size_t file : order) {
    status = Replay(*table, *postpone, file, write.get());
    if (!status.ok()) break;
  }
  Result<std::vector<CommitMessageImpl>> written =
      status.ok() ? write->PrepareCommit(Snapshot::kBatchCommitIdentifier, /*wait_compaction=*/true)
                  : Result<std::vector<CommitMessageImpl>>(status);
  if (!written.ok()) {
    write->Close().IgnoreError();  // the first error is the one to report
    return written.status().WithContext("postpone compaction of " + table->path());
  }
  SLUICE_RETURN_NOT_OK(write->Close());
  // PostponeBucketCommittableRewriter (BucketFiles): the real buckets' new files are
  // compaction output; a new file a compaction of this round replaced was never committed, so
  // it leaves both sides.
  for (CommitMessageImpl& m : *written) {
    CommitMessageImpl rewritten;
    rewritten.partition = m.partition;
    rewritten.bucket = m.bucket;
    rewritten.total_buckets = m.total_buckets;
    std::set<std::string> replaced;
    std::set<std::string> fresh;
    for (const DataFileMeta& f : m.data.new_files) fresh.insert(f.file_name);
    for (DataFileMeta& f : m.compact.compact_before) {
      if (fresh.count(f.file_name) != 0) {
        replaced.insert(f.file_name);
      } else {
        rewritten.compact.compact_before.push_back(std::move(f));
      }
    }
    for (DataFileMeta& f : m.data.new_files) {
      if (replaced.count(f.file_name) == 0) rewritten.compact.compact_after.push_back(std::move(f));
    }
    for (DataFileMeta& f : m.compact.compact_after) {
      rewritten.compact.compact_after.push_back(std::move(f));
    }
    for (auto* files : {&m.data.changelog_files, &m.compact.changelog_files}) {
      for (DataFileMeta& f : *files) rewritten.compact.changelog_files.push_back(std::move(f));
    }
    for (auto* files : {&m.data.new_index_files, &m.compact.new_index_files}) {
      for (auto& f : *files) rewritten.compact.new_index_files.push_back(std::move(f));
    }
    for (auto* files : {&m.data.deleted_index_files, &m.compact.deleted_index_files}) {
      for (auto& f : *files) rewritten.compact.deleted_index_files.push_back(std::move(f));
    }
    messages.push_back(std::move(rewritten));
  }
  // RemovePostponeBucketFilesOperator: the replayed files leave the postpone bucket.
  CommitMessageImpl removed;
  removed.partition = partition;
  removed.bucket = kPostponeBucket;
  removed.total_buckets = postpone->total_buckets;
  removed.compact.compact_before = postpone->data_files;
  messages.push_back(std::move(removed));
  return messages;
}

}  // namespace sluice
