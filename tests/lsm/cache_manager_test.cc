// CacheManager: blocks are loaded once and shared, the memory bound holds, blocks hit since the
// eviction hand last passed outlive blocks that were not, and a dropped reader's blocks go.
#include "sluice/lsm/lookup/cache_manager.h"

#include <gtest/gtest.h>

#include <string>

#include "sluice/base/coding.h"
#include "test_util.h"

namespace sluice {
namespace {

// A one-entry block of about `size` bytes.
Result<SortLookupStoreBlock> BlockOfSize(size_t size) {
  std::string block;
  PutVarint64(&block, 1);
  PutVarint64(&block, size);
  block += "k";
  block += std::string(size, 'v');
  PutFixed32LE(&block, 0);
  PutFixed32LE(&block, 1);
  return SortLookupStoreBlock::Make(std::move(block));
}

class CacheManagerTest : public ::testing::Test {
 protected:
  // Gets block `index` of `reader`, counting loads.
  Result<CacheManager::Block> Get(CacheManager* cache, uint64_t reader, uint64_t index) {
    return cache->GetBlock(reader, index, [this]() {
      ++loads_;
      return BlockOfSize(1000);
    });
  }

  int loads_ = 0;
};

TEST_F(CacheManagerTest, HitsShareTheLoadedBlock) {
  CacheManager cache(1 << 20);
  const uint64_t reader = cache.AddReader(4);
  ASSERT_OK_AND_ASSIGN(CacheManager::Block first, Get(&cache, reader, 2));
  ASSERT_OK_AND_ASSIGN(CacheManager::Block again, Get(&cache, reader, 2));
  EXPECT_EQ(first.get(), again.get());
  EXPECT_EQ(loads_, 1);
  EXPECT_EQ(cache.memory_size(), first->memory_size());
  // Another reader's block 2 is its own.
  const uint64_t other = cache.AddReader(4);
  ASSERT_OK_AND_ASSIGN(CacheManager::Block theirs, Get(&cache, other, 2));
  EXPECT_NE(theirs.get(), first.get());
  EXPECT_EQ(loads_, 2);
}

TEST_F(CacheManagerTest, UsedBlocksOutliveUnusedOnesWithinTheBound) {
  ASSERT_OK_AND_ASSIGN(SortLookupStoreBlock sample, BlockOfSize(1000));
  const int64_t block_size = sample.memory_size();
  CacheManager cache(block_size * 3);
  const uint64_t reader = cache.AddReader(100);
  for (uint64_t i = 0; i < 3; ++i) ASSERT_OK(Get(&cache, reader, i).status());
  // Block 0 is hit again; loading block 3 must evict one of the others.
  ASSERT_OK(Get(&cache, reader, 0).status());
  ASSERT_OK(Get(&cache, reader, 3).status());
  EXPECT_LE(cache.memory_size(), block_size * 3);
  EXPECT_EQ(loads_, 4);
  ASSERT_OK(Get(&cache, reader, 0).status());
  EXPECT_EQ(loads_, 4) << "the block hit since the last eviction was dropped";
  // A long run of blocks each read once stays within the bound.
  for (uint64_t i = 4; i < 100; ++i) {
    ASSERT_OK(Get(&cache, reader, i).status());
    ASSERT_LE(cache.memory_size(), block_size * 3);
  }
}

TEST_F(CacheManagerTest, DroppedReaderFreesItsBlocks) {
  CacheManager cache(1 << 20);
  const uint64_t dropped = cache.AddReader(3);
  const uint64_t kept = cache.AddReader(3);
  for (uint64_t i = 0; i < 3; ++i) {
    ASSERT_OK(Get(&cache, dropped, i).status());
    ASSERT_OK(Get(&cache, kept, i).status());
  }
  const int64_t both = cache.memory_size();
  cache.DropReader(dropped);
  EXPECT_EQ(cache.memory_size(), both / 2);
  EXPECT_TRUE(test::HasError(Get(&cache, dropped, 0), StatusCode::kInvalidArgument,
                             {"no block 0", "reader"}));
  ASSERT_OK(Get(&cache, kept, 1).status());
  EXPECT_EQ(loads_, 6);
}

TEST_F(CacheManagerTest, LoadErrorCachesNothing) {
  CacheManager cache(1 << 20);
  const uint64_t reader = cache.AddReader(2);
  auto failing = []() -> Result<SortLookupStoreBlock> { return Status::IOError("disk gone"); };
  EXPECT_TRUE(
      test::HasError(cache.GetBlock(reader, 0, failing), StatusCode::kIOError, {"disk gone"}));
  EXPECT_EQ(cache.memory_size(), 0);
  EXPECT_TRUE(test::HasError(Get(&cache, reader, 2), StatusCode::kInvalidArgument, {"no block 2"}));
  ASSERT_OK(Get(&cache, reader, 0).status());
  EXPECT_EQ(loads_, 1);
}

}  // namespace
}  // namespace sluice
