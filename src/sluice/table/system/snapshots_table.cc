// $snapshots (Java SnapshotsTable): one row per snapshot of the branch, oldest first.
#include "sluice/table/system/system_table.h"
#include "sluice/table/system/system_table_text.h"

namespace sluice {

DataTypePtr SnapshotsTableType() {
  static const DataTypePtr type = DataType::Row({
      SystemField(0, "snapshot_id", DataType::BigInt(false)),
      SystemField(1, "schema_id", DataType::BigInt(false)),
      SystemField(2, "commit_user", DataType::String(false)),
      SystemField(3, "commit_identifier", DataType::BigInt(false)),
      SystemField(4, "commit_kind", DataType::String(false)),
      SystemField(5, "commit_time", DataType::Timestamp(3, false)),
      SystemField(6, "base_manifest_list", DataType::String(false)),
      SystemField(7, "delta_manifest_list", DataType::String(false)),
      SystemField(8, "changelog_manifest_list", DataType::String()),
      SystemField(9, "total_record_count", DataType::BigInt()),
      SystemField(10, "delta_record_count", DataType::BigInt()),
      SystemField(11, "changelog_record_count", DataType::BigInt()),
      SystemField(12, "watermark", DataType::BigInt()),
      SystemField(13, "next_row_id", DataType::BigInt()),
  });
  return type;
}

namespace {

class SnapshotsTable final : public SystemTable {
 public:
  explicit SnapshotsTable(std::shared_ptr<const FileStoreTable> table)
      : table_(std::move(table)), type_(SnapshotsTableType()) {}

  const DataTypePtr& row_type() const override { return type_; }

  Result<ColumnBatch> Read() const override {
    SLUICE_ASSIGN_OR_RETURN(std::vector<Snapshot> snapshots,
                            table_->snapshot_manager().ListSnapshots());
    ColumnBatch batch(type_);
    for (const Snapshot& s : snapshots) {
      SLUICE_RETURN_NOT_OK(batch.AppendRow({
          Value::Int64(s.id),
          Value::Int64(s.schema_id),
          Value::String(s.commit_user),
          Value::Int64(s.commit_identifier),
          Value::String(std::string(CommitKindName(s.commit_kind))),
          MillisTimestamp(s.time_millis),
          Value::String(s.base_manifest_list),
          Value::String(s.delta_manifest_list),
          OptionalString(s.changelog_manifest_list),
          OptionalInt64(s.total_record_count),
          OptionalInt64(s.delta_record_count),
          OptionalInt64(s.changelog_record_count),
          OptionalInt64(s.watermark),
          OptionalInt64(s.next_row_id),
      }));
    }
    return batch;
  }

 private:
  std::shared_ptr<const FileStoreTable> table_;
  DataTypePtr type_;
};

}  // namespace

std::unique_ptr<SystemTable> NewSnapshotsTable(std::shared_ptr<const FileStoreTable> table) {
  return std::make_unique<SnapshotsTable>(std::move(table));
}

}  // namespace sluice
