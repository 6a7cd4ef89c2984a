// AppendOnlyWriter: the writer of one bucket of an append table (Java AppendOnlyWriter with its
// direct sink): rows go straight into rolling data files, each row taking the next sequence
// number after the bucket's restored files; PrepareCommit closes the current file.
//
// Compaction (fixed-bucket tables): with a CompactManager, the files of each commit are added
// to it, a finished compaction's result is taken and the next one triggered (Java
// AppendOnlyWriter.flush); PrepareCommit waits for a running compaction only when asked.
//
// Only +I rows are accepted, as in Java ("Append only writer can not accept row with RowKind").
//
// Thread safety: not thread-safe.
#pragma once

#include <memory>

#include "sluice/io/record_writer.h"
#include "sluice/io/rolling_data_file_writer.h"
#include "sluice/lsm/compact_increment_builder.h"
#include "sluice/lsm/compact_manager.h"

namespace sluice {

class AppendOnlyWriter : public RecordWriter {
 public:
  // `max_sequence_number`: the largest of the bucket's restored files (-1 when none).
  // `compact_manager` may be null (no compaction).
  AppendOnlyWriter(std::shared_ptr<DataFileWriterFactory> factory, int64_t max_sequence_number,
                   std::unique_ptr<CompactManager> compact_manager = nullptr);
  ~AppendOnlyWriter() override;

  Status Write(const ColumnBatch& batch, const int64_t* rows, int64_t n,
               const RowKind* kinds) override;
  Result<CommitIncrement> PrepareCommit(bool wait_compaction) override;
  int64_t max_sequence_number() const override { return next_sequence_number_ - 1; }
  Status Close() override;

  // Closes the current file and compacts (every file when `full_compaction`), waiting for a
  // running compaction first (Java AppendOnlyWriter.compact). The result joins the next
  // PrepareCommit. NotSupported without a compact manager.
  Status Compact(bool full_compaction);
  bool has_compact_manager() const { return compact_manager_ != nullptr; }

 private:
  // Closes the current file: its files join the next commit (and the compact manager).
  Status CloseCurrentFile();

  std::shared_ptr<DataFileWriterFactory> factory_;
  int64_t next_sequence_number_;
  std::unique_ptr<RollingDataFileWriter> writer_;
  std::vector<DataFileMeta> new_files_;  // closed files of the coming commit
  std::unique_ptr<ColumnBatch> staging_;
  std::unique_ptr<CompactManager> compact_manager_;
  CompactIncrementBuilder compact_increment_;
};

}  // namespace sluice
