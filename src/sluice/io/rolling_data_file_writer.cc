#include "sluice/io/rolling_data_file_writer.h"

#include <chrono>
#include <numeric>

#include "sluice/batch/column_take.h"
#include "sluice/format/file_format_registry.h"
#include "sluice/io/simple_stats_converter.h"
#include "sluice/row/binary_row.h"
#include "sluice/types/time_zone.h"

namespace sluice {

namespace {

// Java RollingFileWriter.CHECK_ROLLING_RECORD_CNT: the file size is looked at every this many
// records.
constexpr int64_t kCheckRollingRecordCount = 1000;
// Rows buffered by Write(KeyValue) before they go to the format writer.
constexpr int64_t kPendingRows = 1024;

int64_t RawBytes(const ColumnVector& v) {
  int64_t n = static_cast<int64_t>(v.values().size() + v.offsets().size() + v.validity().size());
  for (int i = 0; i < v.num_children(); ++i) n += RawBytes(*v.child(i));
  return n;
}

int64_t RawBytes(const ColumnBatch& batch) {
  int64_t n = 0;
  for (int i = 0; i < batch.num_columns(); ++i) n += RawBytes(*batch.column(i));
  return n;
}

// Java Timestamp.fromLocalDateTime(LocalDateTime.now()): the wall clock of the process's zone
// (the JVM's in Java) as UTC millis.
Timestamp LocalNowAsUtc() {
  const auto now = std::chrono::system_clock::now();
  const int64_t millis =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
  return Timestamp{TimeZone::Process()->LocalMillis(millis), 0};
}

Result<std::string> EncodeKeyRow(const ColumnBatch& batch, int64_t row, const DataType& key_type) {
  ValueList key;
  key.reserve(static_cast<size_t>(key_type.num_fields()));
  for (int i = 0; i < key_type.num_fields(); ++i) key.push_back(batch.column(i)->GetValue(row));
  SLUICE_ASSIGN_OR_RETURN(std::string bytes, EncodeBinaryRow(key, key_type));
  return SerializeBinaryRow(bytes, key_type.num_fields());
}

}  // namespace

DataTypePtr KeyValueFileType(const TableSchema& schema) {
  std::vector<DataField> fields;
  for (const std::string& name : schema.trimmed_primary_keys()) {
    const DataField* f = schema.FieldByName(name);
    DataField key = *f;
    key.id = kKeyFieldIdStart + f->id;
    key.name = kKeyFieldNamePrefix + f->name;
    key.type = f->type->WithNullable(false);
    key.description.reset();
    key.default_value.reset();
    fields.push_back(std::move(key));
  }
  fields.push_back(DataField{kSequenceNumberFieldId, kSequenceNumberFieldName,
                             DataType::BigInt(false), std::nullopt, std::nullopt});
  fields.push_back(DataField{kValueKindFieldId, kValueKindFieldName, DataType::TinyInt(false),
                             std::nullopt, std::nullopt});
  for (const DataField& f : schema.fields()) fields.push_back(f);
  return DataType::Row(std::move(fields), false);
}

Result<std::shared_ptr<DataFileWriterFactory>> DataFileWriterFactory::Make(
    std::shared_ptr<FileIO> io, std::shared_ptr<const TableSchema> schema,
    const CoreOptions& options, std::string bucket_path) {
  std::shared_ptr<DataFileWriterFactory> f(
      new DataFileWriterFactory(std::move(io), std::move(schema), options, std::move(bucket_path)));
  SLUICE_ASSIGN_OR_RETURN(f->format_, FileFormatByName(options.file_format()));
  f->writer_options_.compression = options.file_compression();
  f->writer_options_.compression_level = options.file_compression_zstd_level();
  for (const auto& [key, value] : options.options()) f->writer_options_.options[key] = value;
  const TableSchema& s = *f->schema_;
  f->target_file_size_ = options.TargetFileSize(s.is_primary_key_table());
  f->dense_stats_ = options.metadata_stats_dense_store();
  f->row_type_ = s.LogicalRowType();
  f->key_type_ = s.LogicalTrimmedPrimaryKeysType();
  const bool avro = f->format_->identifier() == "avro";
  SLUICE_ASSIGN_OR_RETURN(f->append_modes_, StatsModesOfColumns(options, s.FieldNames(), avro));
  if (s.is_primary_key_table()) {
    f->key_value_type_ = KeyValueFileType(s);
    std::vector<std::string> names;
    for (const DataField& field : f->key_value_type_->fields()) names.push_back(field.name);
    SLUICE_ASSIGN_OR_RETURN(f->key_value_modes_, StatsModesOfColumns(options, names, avro));
    SLUICE_ASSIGN_OR_RETURN(auto per_level, StatsModesPerLevel(options));
    for (const auto& [level, mode] : per_level) {
      SLUICE_ASSIGN_OR_RETURN(f->key_value_modes_per_level_[level],
                              StatsModesOfColumns(options, names, avro, mode));
    }
  }
  return f;
}

void DataFileWriterFactory::DeleteUnreferenced(const std::vector<DataFileMeta>& files) const {
  for (const DataFileMeta& file : files) {
    // Best effort: no snapshot names the file, so one left behind is an orphan for orphan-file
    // cleanup, never a broken table.
    io_->Delete(path_factory_.PathOf(file.file_name), /*recursive=*/false).IgnoreError();
  }
}

std::unique_ptr<RollingDataFileWriter> DataFileWriterFactory::NewAppendWriter(
    int64_t first_sequence_number) {
  return std::unique_ptr<RollingDataFileWriter>(new RollingDataFileWriter(
      shared_from_this(), DataFileLayout::kAppend, 0, FileSource::kAppend, first_sequence_number));
}

std::unique_ptr<RollingDataFileWriter> DataFileWriterFactory::NewKeyValueWriter(int32_t level,
                                                                                FileSource source) {
  return std::unique_ptr<RollingDataFileWriter>(
      new RollingDataFileWriter(shared_from_this(), DataFileLayout::kKeyValue, level, source, 0));
}

std::unique_ptr<RollingDataFileWriter> DataFileWriterFactory::NewChangelogWriter(int32_t level) {
  return std::unique_ptr<RollingDataFileWriter>(
      new RollingDataFileWriter(shared_from_this(), DataFileLayout::kKeyValue, level,
                                FileSource::kAppend, 0, /*changelog=*/true));
}

RollingDataFileWriter::RollingDataFileWriter(std::shared_ptr<DataFileWriterFactory> factory,
                                             DataFileLayout layout, int32_t level,
                                             FileSource source, int64_t first_sequence_number,
                                             bool changelog)
    : factory_(std::move(factory)),
      layout_(layout),
      level_(level),
      source_(source),
      changelog_(changelog),
      next_sequence_number_(first_sequence_number) {
  modes_ = &factory_->append_modes_;
  if (layout_ == DataFileLayout::kKeyValue) {
    auto found = factory_->key_value_modes_per_level_.find(level);
    modes_ = found != factory_->key_value_modes_per_level_.end() ? &found->second
                                                                 : &factory_->key_value_modes_;
  }
}

RollingDataFileWriter::~RollingDataFileWriter() = default;

const DataTypePtr& RollingDataFileWriter::write_type() const {
  return layout_ == DataFileLayout::kAppend ? factory_->row_type_ : factory_->key_value_type_;
}

Status RollingDataFileWriter::Write(const ColumnBatch& batch) {
  SLUICE_RETURN_NOT_OK(FlushPending());
  const int64_t n = batch.num_rows();
  int64_t start = 0;
  while (start < n) {
    if (!writer_) SLUICE_RETURN_NOT_OK(OpenFile());
    const int64_t to_check = kCheckRollingRecordCount - record_count_ % kCheckRollingRecordCount;
    const int64_t remaining = n - start;
    // No size check falls inside the rest, or the file cannot reach the target even if the
    // rest were stored uncompressed: write it in one piece.
    if (remaining < to_check ||
        writer_->EstimatedSize() + RawBytes(batch) < factory_->target_file_size_) {
      SLUICE_RETURN_NOT_OK(WriteSlice(batch, start, n));
      break;
    }
    SLUICE_RETURN_NOT_OK(WriteSlice(batch, start, start + to_check));
    start += to_check;
    if (writer_->EstimatedSize() >= factory_->target_file_size_) {
      SLUICE_RETURN_NOT_OK(CloseFile());
    }
  }
  return Status::OK();
}

Status RollingDataFileWriter::WriteSlice(const ColumnBatch& batch, int64_t begin, int64_t end) {
  if (begin == 0 && end == batch.num_rows()) return WriteChunk(batch);
  if (!chunk_) chunk_ = std::make_unique<ColumnBatch>(batch.schema());
  chunk_->Clear();
  std::vector<int64_t> rows(static_cast<size_t>(end - begin));
  std::iota(rows.begin(), rows.end(), begin);
  for (int c = 0; c < batch.num_columns(); ++c) {
    TakeRows(*batch.column(c), rows.data(), static_cast<int64_t>(rows.size()), chunk_->column(c));
  }
  chunk_->set_num_rows(end - begin);
  return WriteChunk(*chunk_);
}

Status RollingDataFileWriter::WriteChunk(const ColumnBatch& batch) {
  const int64_t n = batch.num_rows();
  if (n == 0) return Status::OK();
  SLUICE_RETURN_NOT_OK(writer_->Write(batch));
  if (layout_ == DataFileLayout::kAppend) {
    if (file_rows_ == 0) min_seq_ = next_sequence_number_;
    next_sequence_number_ += n;
    max_seq_ = next_sequence_number_ - 1;
  } else {
    const DataType& key_type = *factory_->key_type_;
    const int k = key_type.num_fields();
    const int64_t* seq = batch.column(k)->data<int64_t>();
    const int8_t* kind = batch.column(k + 1)->data<int8_t>();
    int64_t lo = file_rows_ == 0 ? seq[0] : min_seq_;
    int64_t hi = file_rows_ == 0 ? seq[0] : max_seq_;
    int64_t deletes = 0;
    for (int64_t i = 0; i < n; ++i) {
      lo = seq[i] < lo ? seq[i] : lo;
      hi = seq[i] > hi ? seq[i] : hi;
      deletes += (kind[i] == RowKindToByte(RowKind::kUpdateBefore) ||
                  kind[i] == RowKindToByte(RowKind::kDelete));
    }
    min_seq_ = lo;
    max_seq_ = hi;
    delete_rows_ += deletes;
    if (file_rows_ == 0) {
      SLUICE_ASSIGN_OR_RETURN(min_key_, EncodeKeyRow(batch, 0, key_type));
    }
    SLUICE_ASSIGN_OR_RETURN(max_key_, EncodeKeyRow(batch, n - 1, key_type));
  }
  file_rows_ += n;
  record_count_ += n;
  return Status::OK();
}

Status RollingDataFileWriter::Write(const KeyValue& kv) {
  if (!pending_) pending_ = std::make_unique<ColumnBatch>(factory_->key_value_type_);
  ValueList row;
  row.reserve(kv.key.size() + 2 + kv.value.size());
  row.insert(row.end(), kv.key.begin(), kv.key.end());
  row.push_back(Value::Int64(kv.sequence_number));
  row.push_back(Value::Int8(static_cast<int8_t>(RowKindToByte(kv.kind))));
  row.insert(row.end(), kv.value.begin(), kv.value.end());
  SLUICE_RETURN_NOT_OK(pending_->AppendRow(row));
  if (pending_->num_rows() >= kPendingRows) return FlushPending();
  return Status::OK();
}

Status RollingDataFileWriter::FlushPending() {
  if (!pending_ || pending_->num_rows() == 0) return Status::OK();
  std::unique_ptr<ColumnBatch> batch = std::move(pending_);
  Status st = Write(*batch);
  batch->Clear();
  pending_ = std::move(batch);
  return st;
}

Status RollingDataFileWriter::OpenFile() {
  DataFilePathFactory& paths = factory_->path_factory_;
  file_name_ = changelog_ ? paths.NewChangelogFileName() : paths.NewDataFileName();
  const std::string path = paths.PathOf(file_name_);
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<WritableFile> file,
                          factory_->io_->OpenForWrite(path, /*overwrite=*/false));
  written_paths_.push_back(path);
  SLUICE_ASSIGN_OR_RETURN(writer_, factory_->format_->CreateWriter(std::move(file), write_type(),
                                                                   factory_->writer_options_));
  file_rows_ = 0;
  delete_rows_ = 0;
  return Status::OK();
}

Status RollingDataFileWriter::CloseFile() {
  std::unique_ptr<FormatWriter> writer = std::move(writer_);
  SLUICE_ASSIGN_OR_RETURN(WriteResult written, writer->Finish());
  const std::string path = factory_->path_factory_.PathOf(file_name_);
  if (written.stats.size() != static_cast<size_t>(write_type()->num_fields())) {
    return Status::Internal("data file " + path + ": the format writer returned " +
                            std::to_string(written.stats.size()) + " column statistics for " +
                            std::to_string(write_type()->num_fields()) + " columns");
  }
  const std::vector<StatsMode>& modes = *modes_;
  const std::vector<DataField>& fields = write_type()->fields();
  for (size_t i = 0; i < written.stats.size(); ++i) {
    written.stats[i] = ApplyStatsMode(written.stats[i], modes[i], *fields[i].type);
  }

  DataFileMeta meta;
  meta.file_name = file_name_;
  meta.file_size = written.file_size;
  meta.row_count = file_rows_;
  meta.min_sequence_number = min_seq_;
  meta.max_sequence_number = max_seq_;
  meta.schema_id = factory_->schema_->id();
  meta.level = level_;
  meta.creation_time = LocalNowAsUtc();
  meta.file_source = source_;
  const std::vector<DataField>& table_fields = factory_->schema_->fields();
  if (layout_ == DataFileLayout::kAppend) {
    meta.min_key = EmptySerializedRow();
    meta.max_key = EmptySerializedRow();
    meta.key_stats = EmptySimpleStats();
    meta.delete_row_count = 0;
    SLUICE_ASSIGN_OR_RETURN(ConvertedStats values,
                            ToSimpleStats(written.stats, table_fields, factory_->dense_stats_));
    meta.value_stats = std::move(values.stats);
    meta.value_stats_cols = std::move(values.columns);
  } else {
    const size_t k = static_cast<size_t>(factory_->key_type_->num_fields());
    meta.min_key = std::move(min_key_);
    meta.max_key = std::move(max_key_);
    std::vector<ColumnStats> key_stats(written.stats.begin(), written.stats.begin() + k);
    SLUICE_ASSIGN_OR_RETURN(meta.key_stats,
                            ToSimpleStatsAllMode(key_stats, factory_->key_type_->fields()));
    std::vector<ColumnStats> value_stats(written.stats.begin() + k + 2, written.stats.end());
    SLUICE_ASSIGN_OR_RETURN(ConvertedStats values,
                            ToSimpleStats(value_stats, table_fields, factory_->dense_stats_));
    meta.value_stats = std::move(values.stats);
    meta.value_stats_cols = std::move(values.columns);
    meta.delete_row_count = delete_rows_;
  }
  results_.push_back(std::move(meta));
  return Status::OK();
}

Result<std::vector<DataFileMeta>> RollingDataFileWriter::Close() {
  SLUICE_RETURN_NOT_OK(FlushPending());
  if (writer_) SLUICE_RETURN_NOT_OK(CloseFile());
  std::vector<DataFileMeta> out = std::move(results_);
  results_.clear();
  written_paths_.clear();
  return out;
}

void RollingDataFileWriter::Abort() {
  writer_.reset();
  for (const std::string& path : written_paths_) {
    // Best effort: an aborted file is named by nothing; one left behind is an orphan.
    factory_->io_->Delete(path, /*recursive=*/false).IgnoreError();
  }
  written_paths_.clear();
  results_.clear();
}

}  // namespace sluice
