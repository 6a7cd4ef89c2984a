// ParallelTableReader: the BatchReader of TableRead::CreateReader(splits). Worker tasks on a
// ThreadPool claim splits in plan order and push each split's batches into a bounded buffer; Next
// hands them to the one consumer in arrival order, or split by split for an ordered read.
//
// Bounded memory without deadlock: a producer waits while the buffer holds
// max_buffered_batches, except the producer of the split an ordered read is waiting for (splits
// are claimed in order, so that split is always claimed or next to be).
//
// Thread safety: Next is called by one consumer; the workers synchronize on mutex_.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

#include "sluice/base/thread_pool.h"
#include "sluice/batch_reader.h"
#include "sluice/split.h"
#include "sluice/table_read.h"

namespace sluice {

class ParallelTableReader : public BatchReader {
 public:
  ParallelTableReader(TableRead read, std::vector<Split> splits,
                      std::shared_ptr<const ReadContext> state);
  ~ParallelTableReader() override;

  const DataTypePtr& output_type() const override;
  Result<bool> Next(ColumnBatch* batch) override;

 private:
  // Worker loop: claims splits until none are left or the read stops.
  void Produce();
  // Reads split `index` into the buffer; false when the read stopped meanwhile.
  bool ProduceSplit(size_t index);
  void Stop();

  const TableRead read_;
  const std::vector<Split> splits_;
  const std::shared_ptr<const ReadContext> state_;
  const size_t num_splits_;

  std::mutex mutex_;
  std::condition_variable produced_;
  std::condition_variable consumed_;
  // Ordered reads: one queue per split; otherwise every batch goes to queues_[0].
  std::vector<std::deque<std::unique_ptr<ColumnBatch>>> queues_;
  std::vector<bool> split_done_;
  size_t splits_done_ = 0;
  size_t next_split_ = 0;  // next split a worker claims
  size_t head_ = 0;        // ordered: the split Next reads from
  size_t buffered_ = 0;
  Status error_;
  bool stopped_ = false;
  // Consumer side only: rows handed out, and whether the read ended (limit or error).
  int64_t rows_returned_ = 0;
  bool finished_ = false;

  std::unique_ptr<ThreadPool> pool_;  // reset first in the destructor
};

}  // namespace sluice
