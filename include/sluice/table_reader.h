// TableReader: the rows of a ReadPlan as a stream of ColumnBatches. Splits are read on a thread
// pool; finished batches wait in a bounded queue (the plan's max buffered batches), so memory
// stays bounded however large the table: a producer waits while the queue is full, except the
// producer of the split an ordered read is waiting for.
//
// Thread safety: not thread-safe; one consumer calls Next. Destroying the reader stops the
// producers and waits for them.
#pragma once

#include <memory>

#include "sluice/base/result.h"
#include "sluice/batch/column_batch.h"
#include "sluice/types/data_type.h"

namespace sluice {

class TableReader {
 public:
  virtual ~TableReader() = default;

  // The ROW type of every batch.
  virtual const DataTypePtr& output_type() const = 0;

  // Replaces `batch` with the next non-empty batch; false at the end (or at the limit). The
  // first error of any split is returned, once; later calls return false.
  virtual Result<bool> Next(ColumnBatch* batch) = 0;
};

}  // namespace sluice
