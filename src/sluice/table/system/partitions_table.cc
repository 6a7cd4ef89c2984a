// $partitions (Java PartitionsTable) and $buckets (Java BucketsTable): the live data files of the
// latest snapshot summed per partition, or per partition and bucket. A filesystem catalog keeps
// no partition metadata, so created_at, created_by, updated_by and options are null, as Java
// shows them for such tables.
#include <map>

#include "sluice/meta/file_paths.h"
#include "sluice/meta/live_files.h"
#include "sluice/row/binary_row.h"
#include "sluice/table/system/system_table.h"
#include "sluice/table/system/system_table_text.h"

namespace sluice {

DataTypePtr PartitionsTableType() {
  static const DataTypePtr type = DataType::Row({
      SystemField(0, "partition", DataType::String()),
      SystemField(1, "record_count", DataType::BigInt(false)),
      SystemField(2, "file_size_in_bytes", DataType::BigInt(false)),
      SystemField(3, "file_count", DataType::BigInt(false)),
      SystemField(4, "last_update_time", DataType::Timestamp(3)),
      SystemField(5, "created_at", DataType::Timestamp(3)),
      SystemField(6, "created_by", DataType::String()),
      SystemField(7, "updated_by", DataType::String()),
      SystemField(8, "options", DataType::String()),
  });
  return type;
}

DataTypePtr BucketsTableType() {
  static const DataTypePtr type = DataType::Row({
      SystemField(0, "partition", DataType::String()),
      SystemField(1, "bucket", DataType::Int(false)),
      SystemField(2, "record_count", DataType::BigInt(false)),
      SystemField(3, "file_size_in_bytes", DataType::BigInt(false)),
      SystemField(4, "file_count", DataType::BigInt(false)),
      SystemField(5, "last_update_time", DataType::Timestamp(3)),
  });
  return type;
}

namespace {

struct Totals {
  int64_t records = 0;
  int64_t bytes = 0;
  int64_t files = 0;
  std::optional<int64_t> last_creation_millis;
};

class PartitionsTable final : public SystemTable {
 public:
  PartitionsTable(std::shared_ptr<const FileStoreTable> table, bool by_bucket)
      : table_(std::move(table)),
        by_bucket_(by_bucket),
        type_(by_bucket ? BucketsTableType() : PartitionsTableType()) {}

  const DataTypePtr& row_type() const override { return type_; }

  Result<ColumnBatch> Read() const override {
    ColumnBatch batch(type_);
    SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> snapshot, SelectedSnapshot(*table_));
    if (!snapshot) return batch;
    SLUICE_ASSIGN_OR_RETURN(std::vector<ManifestEntry> files,
                            ReadLiveDataFiles(*table_->io(), table_->path(), *snapshot));
    std::map<std::pair<std::string, int32_t>, Totals> totals;
    for (const ManifestEntry& e : files) {
      Totals& t = totals[{e.partition, by_bucket_ ? e.bucket : 0}];
      t.records += e.file.row_count;
      t.bytes += e.file.file_size;
      ++t.files;
      if (e.file.creation_time) {
        t.last_creation_millis =
            std::max(t.last_creation_millis.value_or(INT64_MIN), e.file.creation_time->millisecond);
      }
    }
    const DataTypePtr partition_type = table_->schema().LogicalPartitionType();
    for (const auto& [key, t] : totals) {
      SLUICE_ASSIGN_OR_RETURN(Value partition, PartitionText(key.first, *partition_type));
      const Value last =
          t.last_creation_millis ? MillisTimestamp(*t.last_creation_millis) : Value::Null();
      if (by_bucket_) {
        SLUICE_RETURN_NOT_OK(
            batch.AppendRow({partition, Value::Int32(key.second), Value::Int64(t.records),
                             Value::Int64(t.bytes), Value::Int64(t.files), last}));
      } else {
        SLUICE_RETURN_NOT_OK(batch.AppendRow(
            {partition, Value::Int64(t.records), Value::Int64(t.bytes), Value::Int64(t.files), last,
             Value::Null(), Value::Null(), Value::Null(), Value::Null()}));
      }
    }
    return batch;
  }

 private:
  // $partitions: `k1=v1/k2=v2` (null as the default partition name); $buckets: `{v1, v2}`.
  Result<Value> PartitionText(const std::string& serialized, const DataType& type) const {
    if (by_bucket_) {
      SLUICE_ASSIGN_OR_RETURN(std::string text, RowBraceText(serialized, type));
      return Value::String(std::move(text));
    }
    SLUICE_ASSIGN_OR_RETURN(ValueList values, DecodeSerializedBinaryRow(serialized, type));
    std::string out;
    for (size_t i = 0; i < values.size(); ++i) {
      if (i > 0) out += "/";
      out += type.fields()[i].name + "=" +
             (values[i].is_null() ? table_->options().partition_default_name()
                                  : JavaValueText(values[i], *type.fields()[i].type));
    }
    return Value::String(std::move(out));
  }

  std::shared_ptr<const FileStoreTable> table_;
  bool by_bucket_;
  DataTypePtr type_;
};

}  // namespace

std::unique_ptr<SystemTable> NewPartitionsTable(std::shared_ptr<const FileStoreTable> table) {
  return std::make_unique<PartitionsTable>(std::move(table), /*by_bucket=*/false);
}

std::unique_ptr<SystemTable> NewBucketsTable(std::shared_ptr<const FileStoreTable> table) {
  return std::make_unique<PartitionsTable>(std::move(table), /*by_bucket=*/true);
}

}  // namespace sluice
