// $aggregation_fields (Java AggregationFieldsTable): per field of the latest schema, its type and
// the values (`function`) and keys (`function_options`) of its `fields.<name>.*` options, as Java
// prints a list ("[sum]", "[fields.v.aggregate-function]", "[]").
#include "sluice/table/system/system_table.h"
#include "sluice/table/system/system_table_text.h"

namespace sluice {

DataTypePtr AggregationFieldsTableType() {
  static const DataTypePtr type = DataType::Row({
      SystemField(0, "field_name", DataType::String(false)),
      SystemField(1, "field_type", DataType::String(false)),
      SystemField(2, "function", DataType::String()),
      SystemField(3, "function_options", DataType::String()),
      SystemField(4, "comment", DataType::String()),
  });
  return type;
}

namespace {

std::string ListText(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i > 0 ? ", " : "") + items[i];
  return out + "]";
}

class AggregationFieldsTable final : public SystemTable {
 public:
  explicit AggregationFieldsTable(std::shared_ptr<const FileStoreTable> table)
      : table_(std::move(table)), type_(AggregationFieldsTableType()) {}

  const DataTypePtr& row_type() const override { return type_; }

  Result<ColumnBatch> Read() const override {
    ColumnBatch batch(type_);
    const TableSchema& schema = table_->schema();
    for (const DataField& field : schema.fields()) {
      // Java splits the key on '.' and takes keys with more than two parts.
      const std::string prefix = "fields." + field.name + ".";
      std::vector<std::string> values;
      std::vector<std::string> keys;
      for (const auto& [key, value] : schema.options()) {
        if (key.size() > prefix.size() && key.compare(0, prefix.size(), prefix) == 0) {
          values.push_back(value);
          keys.push_back(key);
        }
      }
      SLUICE_RETURN_NOT_OK(batch.AppendRow({
          Value::String(field.name),
          Value::String(field.type->ToString()),
          Value::String(ListText(values)),
          Value::String(ListText(keys)),
          OptionalString(field.description),
      }));
    }
    return batch;
  }

 private:
  std::shared_ptr<const FileStoreTable> table_;
  DataTypePtr type_;
};

}  // namespace

std::unique_ptr<SystemTable> NewAggregationFieldsTable(
    std::shared_ptr<const FileStoreTable> table) {
  return std::make_unique<AggregationFieldsTable>(std::move(table));
}

}  // namespace sluice
