// RangeReducer: decides the result of each key of a SortedRunMerge from the key's records as
// rows of the merge's batches, without building KeyValues. Changelog-producing compaction of
// engines that pick one record (LookupChangelogRangeReducer) uses it to copy changelog rows
// column by column where the merge function path would copy every value of every record.
//
// Thread safety: not thread-safe; owned by one merge's thread.
#pragma once

#include <cstdint>

#include "sluice/column_batch.h"
#include "sluice/result.h"
#include "sluice/row_kind.h"

namespace sluice {

// One record of a key: a row of a batch in the merge's record layout (value fields,
// `_SEQUENCE_NUMBER`, `_VALUE_KIND`), with the level of the file it was read from.
struct RangeRecord {
  const ColumnBatch* batch;
  int64_t row;
  int32_t level;
  RowKind kind;
};

class RangeReducer {
 public:
  virtual ~RangeReducer() = default;

  // The index in [0, n) of the key's result among its records (merge order), or -1 when the
  // key has none. The records' batches stay readable until the next Release().
  virtual Result<int64_t> Reduce(const RangeRecord* records, int64_t n) = 0;

  // Called before the merge reuses a batch that earlier records lie in, and at the end of each
  // SortedRunMerge::Next: whatever the reducer keeps of earlier records must be copied now.
  virtual Status Release() = 0;
};

}  // namespace sluice
