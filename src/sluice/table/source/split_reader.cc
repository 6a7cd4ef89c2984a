#include "sluice/table/source/split_reader.h"

#include "sluice/index/deletion_vector_reader.h"
#include "sluice/table/source/raw_split_reader.h"

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

}  // namespace

Result<std::unique_ptr<SplitReader>> OpenSplitReader(const FileStoreTable& table,
                                                     std::shared_ptr<const TableSchema> read_schema,
                                                     DataSplit split, SplitReadOptions options) {
  SLUICE_RETURN_NOT_OK(LoadDeletedPositions(table, split, &options));
  const bool raw = !table.schema().is_primary_key_table() || split.raw_convertible ||
                   !split.deletion_files.empty();
  if (!raw || split.is_streaming || options.with_row_kind) {
    return Status::NotSupported("merge-on-read and row-kind split reads (issue 5)");
  }
  SLUICE_ASSIGN_OR_RETURN(
      std::unique_ptr<RawSplitReader> reader,
      RawSplitReader::Open(table, std::move(read_schema), std::move(split), std::move(options)));
  return std::unique_ptr<SplitReader>(std::move(reader));
}

}  // namespace sluice
