#include "sluice/api/parallel_table_reader.h"

#include <algorithm>
#include <numeric>

#include "sluice/api/read_context.h"
#include "sluice/batch/column_take.h"

namespace sluice {

namespace {

constexpr int kMaxDefaultThreads = 8;

}  // namespace

ParallelTableReader::ParallelTableReader(TableRead read, std::vector<Split> splits,
                                         std::shared_ptr<const ReadContext> state)
    : read_(std::move(read)),
      splits_(std::move(splits)),
      state_(std::move(state)),
      num_splits_(splits_.size()),
      queues_(state_->ordered ? std::max<size_t>(1, num_splits_) : 1),
      split_done_(num_splits_, false) {
  if (num_splits_ == 0 || (state_->limit && *state_->limit == 0)) {
    stopped_ = true;
    return;
  }
  const int threads =
      state_->threads > 0 ? state_->threads : ThreadPool::DefaultThreads(kMaxDefaultThreads);
  const int workers = static_cast<int>(std::min<size_t>(static_cast<size_t>(threads), num_splits_));
  pool_ = std::make_unique<ThreadPool>(workers);
  for (int i = 0; i < workers; ++i) pool_->Submit([this] { Produce(); });
}

ParallelTableReader::~ParallelTableReader() {
  Stop();
  pool_.reset();
}

const DataTypePtr& ParallelTableReader::output_type() const { return state_->output_type; }

void ParallelTableReader::Stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopped_ = true;
  }
  consumed_.notify_all();
  produced_.notify_all();
}

void ParallelTableReader::Produce() {
  while (true) {
    size_t index;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopped_ || next_split_ >= num_splits_) return;
      index = next_split_++;
    }
    if (!ProduceSplit(index)) return;
  }
}

bool ParallelTableReader::ProduceSplit(size_t index) {
  auto fail = [&](const Status& status) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (error_.ok() && !stopped_) error_ = status;
      stopped_ = true;
    }
    produced_.notify_all();
    consumed_.notify_all();
    return false;
  };
  auto reader = read_.CreateReader(splits_[index]);
  if (!reader.ok()) return fail(reader.status());
  const size_t queue = state_->ordered ? index : 0;
  const size_t capacity = static_cast<size_t>(state_->max_buffered_batches);
  while (true) {
    auto batch = std::make_unique<ColumnBatch>((*reader)->output_type());
    auto more = (*reader)->Next(batch.get());
    if (!more.ok()) return fail(more.status());
    if (!*more) break;
    std::unique_lock<std::mutex> lock(mutex_);
    consumed_.wait(lock, [&] {
      return stopped_ || buffered_ < capacity || (state_->ordered && index == head_);
    });
    if (stopped_) return false;
    queues_[queue].push_back(std::move(batch));
    ++buffered_;
    lock.unlock();
    produced_.notify_all();
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    split_done_[index] = true;
    ++splits_done_;
  }
  produced_.notify_all();
  return true;
}

Result<bool> ParallelTableReader::Next(ColumnBatch* batch) {
  if (finished_) return false;
  std::unique_ptr<ColumnBatch> next;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
      if (!error_.ok()) {
        finished_ = true;
        return error_;
      }
      std::deque<std::unique_ptr<ColumnBatch>>& queue = queues_[state_->ordered ? head_ : 0];
      if (!queue.empty()) {
        next = std::move(queue.front());
        queue.pop_front();
        --buffered_;
        break;
      }
      if (stopped_) return false;
      if (state_->ordered) {
        if (split_done_[head_]) {
          if (++head_ == num_splits_) return false;
          lock.unlock();
          consumed_.notify_all();  // the new head's producer may push past the bound
          lock.lock();
          continue;
        }
      } else if (splits_done_ == num_splits_) {
        return false;
      }
      produced_.wait(lock);
    }
  }
  consumed_.notify_all();
  if (state_->limit) {
    const int64_t remaining = *state_->limit - rows_returned_;
    if (next->num_rows() >= remaining) {
      finished_ = true;
      Stop();
      if (next->num_rows() > remaining) {
        auto truncated = std::make_unique<ColumnBatch>(next->schema());
        std::vector<int64_t> rows(static_cast<size_t>(remaining));
        std::iota(rows.begin(), rows.end(), 0);
        for (int c = 0; c < next->num_columns(); ++c) {
          TakeRows(*next->column(c), rows.data(), remaining, truncated->column(c));
        }
        truncated->set_num_rows(remaining);
        next = std::move(truncated);
      }
    }
  }
  rows_returned_ += next->num_rows();
  *batch = std::move(*next);
  return true;
}

}  // namespace sluice
