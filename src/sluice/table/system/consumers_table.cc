// $consumers (Java ConsumersTable): one row per consumer of the branch.
#include "sluice/meta/consumer_manager.h"
#include "sluice/table/system/system_table.h"
#include "sluice/table/system/system_table_text.h"

namespace sluice {

DataTypePtr ConsumersTableType() {
  static const DataTypePtr type = DataType::Row({
      SystemField(0, "consumer_id", DataType::String(false)),
      SystemField(1, "next_snapshot_id", DataType::BigInt(false)),
  });
  return type;
}

namespace {

class ConsumersTable final : public SystemTable {
 public:
  explicit ConsumersTable(std::shared_ptr<const FileStoreTable> table)
      : table_(std::move(table)), type_(ConsumersTableType()) {}

  const DataTypePtr& row_type() const override { return type_; }

  Result<ColumnBatch> Read() const override {
    ConsumerManager consumers(table_->io(), table_->path(), table_->branch());
    SLUICE_ASSIGN_OR_RETURN(auto all, consumers.Consumers());
    ColumnBatch batch(type_);
    for (const auto& [id, next] : all) {
      SLUICE_RETURN_NOT_OK(batch.AppendRow({Value::String(id), Value::Int64(next)}));
    }
    return batch;
  }

 private:
  std::shared_ptr<const FileStoreTable> table_;
  DataTypePtr type_;
};

}  // namespace

std::unique_ptr<SystemTable> NewConsumersTable(std::shared_ptr<const FileStoreTable> table) {
  return std::make_unique<ConsumersTable>(std::move(table));
}

}  // namespace sluice
