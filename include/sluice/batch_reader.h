// BatchReader: rows as a stream of ColumnBatches (Java RecordReader): what TableRead opens for
// one split or for many (see table_read.h), and what file readers return.
//
// Thread safety: not thread-safe; one consumer calls Next.
#pragma once

#include "sluice/column_batch.h"
#include "sluice/data_type.h"
#include "sluice/result.h"

namespace sluice {

class BatchReader {
 public:
  virtual ~BatchReader() = default;

  // The ROW type of every batch.
  virtual const DataTypePtr& output_type() const = 0;

  // Replaces `batch` (of output_type()) with the next non-empty batch; false at the end (or at
  // the limit of a read). After an error, later calls return false.
  virtual Result<bool> Next(ColumnBatch* batch) = 0;
};

}  // namespace sluice
