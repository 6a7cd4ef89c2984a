// TableRead: reads splits into ColumnBatches (Java TableRead): whatever a split needs (raw
// files, deletion vectors applied, a merge of the sorted runs of a primary-key bucket, row
// kinds of a delta), then schema evolution, casts, projection and the filter. Made by
// ReadBuilder::NewRead; the splits may come from a TableScan of this process or from
// Split::Deserialize of another process's plan of the same read.
//
// The reader of many splits reads them on a thread pool; finished batches wait in a bounded
// queue (the builder's max buffered batches), so memory stays bounded however large the
// table: a producer waits while the queue is full, except the producer of the split an
// ordered read is waiting for. Destroying the reader stops the producers and waits for them.
//
// Thread safety: immutable; readers may be created concurrently; each reader has one consumer.
#pragma once

#include <memory>
#include <vector>

#include "sluice/batch_reader.h"
#include "sluice/data_type.h"
#include "sluice/result.h"
#include "sluice/split.h"

namespace sluice {

struct ReadContext;

class TableRead {
 public:
  // The ROW type of every batch: the projected columns, after `_ROW_KIND` in delta mode.
  const DataTypePtr& output_type() const;

  // Reads one split alone (no limit applied).
  Result<std::unique_ptr<BatchReader>> CreateReader(const Split& split) const;
  // Reads `splits` on a thread pool with bounded buffering, applying the builder's limit.
  Result<std::unique_ptr<BatchReader>> CreateReader(std::vector<Split> splits) const;

 private:
  friend class ReadBuilder;
  explicit TableRead(std::shared_ptr<const ReadContext> context) : context_(std::move(context)) {}

  std::shared_ptr<const ReadContext> context_;
};

}  // namespace sluice
