#include "sluice/base/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>

namespace sluice {
namespace {

TEST(ThreadPoolTest, RunsEveryTaskBeforeTheDestructorReturns) {
  std::atomic<int> done{0};
  {
    ThreadPool pool(3);
    EXPECT_EQ(pool.num_threads(), 3);
    for (int i = 0; i < 100; ++i) pool.Submit([&] { done.fetch_add(1); });
  }
  EXPECT_EQ(done.load(), 100);
}

TEST(ThreadPoolTest, TasksRunConcurrently) {
  // Two tasks that each wait for the other can only finish on two threads.
  std::mutex mutex;
  std::condition_variable cv;
  int arrived = 0;
  {
    ThreadPool pool(2);
    for (int i = 0; i < 2; ++i) {
      pool.Submit([&] {
        std::unique_lock<std::mutex> lock(mutex);
        ++arrived;
        cv.notify_all();
        cv.wait(lock, [&] { return arrived == 2; });
      });
    }
  }
  EXPECT_EQ(arrived, 2);
}

TEST(ThreadPoolTest, DefaultThreadsIsCapped) {
  EXPECT_GE(ThreadPool::DefaultThreads(8), 1);
  EXPECT_LE(ThreadPool::DefaultThreads(8), 8);
  EXPECT_EQ(ThreadPool::DefaultThreads(1), 1);
}

}  // namespace
}  // namespace sluice
