// $files (Java FilesTable) and $file_key_ranges (Java FileKeyRangesTable, a projection of the
// same rows): one row per live data file of the snapshot the table's time-travel options select
// (default the latest). Keys and statistics are decoded with the schema the file was written
// with (Java evolves them to the latest schema; the two differ only for files written before a
// schema change).
#include "sluice/meta/file_paths.h"
#include "sluice/meta/live_files.h"
#include "sluice/row/binary_row.h"
#include "sluice/table/system/system_table.h"
#include "sluice/table/system/system_table_text.h"

namespace sluice {

DataTypePtr FilesTableType() {
  static const DataTypePtr type = DataType::Row({
      SystemField(0, "partition", DataType::String()),
      SystemField(1, "bucket", DataType::Int(false)),
      SystemField(2, "file_path", DataType::String(false)),
      SystemField(3, "file_format", DataType::String(false)),
      SystemField(4, "schema_id", DataType::BigInt(false)),
      SystemField(5, "level", DataType::Int(false)),
      SystemField(6, "record_count", DataType::BigInt(false)),
      SystemField(7, "file_size_in_bytes", DataType::BigInt(false)),
      SystemField(8, "min_key", DataType::String()),
      SystemField(9, "max_key", DataType::String()),
      SystemField(10, "null_value_counts", DataType::String(false)),
      SystemField(11, "min_value_stats", DataType::String(false)),
      SystemField(12, "max_value_stats", DataType::String(false)),
      SystemField(13, "min_sequence_number", DataType::BigInt()),
      SystemField(14, "max_sequence_number", DataType::BigInt()),
      SystemField(15, "creation_time", DataType::Timestamp(3)),
      SystemField(16, "deleteRowCount", DataType::BigInt()),
      SystemField(17, "file_source", DataType::String()),
      SystemField(18, "first_row_id", DataType::BigInt()),
      SystemField(19, "write_cols", DataType::Array(DataType::String())),
  });
  return type;
}

DataTypePtr FileKeyRangesTableType() {
  // $files' first ten columns, then first_row_id.
  static const DataTypePtr type = [] {
    const std::vector<DataField>& files = FilesTableType()->fields();
    std::vector<DataField> fields(files.begin(), files.begin() + 10);
    fields.push_back(SystemField(10, "first_row_id", DataType::BigInt()));
    return DataType::Row(std::move(fields));
  }();
  return type;
}

namespace {

// The columns a file's value statistics cover, with their types.
std::vector<DataField> StatsFields(const TableSchema& schema, const DataFileMeta& file) {
  if (!file.value_stats_cols) return schema.fields();
  std::vector<DataField> out;
  for (const std::string& name : *file.value_stats_cols) {
    const int index = schema.FieldIndex(name);
    if (index >= 0) out.push_back(schema.fields()[index]);
  }
  return out;
}

// {name=value, ...} of one stats row; empty braces when the file recorded none.
std::string StatsText(const std::string& serialized, const std::vector<DataField>& fields) {
  if (fields.empty() || serialized.empty()) return "{}";
  auto values = DecodeSerializedBinaryRow(serialized, *DataType::Row(fields));
  if (!values.ok()) return "{}";
  std::vector<std::pair<std::string, std::string>> entries;
  for (size_t i = 0; i < fields.size() && i < values->size(); ++i) {
    entries.emplace_back(fields[i].name, JavaValueText((*values)[i], *fields[i].type));
  }
  return MapText(entries);
}

std::string NullCountsText(const DataFileMeta& file, const std::vector<DataField>& fields) {
  std::vector<std::pair<std::string, std::string>> entries;
  if (file.value_stats.null_counts) {
    const auto& counts = *file.value_stats.null_counts;
    for (size_t i = 0; i < fields.size() && i < counts.size(); ++i) {
      entries.emplace_back(fields[i].name,
                           counts[i] ? std::to_string(*counts[i]) : std::string("null"));
    }
  }
  return MapText(entries);
}

class FilesTable final : public SystemTable {
 public:
  FilesTable(std::shared_ptr<const FileStoreTable> table, bool key_ranges)
      : table_(std::move(table)),
        key_ranges_(key_ranges),
        type_(key_ranges ? FileKeyRangesTableType() : FilesTableType()) {}

  const DataTypePtr& row_type() const override { return type_; }

  Result<ColumnBatch> Read() const override {
    ColumnBatch batch(type_);
    SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> snapshot, SelectedSnapshot(*table_));
    if (!snapshot) return batch;
    SLUICE_ASSIGN_OR_RETURN(std::vector<ManifestEntry> files,
                            ReadLiveDataFiles(*table_->io(), table_->path(), *snapshot));
    const DataTypePtr partition_type = table_->schema().LogicalPartitionType();
    const bool partitioned = !partition_type->fields().empty();
    for (const ManifestEntry& e : files) {
      const DataFileMeta& f = e.file;
      SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<const TableSchema> schema,
                              table_->SchemaById(f.schema_id));
      Value partition = Value::Null();
      if (partitioned) {
        SLUICE_ASSIGN_OR_RETURN(std::string text, RowBraceText(e.partition, *partition_type));
        partition = Value::String(std::move(text));
      }
      SLUICE_ASSIGN_OR_RETURN(std::string bucket_path,
                              table_->path_factory().BucketPathOfSerialized(e.partition, e.bucket));
      const std::string path = DataFilePath(bucket_path, f.file_name, f.external_path);
      const Value format = Value::String(FormatFromFileName(f.file_name).value_or(""));
      Value min_key = Value::Null();
      Value max_key = Value::Null();
      const DataTypePtr key_type = schema->LogicalTrimmedPrimaryKeysType();
      if (!key_type->fields().empty()) {
        SLUICE_ASSIGN_OR_RETURN(std::string lo, RowArrayText(f.min_key, *key_type));
        SLUICE_ASSIGN_OR_RETURN(std::string hi, RowArrayText(f.max_key, *key_type));
        min_key = Value::String(std::move(lo));
        max_key = Value::String(std::move(hi));
      }
      if (key_ranges_) {
        SLUICE_RETURN_NOT_OK(batch.AppendRow(
            {partition, Value::Int32(e.bucket), Value::String(path), format,
             Value::Int64(f.schema_id), Value::Int32(f.level), Value::Int64(f.row_count),
             Value::Int64(f.file_size), min_key, max_key, OptionalInt64(f.first_row_id)}));
        continue;
      }
      const std::vector<DataField> stats_fields = StatsFields(*schema, f);
      Value write_cols = Value::Null();
      if (f.write_cols) {
        ValueList cols;
        for (const std::string& c : *f.write_cols) cols.push_back(Value::String(c));
        write_cols = Value::Array(std::move(cols));
      }
      SLUICE_RETURN_NOT_OK(batch.AppendRow({
          partition,
          Value::Int32(e.bucket),
          Value::String(path),
          format,
          Value::Int64(f.schema_id),
          Value::Int32(f.level),
          Value::Int64(f.row_count),
          Value::Int64(f.file_size),
          min_key,
          max_key,
          Value::String(NullCountsText(f, stats_fields)),
          Value::String(StatsText(f.value_stats.min_values, stats_fields)),
          Value::String(StatsText(f.value_stats.max_values, stats_fields)),
          Value::Int64(f.min_sequence_number),
          Value::Int64(f.max_sequence_number),
          f.creation_time ? Value::FromTimestamp(*f.creation_time) : Value::Null(),
          OptionalInt64(f.delete_row_count),
          f.file_source
              ? Value::String(*f.file_source == FileSource::kAppend ? "APPEND" : "COMPACT")
              : Value::Null(),
          OptionalInt64(f.first_row_id),
          write_cols,
      }));
    }
    return batch;
  }

 private:
  std::shared_ptr<const FileStoreTable> table_;
  bool key_ranges_;
  DataTypePtr type_;
};

}  // namespace

std::unique_ptr<SystemTable> NewFilesTable(std::shared_ptr<const FileStoreTable> table) {
  return std::make_unique<FilesTable>(std::move(table), /*key_ranges=*/false);
}

std::unique_ptr<SystemTable> NewFileKeyRangesTable(std::shared_ptr<const FileStoreTable> table) {
  return std::make_unique<FilesTable>(std::move(table), /*key_ranges=*/true);
}

}  // namespace sluice
