// WriteBuffer: the in-memory part of a primary-key bucket's LSM tree (Java
// SortBufferWriteBuffer): rows kept column by column with their sequence numbers and kinds,
// sorted on flush by key, then the `sequence.field` columns, then sequence number; the records
// of each key are folded by the merge function (a key with a single record is taken as it is,
// Java ReducerMergeFunctionWrapper) and handed out in the key-value file layout
// (KeyValueFileType), retractions included.
//
// Memory: the column buffers (their capacity) plus a fixed cost per row; the owner accounts
// memory_usage() to its MemoryPoolFactory, which decides when it flushes. Clear gives the
// memory back, so a flushed buffer holds nothing against the shared budget.
//
// Thread safety: not thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "sluice/column_batch.h"
#include "sluice/lsm/column_row_comparator.h"
#include "sluice/lsm/merge_function.h"
#include "sluice/result.h"
#include "sluice/row_kind.h"

namespace sluice {

class WriteBuffer {
 public:
  // `row_type`: the table row; `key_columns`: indexes of the trimmed primary key in it;
  // `sequence_columns` / `sequence_ascending`: the `sequence.field` columns (may be empty);
  // `key_value_type`: the file layout (KeyValueFileType). `last_record_wins`: the merge
  // function keeps the last record of a key as it is (deduplicate without ignore-delete), so
  // the buffer takes it without building KeyValues.
  WriteBuffer(DataTypePtr row_type, std::vector<int> key_columns, std::vector<int> sequence_columns,
              bool sequence_ascending, DataTypePtr key_value_type, bool last_record_wins = false);

  // Adds rows rows[0..n) of `batch`; row i gets sequence number first_sequence_number + i and
  // kind kinds[rows[i]] (+I when kinds is nullptr).
  void Put(const ColumnBatch& batch, const int64_t* rows, int64_t n, const RowKind* kinds,
           int64_t first_sequence_number);

  bool empty() const { return sequence_numbers_.empty(); }
  int64_t size() const { return static_cast<int64_t>(sequence_numbers_.size()); }
  int64_t memory_usage() const;

  using Consumer = std::function<Status(const ColumnBatch&)>;

  // Sorts and merges the buffered rows and passes them to `consumer` in batches of the
  // key-value layout, in key order. With `raw_consumer` (changelog-producer input), every
  // buffered row also goes to it unmerged, in the same order, before the merged rows. Stops
  // at the first error (of the merge function or a consumer).
  Status ForEach(MergeFunction* merge_function, const Consumer& consumer,
                 const Consumer& raw_consumer = nullptr);

  // Drops the rows and frees their memory.
  void Clear();

 private:
  // Row indexes in merge order.
  std::vector<uint32_t> SortedOrder() const;
  // SortedOrder for one key column of strings or binaries without nulls.
  std::vector<uint32_t> SortedByBytes(const ColumnVector& key) const;
  KeyValue ToKeyValue(uint32_t row) const;
  // Appends buffered rows rows[0..n) to `out` in the key-value layout.
  void AppendRecords(const int64_t* rows, int64_t n, ColumnBatch* out) const;

  DataTypePtr row_type_;
  std::vector<int> key_columns_;
  ColumnRowComparator key_comparator_;
  ColumnRowComparator sequence_comparator_;
  DataTypePtr key_value_type_;
  bool last_record_wins_;

  ColumnBatch rows_;
  std::vector<int64_t> sequence_numbers_;
  std::vector<RowKind> kinds_;
};

}  // namespace sluice
