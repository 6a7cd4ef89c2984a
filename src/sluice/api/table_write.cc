#include "sluice/table_write.h"

#include <set>
#include <utility>

#include "sluice/api/api_access.h"
#include "sluice/meta/file_paths.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/sink/file_store_write.h"
#include "sluice/table/source/scan_planner.h"

namespace sluice {

TableWrite::TableWrite(std::shared_ptr<const FileStoreTable> table,
                       std::unique_ptr<FileStoreWrite> write)
    : table_(std::move(table)),
      write_(std::move(write)),
      input_type_(table_->schema().LogicalRowType()) {}

TableWrite::~TableWrite() = default;

Status TableWrite::Write(const ColumnBatch& batch, const RowKind* kinds) {
  const std::vector<DataField>& fields = input_type_->fields();
  if (batch.num_columns() != static_cast<int>(fields.size())) {
    return Status::InvalidArgument("table " + table_->path() + " has " +
                                   std::to_string(fields.size()) + " columns, the batch " +
                                   std::to_string(batch.num_columns()));
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    const DataField& field = fields[i];
    const ColumnVector& column = *batch.column(static_cast<int>(i));
    if (!column.type()->EqualsIgnoreNullable(*field.type)) {
      return Status::InvalidArgument("column '" + field.name + "' of table " + table_->path() +
                                     " is " + field.type->ToString() + ", the batch holds " +
                                     column.type()->ToString());
    }
    if (!field.type->nullable() && column.has_nulls()) {
      const uint8_t* valid = column.validity().data();
      for (int64_t row = 0; row < batch.num_rows(); ++row) {
        if (valid[row] == 0) {
          return Status::InvalidArgument("column '" + field.name + "' of table " + table_->path() +
                                         " is NOT NULL, row " + std::to_string(row) +
                                         " of the batch is null");
        }
      }
    }
  }
  if (kinds != nullptr && !table_->schema().is_primary_key_table()) {
    for (int64_t row = 0; row < batch.num_rows(); ++row) {
      if (kinds[row] != RowKind::kInsert) {
        return Status::InvalidArgument(
            "row " + std::to_string(row) + " is " + std::string(RowKindShortString(kinds[row])) +
            ": table " + table_->path() + " has no primary key, so it takes only +I rows");
      }
    }
  }
  SLUICE_RETURN_NOT_OK(write_->Write(batch, kinds));
  rows_written_ += batch.num_rows();
  return Status::OK();
}

Status TableWrite::Compact(const PartitionSpec& partition, bool full) {
  ScanOptions scan;
  scan.partition_spec = partition;
  // Postpone-bucket tables compact by rewriting their postpone buckets into real ones.
  if (table_->options().bucket() == kPostponeBucket) scan.bucket = kPostponeBucket;
  SLUICE_ASSIGN_OR_RETURN(ScanPlan plan, PlanScan(*table_, scan));
  std::set<std::pair<std::string, int32_t>> buckets;
  for (const DataSplit& split : plan.splits) {
    if (!split.from_fallback_branch) buckets.emplace(split.partition, split.bucket);
  }
  for (const auto& [partition_row, bucket] : buckets) {
    SLUICE_RETURN_NOT_OK(write_->Compact(partition_row, bucket, full));
  }
  return Status::OK();
}

Result<std::vector<CommitMessage>> TableWrite::PrepareCommit(int64_t commit_identifier,
                                                             bool wait_compaction) {
  SLUICE_ASSIGN_OR_RETURN(std::vector<CommitMessageImpl> messages,
                          write_->PrepareCommit(commit_identifier, wait_compaction));
  std::vector<CommitMessage> out;
  out.reserve(messages.size());
  for (CommitMessageImpl& message : messages) {
    out.push_back(ApiAccess::MakeCommitMessage(std::move(message)));
  }
  return out;
}

Status TableWrite::Close() { return write_->Close(); }

}  // namespace sluice
