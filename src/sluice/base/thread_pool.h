// ThreadPool: a fixed set of worker threads running submitted tasks in submission order.
//
// The read path runs one task per group of splits on it; tasks that must wait (a full batch
// queue) block their worker, so callers size the pool to the work they submit.
//
// Thread safety: Submit may be called from any thread. The destructor runs the tasks already
// submitted, then joins the workers; it must not run on a worker thread.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace sluice {

class ThreadPool {
 public:
  // REQUIRES: num_threads >= 1.
  explicit ThreadPool(int num_threads);
  ~ThreadPool();

  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int num_threads() const { return static_cast<int>(workers_.size()); }

  void Submit(std::function<void()> task);

  // min(hardware concurrency, cap), at least 1.
  static int DefaultThreads(int cap);

 private:
  void WorkerLoop();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> tasks_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace sluice
