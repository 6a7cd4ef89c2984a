// $branches (Java BranchesTable): one row per branch other than main, with its directory's
// modification time as the create time.
#include "sluice/meta/branch_manager.h"
#include "sluice/meta/file_paths.h"
#include "sluice/table/system/system_table.h"
#include "sluice/table/system/system_table_text.h"

namespace sluice {

DataTypePtr BranchesTableType() {
  static const DataTypePtr type = DataType::Row({
      SystemField(0, "branch_name", DataType::String(false)),
      SystemField(1, "create_time", DataType::Timestamp(3, false)),
  });
  return type;
}

namespace {

class BranchesTable final : public SystemTable {
 public:
  explicit BranchesTable(std::shared_ptr<const FileStoreTable> table)
      : table_(std::move(table)), type_(BranchesTableType()) {}

  const DataTypePtr& row_type() const override { return type_; }

  Result<ColumnBatch> Read() const override {
    BranchManager branches(table_->io(), table_->path());
    SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> names, branches.ListBranches());
    ColumnBatch batch(type_);
    for (const std::string& name : names) {
      Result<FileStatus> status = table_->io()->GetStatus(BranchPath(table_->path(), name));
      if (!status.ok()) {
        if (status.status().IsNotFound()) continue;  // dropped meanwhile
        return status.status();
      }
      SLUICE_RETURN_NOT_OK(
          batch.AppendRow({Value::String(name), MillisTimestamp(status->modification_time_ms)}));
    }
    return batch;
  }

 private:
  std::shared_ptr<const FileStoreTable> table_;
  DataTypePtr type_;
};

}  // namespace

std::unique_ptr<SystemTable> NewBranchesTable(std::shared_ptr<const FileStoreTable> table) {
  return std::make_unique<BranchesTable>(std::move(table));
}

}  // namespace sluice
