#include "sluice/table/source/diff_split_reader.h"

#include <utility>

#include "sluice/row_kind.h"
#include "sluice/types/value_comparator.h"

namespace sluice {

namespace {

// The merged rows of `files`, every read-schema column after a leading row kind.
Result<std::unique_ptr<SplitReader>> OpenSide(
    const FileStoreTable& table, std::shared_ptr<const TableSchema> read_schema,
    const DataSplit& split, std::vector<DataFileMeta> files, std::vector<std::string> paths,
    std::vector<std::optional<DeletionFile>> deletions, const SplitReadOptions& options) {
  DataSplit side = split;
  side.is_diff = false;
  side.is_streaming = false;
  side.raw_convertible = false;
  side.before_files.clear();
  side.before_file_paths.clear();
  side.before_deletion_files.clear();
  side.data_files = std::move(files);
  side.data_file_paths = std::move(paths);
  side.deletion_files = std::move(deletions);
  SplitReadOptions merged;
  merged.batch_size = options.batch_size;
  merged.session_time_zone = options.session_time_zone;
  merged.with_row_kind = true;
  return OpenSplitReader(table, std::move(read_schema), std::move(side), std::move(merged));
}

}  // namespace

Result<std::unique_ptr<DiffSplitReader>> DiffSplitReader::Open(
    const FileStoreTable& table, std::shared_ptr<const TableSchema> read_schema, DataSplit split,
    SplitReadOptions options) {
  if (!read_schema->is_primary_key_table()) {
    return Status::InvalidArgument("diff split of " + split.bucket_path +
                                   ": a diff needs a primary-key table");
  }
  SLUICE_ASSIGN_OR_RETURN(ReadColumns columns,
                          ReadColumns::Make(*read_schema, options, /*all_fields=*/true));
  Side before;
  SLUICE_ASSIGN_OR_RETURN(before.reader,
                          OpenSide(table, read_schema, split, split.before_files,
                                   split.before_file_paths, split.before_deletion_files, options));
  Side after;
  SLUICE_ASSIGN_OR_RETURN(
      after.reader,
      OpenSide(table, read_schema, split, std::move(split.data_files),
               std::move(split.data_file_paths), std::move(split.deletion_files), options));
  before.batch = std::make_unique<ColumnBatch>(before.reader->output_type());
  after.batch = std::make_unique<ColumnBatch>(after.reader->output_type());
  return std::unique_ptr<DiffSplitReader>(new DiffSplitReader(
      std::move(options), std::move(columns), std::move(before), std::move(after)));
}

DiffSplitReader::DiffSplitReader(SplitReadOptions options, ReadColumns columns, Side before,
                                 Side after)
    : options_(std::move(options)),
      columns_(std::move(columns)),
      before_(std::move(before)),
      after_(std::move(after)),
      staged_(columns_.value_type) {}

Result<bool> DiffSplitReader::Ready(Side* side) {
  while (!side->done && side->row >= side->batch->num_rows()) {
    SLUICE_ASSIGN_OR_RETURN(bool more, side->reader->Next(side->batch.get()));
    side->row = 0;
    side->done = !more;
  }
  return !side->done;
}

int DiffSplitReader::CompareKeys(const Side& before, const Side& after) const {
  const std::vector<DataField>& fields = columns_.value_type->fields();
  for (int key : columns_.key_columns) {
    const int c = CompareValues(before.batch->column(key + 1)->GetValue(before.row),
                                after.batch->column(key + 1)->GetValue(after.row),
                                *fields[static_cast<size_t>(key)].type);
    if (c != 0) return c;
  }
  return 0;
}

bool DiffSplitReader::SameRow(const Side& before, const Side& after) const {
  const int n = columns_.value_type->num_fields();
  for (int c = 1; c <= n; ++c) {
    if (!(before.batch->column(c)->GetValue(before.row) ==
          after.batch->column(c)->GetValue(after.row))) {
      return false;
    }
  }
  return true;
}

Status DiffSplitReader::Stage(const Side& side, RowKind kind) {
  const int n = columns_.value_type->num_fields();
  ValueList row;
  row.reserve(static_cast<size_t>(n));
  for (int c = 1; c <= n; ++c) row.push_back(side.batch->column(c)->GetValue(side.row));
  SLUICE_RETURN_NOT_OK(staged_.AppendRow(row));
  kinds_.push_back(static_cast<int8_t>(RowKindToByte(kind)));
  return Status::OK();
}

Result<bool> DiffSplitReader::Next(ColumnBatch* batch) {
  // The merged sides report their kind as the leading `_ROW_KIND` string.
  const auto kind_of = [](const Side& side) {
    return RowKindFromShortString(side.batch->column(0)->GetValue(side.row).bytes())
        .value_or(RowKind::kInsert);
  };
  const bool keep_deletes = options_.with_row_kind;
  while (true) {
    staged_.Clear();
    kinds_.clear();
    while (staged_.num_rows() < options_.batch_size) {
      SLUICE_ASSIGN_OR_RETURN(bool has_before, Ready(&before_));
      SLUICE_ASSIGN_OR_RETURN(bool has_after, Ready(&after_));
      if (!has_before && !has_after) break;
      const int c = !has_before ? 1 : !has_after ? -1 : CompareKeys(before_, after_);
      if (c < 0) {
        if (keep_deletes) SLUICE_RETURN_NOT_OK(Stage(before_, RowKind::kDelete));
        ++before_.row;
      } else if (c > 0) {
        SLUICE_RETURN_NOT_OK(Stage(after_, kind_of(after_)));
        ++after_.row;
      } else {
        if (!SameRow(before_, after_)) SLUICE_RETURN_NOT_OK(Stage(after_, kind_of(after_)));
        ++before_.row;
        ++after_.row;
      }
    }
    const int64_t n = staged_.num_rows();
    if (n == 0) return false;
    selection_.assign(static_cast<size_t>(n), 1);
    if (columns_.filter != nullptr) columns_.filter->Filter(staged_, selection_.data());
    rows_.clear();
    for (int64_t i = 0; i < n; ++i) {
      if (selection_[static_cast<size_t>(i)] != 0) rows_.push_back(i);
    }
    if (rows_.empty()) continue;
    batch->Clear();
    columns_.AppendOutput(staged_, rows_.data(), static_cast<int64_t>(rows_.size()), kinds_.data(),
                          batch);
    return true;
  }
}

}  // namespace sluice
