// PostponeBucketWriter: the writer of the postpone bucket (`bucket-postpone`, bucket -2) of a
// `bucket = -2` primary-key table (Java PostponeBucketWriter): rows are written as they come,
// neither sorted nor merged, into level-0 key-value files whose records all carry sequence
// number -1 (Java's KeyValue.UNKNOWN_SEQUENCE: the postpone compaction replays the files in
// creation order into real buckets, whose writers number the records). The factory is the
// postpone table's (file_store_write.h: avro where the schema allows, `metadata.stats-mode` none,
// the data-file prefix naming the commit user and writer).
//
// A retraction (-U / -D) is checked once against the merge function, which refuses it for the
// engines that cannot take one (first-row, aggregation without retraction), as Java does.
//
// Thread safety: not thread-safe; one writer thread.
#pragma once

#include <memory>
#include <vector>

#include "sluice/io/record_writer.h"
#include "sluice/io/rolling_data_file_writer.h"
#include "sluice/lsm/merge_function.h"

namespace sluice {

class PostponeBucketWriter : public RecordWriter {
 public:
  static Result<std::unique_ptr<PostponeBucketWriter>> Make(
      std::shared_ptr<DataFileWriterFactory> factory, const CoreOptions& options);
  ~PostponeBucketWriter() override;

  Status Write(const ColumnBatch& batch, const int64_t* rows, int64_t n,
               const RowKind* kinds) override;
  Result<CommitIncrement> PrepareCommit(bool wait_compaction) override;
  // Java: the postpone bucket's sequence numbers are never used.
  int64_t max_sequence_number() const override { return 0; }
  Status Close() override;

 private:
  PostponeBucketWriter(std::shared_ptr<DataFileWriterFactory> factory,
                       std::unique_ptr<MergeFunction> merge_function);
  Status ValidateRetract(const ColumnBatch& batch, int64_t row, RowKind kind);

  std::shared_ptr<DataFileWriterFactory> factory_;
  std::unique_ptr<MergeFunction> merge_function_;
  std::vector<int> key_columns_;  // the trimmed primary key in the table row
  bool retract_validated_ = false;
  std::unique_ptr<RollingDataFileWriter> writer_;
  std::unique_ptr<ColumnBatch> staging_;  // key-value layout
  std::vector<DataFileMeta> new_files_;
};

}  // namespace sluice
