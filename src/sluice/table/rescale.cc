#include "sluice/table/rescale.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sluice/base/uuid.h"
#include "sluice/table/sink/file_store_commit.h"
#include "sluice/table/sink/file_store_write.h"
#include "sluice/table/sink/merge_tree_compact_rewriter.h"
#include "sluice/table/source/scan_planner.h"
#include "sluice/table/source/split_reader.h"

namespace sluice {

namespace {

std::string DescribeSpec(const PartitionSpec& spec) {
  std::string out;
  for (const auto& [key, value] : spec) out += (out.empty() ? "" : ", ") + key + "=" + value;
  return out;
}

// The write of the rescaled rows: an overwrite, whose compactions never see the previous
// files, with `bucket` = N.
Result<std::unique_ptr<FileStoreWrite>> OpenRescaleWrite(
    const std::shared_ptr<const FileStoreTable>& rescaled) {
  FileStoreWriteOptions options;
  options.overwrite = true;
  CompactManagerFactory merge_tree;
  if (rescaled->schema().is_primary_key_table()) {
    // Lookup tables (first-row, deletion vectors, lookup changelog) hide level 0 from batch
    // reads, so the rewritten files compact as an overwrite's do.
    SLUICE_ASSIGN_OR_RETURN(merge_tree, MakeMergeTreeCompactManagerFactory(rescaled));
  }
  options.compact_manager_factory =
      [merge_tree](const std::string& partition, int32_t bucket, const std::vector<DataFileMeta>&,
                   const std::shared_ptr<DataFileWriterFactory>& files)
      -> Result<std::unique_ptr<CompactManager>> {
    if (!merge_tree) return std::unique_ptr<CompactManager>();
    return merge_tree(partition, bucket, {}, files);
  };
  return FileStoreWrite::Open(rescaled, std::move(options));
}

// The rewrite's compactions (lookup tables lift level 0 out of sight of batch reads) only
// ever replace the rewrite's own new files: their result joins the overwrite as new files, so
// the one OVERWRITE snapshot already reads right (no COMPACT snapshot after it, between which
// a reader would see the rewritten partitions empty). The replaced files were never committed.
Status FoldCompaction(const FileStoreTable& table, std::vector<CommitMessageImpl>* messages) {
  for (CommitMessageImpl& m : *messages) {
    std::set<std::string> fresh;
    for (const DataFileMeta& f : m.data.new_files) fresh.insert(f.file_name);
    bool own = true;
    for (const DataFileMeta& f : m.compact.compact_before) own = own && fresh.count(f.file_name);
    if (!own || !m.compact.changelog_files.empty() || !m.compact.new_index_files.empty() ||
        !m.compact.deleted_index_files.empty()) {
      continue;
    }
    std::set<std::string> replaced;
    for (const DataFileMeta& f : m.compact.compact_before) replaced.insert(f.file_name);
    std::set<std::string> kept;
    for (const DataFileMeta& f : m.compact.compact_after) kept.insert(f.file_name);
    SLUICE_ASSIGN_OR_RETURN(std::string bucket_path,
                            table.path_factory().BucketPathOfSerialized(m.partition, m.bucket));
    std::vector<DataFileMeta> files;
    for (DataFileMeta& f : m.data.new_files) {
      if (replaced.count(f.file_name) == 0) {
        files.push_back(std::move(f));
      } else if (kept.count(f.file_name) == 0) {
        table.io()
            ->Delete(f.external_path ? *f.external_path : bucket_path + "/" + f.file_name,
                     /*recursive=*/false)
            .IgnoreError();  // never committed: orphan-file cleanup removes it otherwise
      }
    }
    for (DataFileMeta& f : m.compact.compact_after) files.push_back(std::move(f));
    m.data.new_files = std::move(files);
    m.compact = CompactIncrement{};
  }
  return Status::OK();
}

}  // namespace

Result<RescaleResult> Rescale(const std::shared_ptr<const FileStoreTable>& table,
                              const RescaleOptions& options) {
  const std::string& path = table->path();
  if (options.bucket < 1) {
    return Status::InvalidArgument("rescale of " + path +
                                   ": the bucket count must be at least 1, got " +
                                   std::to_string(options.bucket));
  }
  const int32_t bucket_option = table->options().bucket();
  if (bucket_option < 1) {
    return Status::InvalidArgument(
        "rescale of " + path + ": the table has bucket = " + std::to_string(bucket_option) +
        "; only fixed-bucket tables (bucket > 0) are rescaled (bucket = -1 tables assign their "
        "buckets themselves)");
  }
  SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> latest,
                          table->SelectSnapshot(TableVersion::Latest()));
  if (!latest) {
    return Status::InvalidArgument("Table " + path + " has no snapshot. No need to rescale.");
  }
  ScanOptions scan;
  scan.version = TableVersion::SnapshotId(latest->id);
  scan.partition_spec = options.partition;
  SLUICE_ASSIGN_OR_RETURN(ScanPlan plan, PlanScan(*table, scan));
  if (plan.splits.empty()) {
    return Status::InvalidArgument("rescale of " + path + ": the partition {" +
                                   DescribeSpec(options.partition) +
                                   "} does not have any data files. No need to rescale.");
  }

  DynamicOptions dynamic = table->dynamic_options();
  dynamic["bucket"] = std::to_string(options.bucket);
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> rescaled, table->Reload(dynamic));
  if (rescaled->schema().id() != table->schema().id()) {
    return Status::Conflict("rescale of " + path + ": the schema changed to id " +
                            std::to_string(rescaled->schema().id()) + " while it started");
  }
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<FileStoreWrite> write, OpenRescaleWrite(rescaled));

  RescaleResult result;
  result.previous_bucket = plan.splits.front().total_buckets;
  Status status;
  for (DataSplit& split : plan.splits) {
    auto reader =
        OpenSplitReader(*table, table->schema_ptr(), std::move(split), SplitReadOptions{});
    if (!reader.ok()) {
      status = reader.status();
      break;
    }
    ColumnBatch batch((*reader)->output_type());
    while (status.ok()) {
      Result<bool> more = (*reader)->Next(&batch);
      if (!more.ok()) {
        status = more.status();
      } else if (!*more) {
        break;
      } else {
        status = write->Write(batch);
        result.rows += batch.num_rows();
      }
    }
    if (!status.ok()) break;
  }
  Result<std::vector<CommitMessageImpl>> messages =
      status.ok() ? write->PrepareCommit(Snapshot::kBatchCommitIdentifier, /*wait_compaction=*/true)
                  : Result<std::vector<CommitMessageImpl>>(status);
  if (!messages.ok()) {
    write->Close().IgnoreError();  // the first error is the one to report
    return messages.status().WithContext("rescale of " + path);
  }
  SLUICE_RETURN_NOT_OK(FoldCompaction(*rescaled, &*messages));
  SLUICE_ASSIGN_OR_RETURN(
      std::unique_ptr<FileStoreCommit> commit,
      FileStoreCommit::Make(rescaled,
                            options.commit_user.empty() ? NewUuidV4() : options.commit_user));
  ManifestCommittable committable;
  committable.messages = std::move(*messages);
  Result<CommitResult> committed = commit->Overwrite(committable, options.partition);
  // The files of a failed commit are no longer the writer's: Close leaves them to orphan cleanup.
  SLUICE_RETURN_NOT_OK(write->Close());
  if (!committed.ok()) return committed.status().WithContext("rescale of " + path);
  if (committed->snapshot_ids.empty()) {
    return Status::Internal("rescale of " + path + " committed no snapshot");
  }
  result.snapshot_id = committed->snapshot_ids.front();
  return result;
}

}  // namespace sluice
