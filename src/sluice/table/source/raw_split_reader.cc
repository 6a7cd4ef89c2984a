#include "sluice/table/source/raw_split_reader.h"

#include <algorithm>

#include "sluice/batch/column_take.h"
#include "sluice/format/file_format_registry.h"
#include "sluice/table/source/split_read_util.h"

namespace sluice {

RawSplitReader::RawSplitReader(const FileStoreTable& table,
                               std::shared_ptr<const TableSchema> read_schema, DataSplit split,
                               SplitReadOptions options, DataTypePtr read_type,
                               DataTypePtr output_type, std::vector<int> projection)
    : table_(table),
      read_schema_(std::move(read_schema)),
      split_(std::move(split)),
      options_(std::move(options)),
      read_type_(std::move(read_type)),
      output_type_(std::move(output_type)),
      projection_(std::move(projection)) {
  std::vector<int> sorted = projection_;
  std::sort(sorted.begin(), sorted.end());
  projection_distinct_ = std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end();
}

Result<std::unique_ptr<RawSplitReader>> RawSplitReader::Open(
    const FileStoreTable& table, std::shared_ptr<const TableSchema> read_schema, DataSplit split,
    SplitReadOptions options) {
  if (read_schema->is_primary_key_table() && !split.raw_convertible) {
    return Status::NotSupported("split of bucket " + std::to_string(split.bucket) +
                                " of a primary-key table needs a merge read");
  }
  SLUICE_RETURN_NOT_OK(CheckSplitFiles(split, options));
  std::vector<int> projection;
  std::vector<DataField> output_fields;
  const DataTypePtr row_type = read_schema->LogicalRowType();
  if (options.projection.empty()) {
    for (int i = 0; i < row_type->num_fields(); ++i) projection.push_back(i);
  } else {
    for (const std::string& name : options.projection) {
      const int index = row_type->FieldIndex(name);
      if (index < 0) {
        return Status::InvalidArgument("projected column '" + name + "' is not in schema " +
                                       std::to_string(read_schema->id()));
      }
      projection.push_back(index);
    }
  }
  for (int index : projection) output_fields.push_back(row_type->fields()[index]);
  DataTypePtr output_type = DataType::Row(std::move(output_fields));

  // Only the projected and filtered columns are read (and cast): a column that neither needs
  // is never decoded, so a value that no longer casts in it cannot fail the read.
  std::vector<bool> needed(static_cast<size_t>(row_type->num_fields()), false);
  for (int index : projection) needed[static_cast<size_t>(index)] = true;
  SLUICE_RETURN_NOT_OK(MarkFilterFields(options.filter, &needed));
  std::vector<int> read_position(needed.size(), -1);
  std::vector<DataField> read_fields;
  for (size_t i = 0; i < needed.size(); ++i) {
    if (!needed[i]) continue;
    read_position[i] = static_cast<int>(read_fields.size());
    read_fields.push_back(row_type->fields()[i]);
  }
  for (int& index : projection) index = read_position[static_cast<size_t>(index)];
  if (options.filter != nullptr) options.filter = options.filter->Remap(read_position);
  return std::unique_ptr<RawSplitReader>(new RawSplitReader(
      table, std::move(read_schema), std::move(split), std::move(options),
      DataType::Row(std::move(read_fields)), std::move(output_type), std::move(projection)));
}

Status RawSplitReader::OpenFile(size_t index) {
  const DataFileMeta& meta = split_.data_files[index];
  const std::string& path = split_.data_file_paths[index];
  std::shared_ptr<const TableSchema> file_schema = read_schema_;
  if (meta.schema_id != read_schema_->id()) {
    SLUICE_ASSIGN_OR_RETURN(file_schema, table_.SchemaById(meta.schema_id));
  }
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<const TimeZone> session_zone, LoadSessionZone(options_));
  SLUICE_ASSIGN_OR_RETURN(
      FileEvolution evolution,
      FileEvolution::Make(*file_schema, read_type_, read_schema_->partition_keys(),
                          split_.partition_values, std::move(session_zone)));
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file,
                          table_.io()->OpenForReadWithSize(path, meta.file_size));
  std::shared_ptr<RandomAccessFile> shared_file = std::move(file);
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<const FileFormat> format, DetectFileFormat(*shared_file));
  ReaderOptions reader_options;
  reader_options.batch_size = options_.batch_size;
  if (!options_.deleted_positions.empty() && options_.deleted_positions[index] &&
      !options_.deleted_positions[index]->empty()) {
    reader_options.row_positions =
        LivePositions(meta.row_count, *options_.deleted_positions[index]);
  }
  auto reader = format->CreateReader(shared_file, evolution.file_read_type(), reader_options);
  if (!reader.ok()) return reader.status().WithContext("data file " + path);
  file_reader_ = std::move(*reader);
  file_batch_ = std::make_unique<ColumnBatch>(evolution.file_read_type());
  read_batch_ = std::make_unique<ColumnBatch>(evolution.read_type());
  evolution_.emplace(std::move(evolution));
  return Status::OK();
}

Result<bool> RawSplitReader::Next(ColumnBatch* batch) {
  while (true) {
    if (file_reader_ == nullptr) {
      if (next_file_ >= split_.data_files.size()) return false;
      SLUICE_RETURN_NOT_OK(OpenFile(next_file_++));
    }
    file_batch_->Clear();
    auto more = file_reader_->Next(file_batch_.get());
    const std::string& path = split_.data_file_paths[next_file_ - 1];
    if (!more.ok()) return more.status().WithContext("data file " + path);
    if (!*more) {
      file_reader_.reset();
      continue;
    }
    read_batch_->Clear();
    SLUICE_RETURN_NOT_OK_CTX(evolution_->Move(file_batch_.get(), read_batch_.get()),
                             "data file " + path);
    const int64_t n = read_batch_->num_rows();
    if (n == 0) continue;
    if (options_.filter == nullptr && projection_distinct_) {
      // Every row stays and no column goes out twice: the columns move to the output rather
      // than being copied a second time (a third of a full scan's time).
      batch->Clear();
      for (size_t c = 0; c < projection_.size(); ++c) {
        read_batch_->column(projection_[c])->SwapRows(batch->column(static_cast<int>(c)));
      }
      batch->set_num_rows(n);
      return true;
    }
    selected_rows_.clear();
    if (options_.filter != nullptr) {
      selection_.assign(static_cast<size_t>(n), 1);
      options_.filter->Filter(*read_batch_, selection_.data());
      for (int64_t i = 0; i < n; ++i) {
        if (selection_[static_cast<size_t>(i)] != 0) selected_rows_.push_back(i);
      }
    } else {
      for (int64_t i = 0; i < n; ++i) selected_rows_.push_back(i);
    }
    if (selected_rows_.empty()) continue;
    batch->Clear();
    const auto count = static_cast<int64_t>(selected_rows_.size());
    for (size_t c = 0; c < projection_.size(); ++c) {
      TakeRows(*read_batch_->column(projection_[c]), selected_rows_.data(), count,
               batch->column(static_cast<int>(c)));
    }
    batch->set_num_rows(count);
    return true;
  }
}

}  // namespace sluice
