// MergeTreeWriter: the writer of one bucket of a primary-key table (Java MergeTreeWriter): rows
// take sequence numbers after the bucket's restored files and collect in a WriteBuffer, whose
// memory is drawn from a MemoryPoolFactory shared with the task's other bucket writers (Java
// MemoryOwner): when the pool's `write-buffer-size` runs out the largest buffer of the task is
// flushed (and every buffer on PrepareCommit): merged per key by
// the table's merge function into one level-0 file (rolled at `target-file-size`). With
// `changelog-producer = input` the flush also writes the buffered rows unmerged, with their row
// kinds, into level-0 changelog files, which the commit carries as the data increment's
// changelog (Java MergeTreeWriter.flushWriteBuffer).
//
// Compaction: with a CompactManager, every flushed file is added to it, then the writer takes a
// finished compaction's result (waiting when the manager asks for back-pressure) and triggers
// the next (Java flushWriteBuffer). Without one, the writer only flushes.
//
// Thread safety: not thread-safe.
#pragma once

#include <memory>
#include <vector>

#include "sluice/io/record_writer.h"
#include "sluice/io/rolling_data_file_writer.h"
#include "sluice/lsm/compact_increment_builder.h"
#include "sluice/lsm/compact_manager.h"
#include "sluice/lsm/memory_owner.h"
#include "sluice/lsm/memory_pool_factory.h"
#include "sluice/lsm/merge_function.h"
#include "sluice/lsm/write_buffer.h"
#include "sluice/meta/core_options.h"

namespace sluice {

class MergeTreeWriter : public RecordWriter, public MemoryOwner {
 public:
  // `max_sequence_number`: the largest of the bucket's restored files (-1 when none).
  // `compact_manager` may be null (flush only). `pool`: the write-buffer budget shared with
  // other writers, which must outlive this one; null: a budget of `write-buffer-size` of the
  // writer's own.
  static Result<std::unique_ptr<MergeTreeWriter>> Make(
      std::shared_ptr<DataFileWriterFactory> factory, const CoreOptions& options,
      int64_t max_sequence_number, std::unique_ptr<CompactManager> compact_manager,
      MemoryPoolFactory* pool = nullptr);
  ~MergeTreeWriter() override;

  Status Write(const ColumnBatch& batch, const int64_t* rows, int64_t n,
               const RowKind* kinds) override;
  Result<CommitIncrement> PrepareCommit(bool wait_compaction) override;
  int64_t max_sequence_number() const override { return next_sequence_number_ - 1; }
  Status Close() override;

  int64_t memory_occupancy() const override { return accounted_bytes_; }
  Status FlushMemory() override {
    return Flush(/*wait_for_latest_compaction=*/false, /*full_compaction=*/false);
  }

  // Flushes the write buffer into a level-0 file and drives compaction (full when asked).
  Status Flush(bool wait_for_latest_compaction, bool full_compaction);

  const WriteBuffer& write_buffer() const { return buffer_; }
  bool has_compact_manager() const { return compact_manager_ != nullptr; }

 private:
  MergeTreeWriter(std::shared_ptr<DataFileWriterFactory> factory,
                  std::unique_ptr<MergeFunction> merge_function, WriteBuffer buffer,
                  MemoryPoolFactory* pool, int64_t write_buffer_size, int64_t max_sequence_number,
                  std::unique_ptr<CompactManager> compact_manager, bool changelog_input);
  // Clears the buffer and gives its memory back to the pool.
  void ClearBuffer();
  // Closes `writer` into `files`, or aborts it when `st` or the close fails.
  static Status CloseInto(Status st, RollingDataFileWriter* writer,
                          std::vector<DataFileMeta>* files);

  std::shared_ptr<DataFileWriterFactory> factory_;
  std::unique_ptr<MergeFunction> merge_function_;
  WriteBuffer buffer_;
  std::unique_ptr<MemoryPoolFactory> own_pool_;  // when no pool was given
  MemoryPoolFactory* pool_;
  int64_t accounted_bytes_ = 0;  // buffer_'s memory as pool_ knows it
  int64_t next_sequence_number_;
  std::unique_ptr<CompactManager> compact_manager_;
  bool changelog_input_;

  std::vector<DataFileMeta> new_files_;
  std::vector<DataFileMeta> new_changelog_files_;
  CompactIncrementBuilder compact_increment_;
};

}  // namespace sluice
