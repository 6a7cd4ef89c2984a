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

}  // namespace

Result<std::unique_ptr<SplitReader>> OpenSplitReader(const FileStoreTable& table,
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

}  // namespace sluice
