// $table_indexes (Java TableIndexesTable): the index files (deletion vectors, hash indexes) of
// the latest snapshot's index manifest, with each deletion-vector file's ranges.
#include "sluice/meta/live_files.h"
#include "sluice/table/system/system_table.h"
#include "sluice/table/system/system_table_text.h"

namespace sluice {

namespace {

// Java DeletionVectorMeta.SCHEMA.
DataTypePtr DeletionVectorMetaType() {
  return DataType::Row({
      SystemField(0, "f0", DataType::String(false)),
      SystemField(1, "f1", DataType::Int(false)),
      SystemField(2, "f2", DataType::Int(false)),
      SystemField(3, "_CARDINALITY", DataType::BigInt()),
  });
}

}  // namespace

DataTypePtr TableIndexesTableType() {
  static const DataTypePtr type = DataType::Row({
      SystemField(0, "partition", DataType::String()),
      SystemField(1, "bucket", DataType::Int(false)),
      SystemField(2, "index_type", DataType::String(false)),
      SystemField(3, "file_name", DataType::String(false)),
      SystemField(4, "file_size", DataType::BigInt(false)),
      SystemField(5, "row_count", DataType::BigInt(false)),
      SystemField(6, "dv_ranges", DataType::Array(DeletionVectorMetaType())),
  });
  return type;
}

namespace {

class TableIndexesTable final : public SystemTable {
 public:
  explicit TableIndexesTable(std::shared_ptr<const FileStoreTable> table)
      : table_(std::move(table)), type_(TableIndexesTableType()) {}

  const DataTypePtr& row_type() const override { return type_; }

  Result<ColumnBatch> Read() const override {
    ColumnBatch batch(type_);
    SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> snapshot, SelectedSnapshot(*table_));
    if (!snapshot) return batch;
    SLUICE_ASSIGN_OR_RETURN(std::vector<IndexManifestEntry> entries,
                            ReadLiveIndexFiles(*table_->io(), table_->path(), *snapshot));
    const DataTypePtr partition_type = table_->schema().LogicalPartitionType();
    for (const IndexManifestEntry& e : entries) {
      SLUICE_ASSIGN_OR_RETURN(std::string partition, RowBraceText(e.partition, *partition_type));
      Value ranges = Value::Null();
      if (e.deletion_vectors) {
        ValueList list;
        for (const DeletionVectorMeta& dv : *e.deletion_vectors) {
          list.push_back(Value::Row({Value::String(dv.data_file_name), Value::Int32(dv.offset),
                                     Value::Int32(dv.length), OptionalInt64(dv.cardinality)}));
        }
        ranges = Value::Array(std::move(list));
      }
      SLUICE_RETURN_NOT_OK(batch.AppendRow({
          Value::String(std::move(partition)),
          Value::Int32(e.bucket),
          Value::String(e.index_type),
          Value::String(e.file_name),
          Value::Int64(e.file_size),
          Value::Int64(e.row_count),
          ranges,
      }));
    }
    return batch;
  }

 private:
  std::shared_ptr<const FileStoreTable> table_;
  DataTypePtr type_;
};

}  // namespace

std::unique_ptr<SystemTable> NewTableIndexesTable(std::shared_ptr<const FileStoreTable> table) {
  return std::make_unique<TableIndexesTable>(std::move(table));
}

}  // namespace sluice
