// AppendOnlyWriter: the writer of one bucket of an append table (Java AppendOnlyWriter with its
// direct sink): rows go straight into rolling data files, each row taking the next sequence
// number after the bucket's restored files; PrepareCommit closes the current file.
//
// Only +I rows are accepted, as in Java ("Append only writer can not accept row with RowKind").
//
// Thread safety: not thread-safe.
#pragma once

#include <memory>

#include "sluice/table/sink/record_writer.h"
#include "sluice/table/sink/rolling_data_file_writer.h"

namespace sluice {

class AppendOnlyWriter : public RecordWriter {
 public:
  // `max_sequence_number`: the largest of the bucket's restored files (-1 when none).
  AppendOnlyWriter(std::shared_ptr<DataFileWriterFactory> factory, int64_t max_sequence_number);

  Status Write(const ColumnBatch& batch, const int64_t* rows, int64_t n,
               const RowKind* kinds) override;
  Result<CommitIncrement> PrepareCommit(bool wait_compaction) override;
  int64_t max_sequence_number() const override { return next_sequence_number_ - 1; }
  Status Close() override;

 private:
  std::shared_ptr<DataFileWriterFactory> factory_;
  int64_t next_sequence_number_;
  std::unique_ptr<RollingDataFileWriter> writer_;
  std::unique_ptr<ColumnBatch> staging_;
};

}  // namespace sluice
