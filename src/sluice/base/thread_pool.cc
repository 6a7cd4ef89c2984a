#include "sluice/base/thread_pool.h"

#include <algorithm>
#include <utility>

namespace sluice {

ThreadPool::ThreadPool(int num_threads) {
  workers_.reserve(static_cast<size_t>(std::max(1, num_threads)));
  for (int i = 0; i < std::max(1, num_threads); ++i) {
    workers_.emplace_back([this] { WorkerLoop(); });
  }
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

void ThreadPool::Submit(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    tasks_.push_back(std::move(task));
  }
  wake_.notify_one();
}

int ThreadPool::DefaultThreads(int cap) {
  const int hardware = static_cast<int>(std::thread::hardware_concurrency());
  return std::max(1, std::min(hardware > 0 ? hardware : 1, cap));
}

void ThreadPool::WorkerLoop() {
  while (true) {
    std::function<void()> task;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !tasks_.empty(); });
      // Tasks submitted before shutdown still run: a reader's producers must finish to release
      // the consumer they feed.
      if (tasks_.empty()) return;
      task = std::move(tasks_.front());
      tasks_.pop_front();
    }
    task();
  }
}

}  // namespace sluice
