// SortedRunReader: the records of one sorted run in key order, as column batches of the record
// layout: the value fields (table fields in schema order, possibly a subset), then
// `_SEQUENCE_NUMBER BIGINT NOT NULL`, then `_VALUE_KIND TINYINT NOT NULL` (RowKind bytes 0..3).
// A run holds each key at most once. The input of SortedRunMerge; table/source reads runs of
// data files through it (SortedRunFileReader).
//
// Thread safety: not thread-safe; one reader per merge.
#pragma once

#include <cstdint>

#include "sluice/column_batch.h"
#include "sluice/result.h"

namespace sluice {

class SortedRunReader {
 public:
  virtual ~SortedRunReader() = default;

  // Clears `batch` (of the record layout) and fills it with the run's next records; false at
  // the end. A batch may be empty. Errors name the data file.
  virtual Result<bool> Next(ColumnBatch* batch) = 0;

  // The LSM level of the file the last batch came from.
  virtual int32_t level() const = 0;
};

}  // namespace sluice
