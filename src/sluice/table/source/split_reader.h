// SplitReader: the rows of one DataSplit as column batches, whatever the split needs (Java
// SplitRead): raw files for append tables, raw-convertible primary-key splits and tables with
// deletion vectors (vectors applied); a merge of the sorted runs for other primary-key splits;
// every row with its row kind for streaming delta splits.
//
// Thread safety: a reader is not thread-safe; read different splits on different threads.
#pragma once

#include <memory>

#include "sluice/column_batch.h"
#include "sluice/meta/table_schema.h"
#include "sluice/result.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/source/data_split.h"
#include "sluice/table/source/split_read_options.h"

namespace sluice {

class SplitReader {
 public:
  virtual ~SplitReader() = default;

  // The projected row type of every batch.
  virtual const DataTypePtr& output_type() const = 0;

  // Replaces `batch` (of output_type()) with the next non-empty run of rows; false at the end.
  virtual Result<bool> Next(ColumnBatch* batch) = 0;
};

// Opens the reader `split` needs. Deletion vectors named by `split.deletion_files` are loaded
// here (options.deleted_positions is filled from them when the caller left it empty). A file
// of the split missing because snapshot expiry took the snapshot the read planned (and its
// files) during the read is a NotFound that names the snapshot, says it expired during the read
// and suggests a consumer-id or a longer snapshot.time-retained; from here or from Next().
Result<std::unique_ptr<SplitReader>> OpenSplitReader(const FileStoreTable& table,
                                                     std::shared_ptr<const TableSchema> read_schema,
                                                     DataSplit split, SplitReadOptions options);

}  // namespace sluice
