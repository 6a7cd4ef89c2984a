// $statistics (Java StatisticTable): the statistics file of the latest snapshot (written by
// ANALYZE), one row; none when the snapshot has no statistics.
#include "sluice/base/json_reader.h"
#include "sluice/meta/file_paths.h"
#include "sluice/table/system/system_table.h"
#include "sluice/table/system/system_table_text.h"

namespace sluice {

DataTypePtr StatisticTableType() {
  static const DataTypePtr type = DataType::Row({
      SystemField(0, "snapshot_id", DataType::BigInt(false)),
      SystemField(1, "schema_id", DataType::BigInt(false)),
      SystemField(2, "mergedRecordCount", DataType::BigInt()),
      SystemField(3, "mergedRecordSize", DataType::BigInt()),
      SystemField(4, "colstat", DataType::String()),
  });
  return type;
}

namespace {

class StatisticTable final : public SystemTable {
 public:
  explicit StatisticTable(std::shared_ptr<const FileStoreTable> table)
      : table_(std::move(table)), type_(StatisticTableType()) {}

  const DataTypePtr& row_type() const override { return type_; }

  Result<ColumnBatch> Read() const override {
    ColumnBatch batch(type_);
    SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> snapshot, SelectedSnapshot(*table_));
    if (!snapshot || !snapshot->statistics) return batch;
    const std::string path = StatisticsFilePath(table_->path(), *snapshot->statistics);
    SLUICE_ASSIGN_OR_RETURN(std::string text, table_->io()->ReadFile(path));
    Result<Json> json = ParseJson(text);
    if (!json.ok()) return json.status().WithContext(path);
    auto number = [&](std::string_view key) -> Result<Value> {
      const Json* m = FindMember(*json, key);
      if (m == nullptr || m->is_null()) return Value::Null();
      SLUICE_ASSIGN_OR_RETURN(int64_t v, JsonToInt64(*m, key));
      return Value::Int64(v);
    };
    SLUICE_ASSIGN_OR_RETURN(Value snapshot_id, number("snapshotId"));
    SLUICE_ASSIGN_OR_RETURN(Value schema_id, number("schemaId"));
    SLUICE_ASSIGN_OR_RETURN(Value count, number("mergedRecordCount"));
    SLUICE_ASSIGN_OR_RETURN(Value size, number("mergedRecordSize"));
    const Json* col_stats = FindMember(*json, "colStats");
    SLUICE_RETURN_NOT_OK(batch.AppendRow({
        snapshot_id.is_null() ? Value::Int64(snapshot->id) : snapshot_id,
        schema_id.is_null() ? Value::Int64(snapshot->schema_id) : schema_id,
        count,
        size,
        col_stats == nullptr ? Value::Null() : Value::String(col_stats->dump()),
    }));
    return batch;
  }

 private:
  std::shared_ptr<const FileStoreTable> table_;
  DataTypePtr type_;
};

}  // namespace

std::unique_ptr<SystemTable> NewStatisticTable(std::shared_ptr<const FileStoreTable> table) {
  return std::make_unique<StatisticTable>(std::move(table));
}

}  // namespace sluice
