#include "sluice/table/source/key_value_file_reader.h"

#include <algorithm>

#include "sluice/batch/column_take.h"
#include "sluice/format/file_format_registry.h"
#include "sluice/table/source/split_read_util.h"

namespace sluice {

namespace {

DataField SequenceNumberField() {
  return DataField{kSequenceNumberFieldId, kSequenceNumberFieldName, DataType::BigInt(false),
                   std::nullopt, std::nullopt};
}

DataField ValueKindField() {
  return DataField{kValueKindFieldId, kValueKindFieldName, DataType::TinyInt(false), std::nullopt,
                   std::nullopt};
}

}  // namespace

DataTypePtr KeyValueFileReader::RecordType(const DataTypePtr& value_type) {
  std::vector<DataField> fields = value_type->fields();
  fields.push_back(SequenceNumberField());
  fields.push_back(ValueKindField());
  return DataType::Row(std::move(fields));
}

KeyValueFileReader::KeyValueFileReader(std::string path, int32_t level,
                                       std::unique_ptr<FormatReader> reader,
                                       FileEvolution evolution, DataTypePtr file_read_type)
    : path_(std::move(path)),
      level_(level),
      reader_(std::move(reader)),
      evolution_(std::move(evolution)),
      file_batch_(std::move(file_read_type)) {
  const auto& read_fields = evolution_.read_type()->fields();
  const auto& file_fields = evolution_.file_read_type()->fields();
  direct_ = read_fields.size() == file_fields.size();
  for (size_t i = 0; direct_ && i < read_fields.size(); ++i) {
    direct_ = read_fields[i].id == file_fields[i].id &&
              read_fields[i].type->EqualsIgnoreNullable(*file_fields[i].type);
  }
}

Result<std::unique_ptr<KeyValueFileReader>> KeyValueFileReader::Open(
    const FileStoreTable& table, const TableSchema& read_schema, const DataTypePtr& value_type,
    const DataSplit& split, size_t file_index, Options options) {
  const DataFileMeta& meta = split.data_files[file_index];
  const std::string& path = split.data_file_paths[file_index];
  std::shared_ptr<const TableSchema> file_schema;
  if (meta.schema_id != read_schema.id()) {
    auto found = table.SchemaById(meta.schema_id);
    if (!found.ok()) return found.status().WithContext("data file " + path);
    file_schema = std::move(*found);
  }
  const TableSchema& schema = file_schema ? *file_schema : read_schema;
  auto evolution = FileEvolution::Make(schema, value_type, read_schema.partition_keys(),
                                       split.partition_values, std::move(options.session_zone));
  if (!evolution.ok()) return evolution.status().WithContext("data file " + path);
  std::vector<DataField> file_fields = evolution->file_read_type()->fields();
  file_fields.push_back(SequenceNumberField());
  file_fields.push_back(ValueKindField());
  DataTypePtr file_read_type = DataType::Row(std::move(file_fields));

  auto file = table.io()->OpenForReadWithSize(path, meta.file_size);
  if (!file.ok()) return file.status().WithContext("data file " + path);
  std::shared_ptr<RandomAccessFile> shared_file = std::move(*file);
  auto format = DetectFileFormat(*shared_file);
  if (!format.ok()) return format.status().WithContext("data file " + path);
  ReaderOptions reader_options;
  reader_options.batch_size = options.batch_size;
  if (options.deleted != nullptr && !options.deleted->empty()) {
    reader_options.row_positions = LivePositions(meta.row_count, *options.deleted);
  }
  if (options.skip_filter != nullptr) {
    // Value field -> file column, for fields the file holds with the same type (no cast).
    std::vector<int> to_file(static_cast<size_t>(value_type->num_fields()), -1);
    const auto& file_read_fields = file_read_type->fields();
    for (size_t i = 0; i < to_file.size(); ++i) {
      const DataField& field = value_type->fields()[i];
      for (size_t j = 0; j < file_read_fields.size(); ++j) {
        if (file_read_fields[j].id == field.id &&
            file_read_fields[j].type->EqualsIgnoreNullable(*field.type)) {
          to_file[i] = static_cast<int>(j);
        }
      }
    }
    reader_options.predicate = options.skip_filter->RemapForPruning(to_file);
  }
  auto reader = (*format)->CreateReader(shared_file, file_read_type, reader_options);
  if (!reader.ok()) return reader.status().WithContext("data file " + path);
  return std::unique_ptr<KeyValueFileReader>(new KeyValueFileReader(
      path, meta.level, std::move(*reader), std::move(*evolution), std::move(file_read_type)));
}

Result<bool> KeyValueFileReader::Next(ColumnBatch* batch) {
  // When the file's columns are the read columns (same fields, same types, same order), the
  // format reader decodes straight into `batch`; otherwise through FileEvolution.
  ColumnBatch* decoded = direct_ ? batch : &file_batch_;
  batch->Clear();
  auto more = reader_->Next(decoded);
  if (!more.ok()) return more.status().WithContext("data file " + path_);
  if (!*more) return false;
  const int value_columns = decoded->num_columns() - 2;
  const ColumnVector& sequence = *decoded->column(value_columns);
  const ColumnVector& kind = *decoded->column(value_columns + 1);
  const int64_t n = decoded->num_rows();
  if (sequence.CountNulls() > 0 || kind.CountNulls() > 0) {
    return Status::Corruption(
        "data file " + path_ + ": null " +
        (sequence.CountNulls() > 0 ? kSequenceNumberFieldName : kValueKindFieldName) +
        " (the column is NOT NULL)");
  }
  const int8_t* kinds = kind.data<int8_t>();
  uint8_t bad = 0;
  for (int64_t i = 0; i < n; ++i) bad |= static_cast<uint8_t>(kinds[i]) > 3;
  if (bad != 0) {
    for (int64_t i = 0; i < n; ++i) {
      if (kinds[i] < 0 || kinds[i] > 3) {
        return Status::Corruption("data file " + path_ + ": " + kValueKindFieldName + " " +
                                  std::to_string(kinds[i]) + " is not a row kind (0..3)");
      }
    }
  }
  if (direct_) return true;
  SLUICE_RETURN_NOT_OK_CTX(evolution_.Apply(file_batch_, batch), "data file " + path_);
  const int out_values = batch->num_columns() - 2;
  AppendAll(sequence, batch->column(out_values));
  AppendAll(kind, batch->column(out_values + 1));
  return true;
}

}  // namespace sluice
