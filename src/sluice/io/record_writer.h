// RecordWriter: the writer of one partition and bucket (Java RecordWriter): takes rows, and on
// PrepareCommit hands over the files it added (and compacted) since the last commit.
// Implementations: AppendOnlyWriter (append tables, this folder), MergeTreeWriter (primary-key
// tables, lsm/).
//
// Thread safety: not thread-safe; one writer thread.
#pragma once

#include <cstdint>

#include "sluice/column_batch.h"
#include "sluice/io/commit_message.h"
#include "sluice/result.h"
#include "sluice/row_kind.h"

namespace sluice {

// What one writer contributes to a commit (Java CommitIncrement).
struct CommitIncrement {
  DataIncrement data;
  CompactIncrement compact;
};

class RecordWriter {
 public:
  virtual ~RecordWriter() = default;

  // Writes rows rows[0..n) of `batch` (the table's row type). `kinds` is nullptr (all +I) or
  // holds one kind per row of `batch` (indexed like the batch, not like `rows`).
  virtual Status Write(const ColumnBatch& batch, const int64_t* rows, int64_t n,
                       const RowKind* kinds) = 0;

  // Flushes buffered rows and returns the files since the last call. `wait_compaction`: wait
  // for a running compaction and include its result.
  virtual Result<CommitIncrement> PrepareCommit(bool wait_compaction) = 0;

  // The largest sequence number given out so far (-1 when none).
  virtual int64_t max_sequence_number() const = 0;

  // Waits for background work and deletes files written but not handed to a commit.
  virtual Status Close() = 0;
};

}  // namespace sluice
