#include "sluice/write_builder.h"

#include <algorithm>

#include "sluice/api/api_access.h"
#include "sluice/api/metrics_access.h"
#include "sluice/base/uuid.h"
#include "sluice/maintenance/commit_maintenance.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/sink/file_store_commit.h"
#include "sluice/table/sink/file_store_write.h"
#include "sluice/table/sink/merge_tree_compact_rewriter.h"

namespace sluice {

WriteBuilder::WriteBuilder(Table table) : table_(std::move(table)), commit_user_(NewUuidV4()) {}

WriteBuilder& WriteBuilder::WithCommitUser(std::string commit_user) {
  commit_user_ = std::move(commit_user);
  return *this;
}

WriteBuilder& WriteBuilder::WithOverwrite(PartitionSpec static_partition) {
  overwrite_ = std::optional<PartitionSpec>(std::move(static_partition));
  return *this;
}

WriteBuilder& WriteBuilder::WithDynamicOverwrite() {
  overwrite_ = std::optional<PartitionSpec>();
  return *this;
}

WriteBuilder& WriteBuilder::WithOption(std::string key, std::string value) {
  options_[std::move(key)] = std::move(value);
  return *this;
}

WriteBuilder& WriteBuilder::WithBackgroundCompaction(bool background) {
  background_compaction_ = background;
  return *this;
}

WriteBuilder& WriteBuilder::WithDynamicBucketWriter(int32_t id, int32_t writers) {
  dynamic_bucket_writer_ = std::pair{id, writers};
  return *this;
}

WriteBuilder& WriteBuilder::WithMetricRegistry(MetricRegistry* registry) {
  metrics_ = registry;
  return *this;
}

Result<std::shared_ptr<FileStoreTable>> WriteBuilder::LoadTable() const {
  // The latest schema: columns may have changed since the Table was opened.
  auto table = ApiAccess::FileStoreTableOf(table_)->Reload(options_);
  if (!table.ok()) return table.status().WithContext("table " + table_.name());
  SLUICE_RETURN_NOT_OK(CheckOverwriteSpec(**table));
  return table;
}

Status WriteBuilder::CheckOverwriteSpec(const FileStoreTable& table) const {
  if (!overwrite_ || !overwrite_->has_value()) return Status::OK();
  const std::vector<std::string>& keys = table.schema().partition_keys();
  for (const auto& [key, value] : **overwrite_) {
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      std::string list;
      for (const std::string& k : keys) list += (list.empty() ? "" : ", ") + k;
      return Status::InvalidArgument("overwrite partition spec of table " + table_.name() +
                                     " names '" + key + "', which is not a partition key (" +
                                     (list.empty() ? "the table is not partitioned" : list) + ")");
    }
  }
  return Status::OK();
}

Result<std::unique_ptr<TableWrite>> WriteBuilder::NewWrite() const {
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> table, LoadTable());
  FileStoreWriteOptions options;
  options.commit_user = commit_user_;
  options.overwrite = overwrite_.has_value();
  options.metric_registry = MetricsAccess::ImplOf(metrics_);
  if (dynamic_bucket_writer_) {
    if (table->options().bucket() != -1 || !table->schema().is_primary_key_table()) {
      return Status::InvalidArgument(
          "table " + table_.name() + " has bucket = " + std::to_string(table->options().bucket()) +
          ": several writers at once (writer " + std::to_string(dynamic_bucket_writer_->first) +
          " of " + std::to_string(dynamic_bucket_writer_->second) +
          ") are for dynamic-bucket primary-key tables (bucket = -1)");
    }
    options.dynamic_bucket_assign_id = dynamic_bucket_writer_->first;
    options.dynamic_bucket_writers = dynamic_bucket_writer_->second;
    options.dynamic_bucket_skip_others = true;
  }
  if (overwrite_) {
    // An overwrite replaces the previous files, so its compactions never see them (Java ignores
    // the previous files of an overwrite); its own new files still compact as any write's do,
    // which lifts them out of level 0 on lookup tables (first-row, deletion vectors, lookup
    // changelog), whose batch reads skip level 0.
    CompactManagerFactory merge_tree;
    if (table->schema().is_primary_key_table()) {
      SLUICE_ASSIGN_OR_RETURN(merge_tree,
                              MakeMergeTreeCompactManagerFactory(table, background_compaction_));
    }
    options.compact_manager_factory =
        [merge_tree](const std::string& partition, int32_t bucket, const std::vector<DataFileMeta>&,
                     const std::shared_ptr<DataFileWriterFactory>& files)
        -> Result<std::unique_ptr<CompactManager>> {
      if (!merge_tree) return std::unique_ptr<CompactManager>();
      return merge_tree(partition, bucket, {}, files);
    };
  } else if (table->schema().is_primary_key_table()) {
    SLUICE_ASSIGN_OR_RETURN(options.compact_manager_factory,
                            MakeMergeTreeCompactManagerFactory(table, background_compaction_));
  }
  auto write = FileStoreWrite::Open(table, std::move(options));
  if (!write.ok()) return write.status().WithContext("table " + table_.name());
  return std::unique_ptr<TableWrite>(new TableWrite(std::move(table), std::move(*write)));
}

Result<std::unique_ptr<TableCommit>> WriteBuilder::NewCommit() const {
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> table, LoadTable());
  auto commit = FileStoreCommit::Make(table, commit_user_);
  if (!commit.ok()) return commit.status().WithContext("table " + table_.name());
  (*commit)->WithMetricRegistry(MetricsAccess::ImplOf(metrics_));
  auto maintenance = CommitMaintenance::Make(std::move(table), commit_user_);
  if (!maintenance.ok()) return maintenance.status().WithContext("table " + table_.name());
  (*maintenance)->WithMetricRegistry(MetricsAccess::ImplOf(metrics_));
  return std::unique_ptr<TableCommit>(
      new TableCommit(std::move(*commit), std::move(*maintenance), overwrite_));
}

}  // namespace sluice
