// $manifests (Java ManifestsTable): the data manifests (base and delta lists) of the snapshot the
// table's time-travel options select, default the latest.
#include "sluice/meta/file_paths.h"
#include "sluice/meta/manifest_file.h"
#include "sluice/table/system/system_table.h"
#include "sluice/table/system/system_table_text.h"

namespace sluice {

DataTypePtr ManifestsTableType() {
  static const DataTypePtr type = DataType::Row({
      SystemField(0, "file_name", DataType::String(false)),
      SystemField(1, "file_size", DataType::BigInt(false)),
      SystemField(2, "num_added_files", DataType::BigInt(false)),
      SystemField(3, "num_deleted_files", DataType::BigInt(false)),
      SystemField(4, "schema_id", DataType::BigInt(false)),
      SystemField(5, "min_partition_stats", DataType::String()),
      SystemField(6, "max_partition_stats", DataType::String()),
      SystemField(7, "min_row_id", DataType::BigInt()),
      SystemField(8, "max_row_id", DataType::BigInt()),
  });
  return type;
}

namespace {

class ManifestsTable final : public SystemTable {
 public:
  explicit ManifestsTable(std::shared_ptr<const FileStoreTable> table)
      : table_(std::move(table)), type_(ManifestsTableType()) {}

  const DataTypePtr& row_type() const override { return type_; }

  Result<ColumnBatch> Read() const override {
    ColumnBatch batch(type_);
    SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> snapshot, SelectedSnapshot(*table_));
    if (!snapshot) return batch;
    const DataTypePtr partition_type = table_->schema().LogicalPartitionType();
    for (const std::string* list :
         {&snapshot->base_manifest_list, &snapshot->delta_manifest_list}) {
      if (list->empty()) continue;
      SLUICE_ASSIGN_OR_RETURN(
          std::vector<ManifestFileMeta> metas,
          ReadManifestList(*table_->io(), ManifestFilePath(table_->path(), *list)));
      for (const ManifestFileMeta& m : metas) {
        SLUICE_ASSIGN_OR_RETURN(std::string lo,
                                RowBraceText(m.partition_stats.min_values, *partition_type));
        SLUICE_ASSIGN_OR_RETURN(std::string hi,
                                RowBraceText(m.partition_stats.max_values, *partition_type));
        SLUICE_RETURN_NOT_OK(batch.AppendRow({
            Value::String(m.file_name),
            Value::Int64(m.file_size),
            Value::Int64(m.num_added_files),
            Value::Int64(m.num_deleted_files),
            Value::Int64(m.schema_id),
            Value::String(std::move(lo)),
            Value::String(std::move(hi)),
            OptionalInt64(m.min_row_id),
            OptionalInt64(m.max_row_id),
        }));
      }
    }
    return batch;
  }

 private:
  std::shared_ptr<const FileStoreTable> table_;
  DataTypePtr type_;
};

}  // namespace

std::unique_ptr<SystemTable> NewManifestsTable(std::shared_ptr<const FileStoreTable> table) {
  return std::make_unique<ManifestsTable>(std::move(table));
}

}  // namespace sluice
