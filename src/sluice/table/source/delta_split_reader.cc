#include "sluice/table/source/delta_split_reader.h"

#include <utility>

namespace sluice {

DeltaSplitReader::DeltaSplitReader(const FileStoreTable& table,
                                   std::shared_ptr<const TableSchema> read_schema, DataSplit split,
                                   SplitReadOptions options, ReadColumns columns,
                                   std::shared_ptr<const TimeZone> session_zone)
    : table_(table),
      read_schema_(std::move(read_schema)),
      split_(std::move(split)),
      options_(std::move(options)),
      columns_(std::move(columns)),
      session_zone_(std::move(session_zone)),
      records_(KeyValueFileReader::RecordType(columns_.value_type)) {}

Result<std::unique_ptr<DeltaSplitReader>> DeltaSplitReader::Open(
    const FileStoreTable& table, std::shared_ptr<const TableSchema> read_schema, DataSplit split,
    SplitReadOptions options) {
  if (split.data_file_paths.size() != split.data_files.size()) {
    return Status::InvalidArgument("split has " + std::to_string(split.data_files.size()) +
                                   " data files but " +
                                   std::to_string(split.data_file_paths.size()) + " paths");
  }
  if (options.batch_size <= 0) {
    return Status::InvalidArgument("batch size " + std::to_string(options.batch_size) +
                                   " is not positive");
  }
  if (!options.deleted_positions.empty() &&
      options.deleted_positions.size() != split.data_files.size()) {
    return Status::InvalidArgument(
        "deleted positions given for " + std::to_string(options.deleted_positions.size()) +
        " files of a split of " + std::to_string(split.data_files.size()));
  }
  SLUICE_ASSIGN_OR_RETURN(ReadColumns columns, ReadColumns::Make(*read_schema, options, false));
  std::shared_ptr<const TimeZone> session_zone;
  if (!options.session_time_zone.empty()) {
    SLUICE_ASSIGN_OR_RETURN(session_zone, TimeZone::Load(options.session_time_zone));
  }
  return std::unique_ptr<DeltaSplitReader>(
      new DeltaSplitReader(table, std::move(read_schema), std::move(split), std::move(options),
                           std::move(columns), std::move(session_zone)));
}

Result<bool> DeltaSplitReader::Next(ColumnBatch* batch) {
  const int kind_column = columns_.value_type->num_fields() + 1;
  while (true) {
    if (reader_ == nullptr) {
      if (next_file_ >= split_.data_files.size()) return false;
      const size_t file = next_file_++;
      KeyValueFileReader::Options file_options;
      file_options.batch_size = options_.batch_size;
      file_options.session_zone = session_zone_;
      file_options.skip_filter = columns_.filter;
      if (!options_.deleted_positions.empty() && options_.deleted_positions[file]) {
        file_options.deleted = &*options_.deleted_positions[file];
      }
      SLUICE_ASSIGN_OR_RETURN(
          reader_, KeyValueFileReader::Open(table_, *read_schema_, columns_.value_type, split_,
                                            file, file_options));
    }
    SLUICE_ASSIGN_OR_RETURN(bool more, reader_->Next(&records_));
    if (!more) {
      reader_.reset();
      continue;
    }
    const int64_t n = records_.num_rows();
    rows_.clear();
    if (columns_.filter != nullptr) {
      selection_.assign(static_cast<size_t>(n), 1);
      columns_.filter->Filter(records_, selection_.data());
      for (int64_t i = 0; i < n; ++i) {
        if (selection_[static_cast<size_t>(i)] != 0) rows_.push_back(i);
      }
    } else {
      for (int64_t i = 0; i < n; ++i) rows_.push_back(i);
    }
    if (rows_.empty()) continue;
    batch->Clear();
    columns_.AppendOutput(records_, rows_.data(), static_cast<int64_t>(rows_.size()),
                          records_.column(kind_column)->data<int8_t>(), batch);
    return true;
  }
}

}  // namespace sluice
