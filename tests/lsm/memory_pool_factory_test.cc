// MemoryPoolFactory: the write-buffer budget shared by a task's writers: the largest other
// owner is flushed when the budget runs out, the requester itself when no other holds memory,
// and the owners never hold more than the budget after a Reclaim.
#include "sluice/lsm/memory_pool_factory.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_util.h"

namespace sluice {
namespace {

// An owner whose buffer grows by what the test puts into it.
class FakeOwner : public MemoryOwner {
 public:
  FakeOwner(MemoryPoolFactory* pool, std::string name, std::vector<std::string>* flushed)
      : pool_(pool), name_(std::move(name)), flushed_(flushed) {
    pool_->NotifyNewOwner(this);
  }
  ~FakeOwner() override { pool_->RemoveOwner(this); }

  Status Put(int64_t bytes) {
    bytes_ += bytes;
    pool_->Account(bytes);
    return pool_->Reclaim(this);
  }
  int64_t memory_occupancy() const override { return bytes_; }
  Status FlushMemory() override {
    flushed_->push_back(name_);
    pool_->Account(-bytes_);
    bytes_ = 0;
    return fail_ ? Status::IOError("flush of " + name_ + " failed") : Status::OK();
  }
  void set_fail(bool fail) { fail_ = fail; }

 private:
  MemoryPoolFactory* pool_;
  std::string name_;
  std::vector<std::string>* flushed_;
  int64_t bytes_ = 0;
  bool fail_ = false;
};

TEST(MemoryPoolFactoryTest, FlushesTheLargestOtherOwnerWhenTheBudgetRunsOut) {
  MemoryPoolFactory pool(100);
  std::vector<std::string> flushed;
  FakeOwner a(&pool, "a", &flushed), b(&pool, "b", &flushed), c(&pool, "c", &flushed);
  ASSERT_OK(a.Put(30));
  ASSERT_OK(b.Put(50));
  ASSERT_OK(c.Put(10));
  EXPECT_TRUE(flushed.empty());
  EXPECT_EQ(pool.used_bytes(), 90);
  // c grows past the budget: b, the largest of the others, makes room, though c is not small.
  ASSERT_OK(c.Put(15));
  EXPECT_EQ(flushed, (std::vector<std::string>{"b"}));
  EXPECT_EQ(b.memory_occupancy(), 0);
  EXPECT_EQ(pool.used_bytes(), 55);
  EXPECT_EQ(pool.preempt_count(), 1);
}

TEST(MemoryPoolFactoryTest, FlushesOthersInTurnThenTheRequesterItself) {
  MemoryPoolFactory pool(100);
  std::vector<std::string> flushed;
  FakeOwner a(&pool, "a", &flushed), b(&pool, "b", &flushed), c(&pool, "c", &flushed);
  ASSERT_OK(a.Put(20));
  ASSERT_OK(b.Put(10));
  // One batch of c takes more than the budget alone: a, then b, then c itself is flushed.
  ASSERT_OK(c.Put(120));
  EXPECT_EQ(flushed, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(pool.used_bytes(), 0);
  EXPECT_EQ(pool.preempt_count(), 2);
}

TEST(MemoryPoolFactoryTest, ALoneOwnerFlushesItselfOverItsBudget) {
  MemoryPoolFactory pool(100);
  std::vector<std::string> flushed;
  FakeOwner a(&pool, "a", &flushed);
  ASSERT_OK(a.Put(100));
  EXPECT_TRUE(flushed.empty());  // at the budget, not over it
  ASSERT_OK(a.Put(1));
  EXPECT_EQ(flushed, (std::vector<std::string>{"a"}));
  EXPECT_EQ(pool.preempt_count(), 0);
}

TEST(MemoryPoolFactoryTest, ARandomWorkloadStaysWithinTheBudget) {
  MemoryPoolFactory pool(1000);
  std::vector<std::string> flushed;
  std::vector<std::unique_ptr<FakeOwner>> owners;
  for (int i = 0; i < 8; ++i) {
    owners.push_back(std::make_unique<FakeOwner>(&pool, std::to_string(i), &flushed));
  }
  uint64_t state = 7;
  for (int step = 0; step < 2000; ++step) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    FakeOwner& owner = *owners[(state >> 33) % owners.size()];
    ASSERT_OK(owner.Put(static_cast<int64_t>((state >> 40) % 200)));
    ASSERT_LE(pool.used_bytes(), pool.total_bytes()) << "step " << step;
    int64_t sum = 0;
    for (const auto& o : owners) sum += o->memory_occupancy();
    ASSERT_EQ(sum, pool.used_bytes()) << "step " << step;
  }
  EXPECT_GT(pool.preempt_count(), 0);
  // An owner leaving takes what it holds out of the pool.
  const int64_t held = owners.back()->memory_occupancy();
  const int64_t used = pool.used_bytes();
  owners.pop_back();
  EXPECT_EQ(pool.used_bytes(), used - held);
}

TEST(MemoryPoolFactoryTest, AFailedFlushIsReturned) {
  MemoryPoolFactory pool(100);
  std::vector<std::string> flushed;
  FakeOwner a(&pool, "a", &flushed), b(&pool, "b", &flushed);
  ASSERT_OK(a.Put(60));
  a.set_fail(true);
  EXPECT_TRUE(test::HasError(b.Put(60), StatusCode::kIOError, {"flush", "a", "failed"}));
}

}  // namespace
}  // namespace sluice
