// RecordWriter: the writer of one partition and bucket (Java RecordWriter): takes rows, and on
// PrepareCommit hands over the files it added (and compacted) since the last commit.
// Implementations: MergeTreeWriter (primary-key tables, lsm/), AppendOnlyWriter (append tables)
// and PostponeBucketWriter (the postpone bucket of `bucket = -2` tables), both in table/sink.
//
// Thread safety: not thread-safe; one writer thread.
#pragma once

#include <cstdint>

#include "sluice/column_batch.h"
#include "sluice/io/commit_message_impl.h"
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

  // The largest sequence number given out so far, the restored files' included (-1 when
  // none). PostponeBucketWriter gives none out (its files carry -1) and answers 0.
  virtual int64_t max_sequence_number() const = 0;

  // Ends the writer without a commit: rows not yet handed to PrepareCommit are dropped, a
  // running compaction is waited for and its result dropped (the files it wrote stay, orphans),
  // and the files written since the last PrepareCommit are deleted, except the ones a
  // compaction reused (an upgrade keeps a committed file's name).
  virtual Status Close() = 0;
};

}  // namespace sluice
