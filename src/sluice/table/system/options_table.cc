// $options (Java OptionsTable): the options of the branch's latest schema, in file order, with
// the values of credentials masked (sluice/secret_mask.h; Java shows them).
#include "sluice/secret_mask.h"
#include "sluice/table/system/system_table.h"
#include "sluice/table/system/system_table_text.h"

namespace sluice {

DataTypePtr OptionsTableType() {
  static const DataTypePtr type = DataType::Row({
      SystemField(0, "key", DataType::String(false)),
      SystemField(1, "value", DataType::String(false)),
  });
  return type;
}

namespace {

class OptionsTable final : public SystemTable {
 public:
  explicit OptionsTable(std::shared_ptr<const FileStoreTable> table)
      : table_(std::move(table)), type_(OptionsTableType()) {}

  const DataTypePtr& row_type() const override { return type_; }

  Result<ColumnBatch> Read() const override {
    ColumnBatch batch(type_);
    for (const auto& [key, value] : table_->schema().options()) {
      SLUICE_RETURN_NOT_OK(
          batch.AppendRow({Value::String(key), Value::String(MaskedOptionValue(key, value))}));
    }
    return batch;
  }

 private:
  std::shared_ptr<const FileStoreTable> table_;
  DataTypePtr type_;
};

}  // namespace

std::unique_ptr<SystemTable> NewOptionsTable(std::shared_ptr<const FileStoreTable> table) {
  return std::make_unique<OptionsTable>(std::move(table));
}

}  // namespace sluice
