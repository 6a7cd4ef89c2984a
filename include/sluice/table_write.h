// TableWrite: the writing half of a write (Java TableWrite): rows in, data files out. Each
// row's partition and bucket are computed as Java computes them; rows go to one writer per
// bucket (an LSM writer with compaction for primary-key tables, rolling files for append
// tables), restored from the latest snapshot. Made by WriteBuilder::NewWrite.
//
// Thread safety: not thread-safe; one thread writes.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "sluice/column_batch.h"
#include "sluice/commit_message.h"
#include "sluice/data_type.h"
#include "sluice/partition_spec.h"
#include "sluice/result.h"
#include "sluice/row_kind.h"

// The Arrow C Data Interface structs (sluice/arrow.h).
struct ArrowArray;
struct ArrowArrayStream;
struct ArrowSchema;

namespace sluice {

class FileStoreTable;
class FileStoreWrite;

class TableWrite {
 public:
  // The commit identifier of a batch write (Java BatchWriteBuilder.COMMIT_IDENTIFIER).
  static constexpr int64_t kBatchCommitIdentifier = INT64_MAX;

  ~TableWrite();
  TableWrite(const TableWrite&) = delete;
  TableWrite& operator=(const TableWrite&) = delete;

  // The ROW type every batch must have: the table's columns in schema order.
  const DataTypePtr& input_type() const { return input_type_; }

  // Writes the rows of `batch`. `kinds`: nullptr (all +I) or one kind per row (-U / +U / -D
  // only for primary-key tables). InvalidArgument when the batch's columns are not
  // input_type()'s (naming the first column that differs) or a NOT NULL column holds a null.
  Status Write(const ColumnBatch& batch, const RowKind* kinds = nullptr);
  // Writes the rows of an Arrow struct array (sluice/arrow.h) described by `schema`: its
  // columns are the table's, by name and in any order, each of the Arrow type the column
  // exports as (ImportArrowArray); an optional `_ROW_KIND` string column (row_kind_column.h)
  // gives the row kinds. Takes `array` over (released, on error too). InvalidArgument naming
  // a missing, unknown or repeated column, or a column whose type or buffers differ.
  Status Write(ArrowArray* array, const ArrowSchema& schema);
  // Writes every array of `stream` as above, then releases the stream (on error too). The
  // stream's own failure is an IOError with its get_last_error message.
  Status Write(ArrowArrayStream* stream);

  // Compacts every bucket of the partitions matching `partition` (all for an empty spec) as
  // of the latest snapshot: a full compaction (every file of a bucket into one sorted run at
  // the highest level) when `full`, else what the table's compaction strategy picks. The
  // result joins the next PrepareCommit.
  Status Compact(const PartitionSpec& partition = {}, bool full = false);

  // Flushes every bucket and returns the files written (and compacted) since the last call.
  // `wait_compaction`: wait for running compactions and include their results (batch writes).
  Result<std::vector<CommitMessage>> PrepareCommit(
      int64_t commit_identifier = kBatchCommitIdentifier, bool wait_compaction = true);

  // Stops the bucket writers and deletes files no PrepareCommit handed out.
  Status Close();

  int64_t rows_written() const { return rows_written_; }

 private:
  friend class WriteBuilder;
  TableWrite(std::shared_ptr<const FileStoreTable> table, std::unique_ptr<FileStoreWrite> write);

  std::shared_ptr<const FileStoreTable> table_;
  std::unique_ptr<FileStoreWrite> write_;
  DataTypePtr input_type_;
  int64_t rows_written_ = 0;
};

}  // namespace sluice
