// $ro (Java ReadOptimizedTable): the table's rows read from compacted files alone, no merge with
// fresher levels: a primary-key table shows only its top level (`num-levels` - 1), so rows not
// yet fully compacted are missing or old; an append table reads as itself. Same columns as the
// table.
#include "sluice/table/system/system_table.h"

namespace sluice {

namespace {

class ReadOptimizedTable final : public SystemTable {
 public:
  explicit ReadOptimizedTable(std::shared_ptr<const FileStoreTable> table)
      : table_(std::move(table)), type_(ReadOptimizedTableType(*table_)) {}

  const DataTypePtr& row_type() const override { return type_; }

  Result<ColumnBatch> Read() const override {
    return ReadDataRows(*table_, DataRowsRequest{.top_level_only = true});
  }

 private:
  std::shared_ptr<const FileStoreTable> table_;
  DataTypePtr type_;
};

}  // namespace

DataTypePtr ReadOptimizedTableType(const FileStoreTable& table) {
  return table.schema().LogicalRowType();
}

std::unique_ptr<SystemTable> NewReadOptimizedTable(std::shared_ptr<const FileStoreTable> table) {
  return std::make_unique<ReadOptimizedTable>(std::move(table));
}

}  // namespace sluice
