#include "sluice/table/source/split_reader.h"

#include "sluice/batch/column_take.h"
#include "sluice/index/deletion_vector_reader.h"
#include "sluice/table/source/delta_split_reader.h"
#include "sluice/table/source/diff_split_reader.h"
#include "sluice/table/source/merge_split_reader.h"
#include "sluice/table/source/raw_split_reader.h"
#include "sluice/table/source/read_columns.h"

namespace sluice {

namespace {

Status LoadDeletedPositions(const FileStoreTable& table, const DataSplit& split,
                            SplitReadOptions* options) {
  if (!options->deleted_positions.empty() || split.deletion_files.empty()) return Status::OK();
  options->deleted_positions.assign(split.data_files.size(), std::nullopt);
  for (size_t i = 0; i < split.deletion_files.size() && i < split.data_files.size(); ++i) {
    if (!split.deletion_files[i]) continue;
    SLUICE_ASSIGN_OR_RETURN(DeletionVector dv,
                            ReadDeletionVector(*table.io(), *split.deletion_files[i]));
    options->deleted_positions[i] = dv.ToSortedPositions();
  }
  return Status::OK();
}

// Append tables hold inserts only: prefixes the rows of a raw read with a `_ROW_KIND` column
// of "+I".
class InsertRowKindReader : public SplitReader {
 public:
  explicit InsertRowKindReader(std::unique_ptr<SplitReader> inner)
      : inner_(std::move(inner)), inner_batch_(inner_->output_type()) {
    std::vector<DataField> fields;
    fields.push_back(DataField{kRowKindFieldId, kRowKindFieldName, DataType::String(false),
                               std::nullopt, std::nullopt});
    for (const DataField& field : inner_->output_type()->fields()) fields.push_back(field);
    output_type_ = DataType::Row(std::move(fields));
  }

  const DataTypePtr& output_type() const override { return output_type_; }

  Result<bool> Next(ColumnBatch* batch) override {
    SLUICE_ASSIGN_OR_RETURN(bool more, inner_->Next(&inner_batch_));
    if (!more) return false;
    batch->Clear();
    const int64_t n = inner_batch_.num_rows();
    ColumnVector* kinds = batch->column(0);
    for (int64_t i = 0; i < n; ++i) kinds->AppendBytes("+I");
    for (int c = 0; c < inner_batch_.num_columns(); ++c) {
      AppendAll(*inner_batch_.column(c), batch->column(c + 1));
    }
    batch->set_num_rows(n);
    return true;
  }

 private:
  std::unique_ptr<SplitReader> inner_;
  ColumnBatch inner_batch_;
  DataTypePtr output_type_;
};

// A file of the split missing while the snapshot the read planned is gone too: snapshot expiry
// (of another process) deleted it during the read. Says so, and how to keep it from happening;
// any other error is returned as it is.
Status ExplainMissingFile(const SnapshotManager& snapshots, int64_t snapshot_id, Status st) {
  // (A diff split's sides are splits of their own, explained once, by the innermost reader.)
  constexpr std::string_view kExpired = "expired during the read";
  if (!st.IsNotFound() || snapshot_id <= 0 || st.message().find(kExpired) != std::string::npos) {
    return st;
  }
  Result<bool> exists = snapshots.SnapshotExists(snapshot_id);
  if (!exists.ok() || *exists) return st;
  return Status::NotFound("snapshot " + std::to_string(snapshot_id) + " of " +
                          snapshots.table_path() + ", which this read planned, " +
                          std::string(kExpired) + " and its files were deleted (" + st.message() +
                          "): read with a consumer-id, whose progress holds expiry back, or set "
                          "a longer snapshot.time-retained");
}

// Explains the errors of `inner` with ExplainMissingFile.
class ExpiryExplainingReader : public SplitReader {
 public:
  ExpiryExplainingReader(std::unique_ptr<SplitReader> inner, SnapshotManager snapshots,
                         int64_t snapshot_id)
      : inner_(std::move(inner)), snapshots_(std::move(snapshots)), snapshot_id_(snapshot_id) {}

  const DataTypePtr& output_type() const override { return inner_->output_type(); }

  Result<bool> Next(ColumnBatch* batch) override {
    Result<bool> more = inner_->Next(batch);
    if (!more.ok()) return ExplainMissingFile(snapshots_, snapshot_id_, more.status());
    return more;
  }

 private:
  std::unique_ptr<SplitReader> inner_;
  SnapshotManager snapshots_;
  int64_t snapshot_id_;
};

Result<std::unique_ptr<SplitReader>> OpenReader(const FileStoreTable& table,
                                                std::shared_ptr<const TableSchema> read_schema,
                                                DataSplit split, SplitReadOptions options) {
  if (split.is_diff) {
    SLUICE_ASSIGN_OR_RETURN(
        auto reader,
        DiffSplitReader::Open(table, std::move(read_schema), std::move(split), std::move(options)));
    return std::unique_ptr<SplitReader>(std::move(reader));
  }
  SLUICE_RETURN_NOT_OK(LoadDeletedPositions(table, split, &options));
  if (read_schema->is_primary_key_table()) {
    if (split.is_streaming) {
      SLUICE_ASSIGN_OR_RETURN(
          auto reader, DeltaSplitReader::Open(table, std::move(read_schema), std::move(split),
                                              std::move(options)));
      return std::unique_ptr<SplitReader>(std::move(reader));
    }
    // Raw-convertible files hold no retractions and no duplicate keys; a read that wants row
    // kinds still goes through the merge, which reports each row's stored kind.
    if (!split.raw_convertible || options.with_row_kind) {
      SLUICE_ASSIGN_OR_RETURN(
          auto reader, MergeSplitReader::Open(table, std::move(read_schema), std::move(split),
                                              std::move(options)));
      return std::unique_ptr<SplitReader>(std::move(reader));
    }
  }
  const bool with_row_kind = options.with_row_kind;
  SLUICE_ASSIGN_OR_RETURN(
      std::unique_ptr<RawSplitReader> reader,
      RawSplitReader::Open(table, std::move(read_schema), std::move(split), std::move(options)));
  if (with_row_kind)
    return std::unique_ptr<SplitReader>(new InsertRowKindReader(std::move(reader)));
  return std::unique_ptr<SplitReader>(std::move(reader));
}

}  // namespace

Result<std::unique_ptr<SplitReader>> OpenSplitReader(const FileStoreTable& table,
                                                     std::shared_ptr<const TableSchema> read_schema,
                                                     DataSplit split, SplitReadOptions options) {
  const int64_t snapshot_id = split.snapshot_id;
  Result<std::unique_ptr<SplitReader>> reader =
      OpenReader(table, std::move(read_schema), std::move(split), std::move(options));
  if (!reader.ok()) {
    return ExplainMissingFile(table.snapshot_manager(), snapshot_id, reader.status());
  }
  return std::unique_ptr<SplitReader>(std::make_unique<ExpiryExplainingReader>(
      std::move(reader).value(), table.snapshot_manager(), snapshot_id));
}

}  // namespace sluice
