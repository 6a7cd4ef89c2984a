#include "sluice/table.h"

#include "sluice/api/api_access.h"
#include "sluice/catalog/filesystem_catalog.h"
#include "sluice/fs/file_io_factory.h"
#include "sluice/meta/table_metadata_json.h"
#include "sluice/read_builder.h"
#include "sluice/table/rescale.h"
#include "sluice/table/table_checker.h"
#include "sluice/write_builder.h"

namespace sluice {

Table::Table(std::string name, std::shared_ptr<FileStoreTable> table)
    : name_(std::move(name)),
      table_(std::move(table)),
      row_type_(table_->schema().LogicalRowType()) {}

Result<Table> Table::Open(std::string folder, std::shared_ptr<FileIO> io) {
  if (io == nullptr) return Open(std::move(folder), std::map<std::string, std::string>());
  std::string name = folder;
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> table,
                          LoadTableFromPath(std::move(io), std::move(folder)));
  return Table(std::move(name), std::move(table));
}

Result<Table> Table::Open(std::string folder, const std::map<std::string, std::string>& options) {
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileIO> io, FileIOForPath(folder, options));
  return Open(std::move(folder), std::move(io));
}

const std::string& Table::path() const { return table_->path(); }

const std::string& Table::branch() const { return table_->branch(); }

int64_t Table::schema_id() const { return table_->schema().id(); }

const std::vector<std::string>& Table::partition_keys() const {
  return table_->schema().partition_keys();
}

const std::vector<std::string>& Table::primary_keys() const {
  return table_->schema().primary_keys();
}

const std::vector<std::pair<std::string, std::string>>& Table::options() const {
  return table_->schema().options();
}

const std::optional<std::string>& Table::comment() const { return table_->schema().comment(); }

Result<Table> Table::OnBranch(std::string_view branch) const {
  if (branch == table_->branch()) return *this;
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> table, table_->OnBranch(branch));
  return Table(name_, std::move(table));
}

ReadBuilder Table::NewReadBuilder() const { return ReadBuilder(*this); }

WriteBuilder Table::NewWriteBuilder() const { return WriteBuilder(*this); }

Result<std::vector<SnapshotInfo>> Table::Snapshots() const {
  SLUICE_ASSIGN_OR_RETURN(std::vector<Snapshot> snapshots,
                          table_->snapshot_manager().ListSnapshots());
  std::vector<SnapshotInfo> out;
  out.reserve(snapshots.size());
  for (const Snapshot& s : snapshots) {
    out.push_back(SnapshotInfo{.id = s.id,
                               .schema_id = s.schema_id,
                               .commit_kind = std::string(CommitKindName(s.commit_kind)),
                               .commit_user = s.commit_user,
                               .commit_identifier = s.commit_identifier,
                               .time_millis = s.time_millis,
                               .total_record_count = s.total_record_count,
                               .delta_record_count = s.delta_record_count});
  }
  return out;
}

Result<int64_t> Table::Rescale(int32_t bucket, const PartitionSpec& partition) const {
  // The latest schema: the rewrite writes what the table is now.
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> latest,
                          table_->Reload(table_->dynamic_options()));
  RescaleOptions options;
  options.bucket = bucket;
  options.partition = partition;
  Result<RescaleResult> result = sluice::Rescale(latest, options);
  if (!result.ok()) return result.status().WithContext("table " + name_);
  return result->snapshot_id;
}

Result<TableCheckReport> Table::Check(const TableCheckOptions& options) const {
  CheckOptions check;
  check.all_snapshots = options.all_snapshots;
  check.read_data_files = options.read_data_files;
  check.path_remap = options.path_remap;
  SLUICE_ASSIGN_OR_RETURN(CheckReport report, RunTableCheck(*table_, check));
  return TableCheckReport{.snapshots = report.snapshots,
                          .manifests = report.manifests,
                          .data_files = report.data_files,
                          .files_read = report.files_read,
                          .files_not_read = report.files_not_read,
                          .index_files = report.index_files,
                          .problems = std::move(report.problems)};
}

Result<std::string> Table::MetadataJson(std::optional<int64_t> snapshot_id) const {
  return TableMetadataJson(table_->io(), table_->path(), snapshot_id, table_->branch());
}

}  // namespace sluice
