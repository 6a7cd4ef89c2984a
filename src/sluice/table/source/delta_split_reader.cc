#include "sluice/table/source/delta_split_reader.h"
#include "sluice/table/source/split_read_util.h"

#include <utility>

#include "sluice/row_kind.h"

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
  SLUICE_RETURN_NOT_OK(CheckSplitFiles(split, options));
  SLUICE_RETURN_NOT_OK(CheckBatchSize(options));
  SLUICE_ASSIGN_OR_RETURN(ReadColumns columns, ReadColumns::Make(*read_schema, options, false));
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<const TimeZone> session_zone, LoadSessionZone(options));
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
    const int8_t* kinds = records_.column(kind_column)->data<int8_t>();
    rows_.clear();
    selection_.assign(static_cast<size_t>(n), 1);
    if (columns_.filter != nullptr) columns_.filter->Filter(records_, selection_.data());
    if (options_.drop_retractions) {
      for (int64_t i = 0; i < n; ++i) {
        if (IsRetract(static_cast<RowKind>(kinds[i]))) selection_[static_cast<size_t>(i)] = 0;
      }
    }
    for (int64_t i = 0; i < n; ++i) {
      if (selection_[static_cast<size_t>(i)] != 0) rows_.push_back(i);
    }
    if (rows_.empty()) continue;
    batch->Clear();
    columns_.AppendOutput(records_, rows_.data(), static_cast<int64_t>(rows_.size()), kinds, batch);
    return true;
  }
}

}  // namespace sluice
