// $schemas (Java SchemasTable): one row per schema of the branch. `fields`, `partition_keys`,
// `primary_keys` and `options` are Jackson's compact JSON of the schema file's members, so they
// read as Java's JsonSerdeUtil.toFlatJson prints them.
#include "sluice/base/json_reader.h"
#include "sluice/secret_mask.h"
#include "sluice/table/system/system_table.h"
#include "sluice/table/system/system_table_text.h"

namespace sluice {

DataTypePtr SchemasTableType() {
  static const DataTypePtr type = DataType::Row({
      SystemField(0, "schema_id", DataType::BigInt(false)),
      SystemField(1, "fields", DataType::String(false)),
      SystemField(2, "partition_keys", DataType::String(false)),
      SystemField(3, "primary_keys", DataType::String(false)),
      SystemField(4, "options", DataType::String(false)),
      SystemField(5, "comment", DataType::String()),
      SystemField(6, "update_time", DataType::Timestamp(3, false)),
  });
  return type;
}

namespace {

class SchemasTable final : public SystemTable {
 public:
  explicit SchemasTable(std::shared_ptr<const FileStoreTable> table)
      : table_(std::move(table)), type_(SchemasTableType()) {}

  const DataTypePtr& row_type() const override { return type_; }

  Result<ColumnBatch> Read() const override {
    const SchemaManager& schemas = table_->schema_manager();
    SLUICE_ASSIGN_OR_RETURN(std::vector<int64_t> ids, schemas.ListSchemaIds());
    ColumnBatch batch(type_);
    for (int64_t id : ids) {
      const std::string path = schemas.schema_path(id);
      SLUICE_ASSIGN_OR_RETURN(std::string text, table_->io()->ReadFile(path));
      Result<Json> json = ParseJson(text);
      if (!json.ok()) return json.status().WithContext(path);
      SLUICE_ASSIGN_OR_RETURN(TableSchema schema, schemas.LoadSchema(id));
      auto member = [&](std::string_view key, std::string_view empty) {
        const Json* m = FindMember(*json, key);
        return m == nullptr || m->is_null() ? std::string(empty) : m->dump();
      };
      SLUICE_RETURN_NOT_OK(batch.AppendRow({
          Value::Int64(id),
          Value::String(member("fields", "[]")),
          Value::String(member("partitionKeys", "[]")),
          Value::String(member("primaryKeys", "[]")),
          Value::String(MaskSecrets(member("options", "{}"))),
          OptionalString(schema.comment()),
          MillisTimestamp(schema.time_millis()),
      }));
    }
    return batch;
  }

 private:
  std::shared_ptr<const FileStoreTable> table_;
  DataTypePtr type_;
};

}  // namespace

std::unique_ptr<SystemTable> NewSchemasTable(std::shared_ptr<const FileStoreTable> table) {
  return std::make_unique<SchemasTable>(std::move(table));
}

}  // namespace sluice
