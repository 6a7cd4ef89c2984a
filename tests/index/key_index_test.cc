#include "sluice/index/key_index.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "test_util.h"

namespace sluice {
namespace {

std::string KeyOf(int64_t k) { return "key-" + std::to_string(k * 7919 % 100003); }

TEST(KeyIndexTest, PutGetAndReplaceInMemory) {
  test::TempDir dir;
  KeyIndexOptions options;
  options.directory = dir.path() + "/index";
  ASSERT_OK_AND_ASSIGN(auto index, KeyIndex::Open(options));
  ASSERT_OK_AND_ASSIGN(auto missing, index->Get("a"));
  EXPECT_FALSE(missing.has_value());
  ASSERT_OK(index->Put("a", KeyLocation{1, 2}));
  ASSERT_OK(index->Put("b", KeyLocation{3, 4}));
  ASSERT_OK(index->Put("a", KeyLocation{5, 6}));
  ASSERT_OK_AND_ASSIGN(auto a, index->Get("a"));
  ASSERT_OK_AND_ASSIGN(auto b, index->Get("b"));
  EXPECT_EQ(a, (KeyLocation{5, 6}));
  EXPECT_EQ(b, (KeyLocation{3, 4}));
  EXPECT_EQ(index->memory_keys(), 2);
  EXPECT_EQ(index->spills(), 0);
}

TEST(KeyIndexTest, SpillsToRocksDbPastItsBudgetAndStillFindsEveryKey) {
  test::TempDir dir;
  KeyIndexOptions options;
  options.directory = dir.path() + "/index";
  options.memory_bytes = 64 << 10;  // about a thousand keys in memory
  ASSERT_OK_AND_ASSIGN(auto index, KeyIndex::Open(options));
  constexpr int64_t kKeys = 12000;
  for (int64_t k = 0; k < kKeys; ++k) {
    ASSERT_OK(
        index->Put(KeyOf(k), KeyLocation{static_cast<int32_t>(k % 7), static_cast<int32_t>(k)}));
  }
  // Moved keys: the newest location wins over the spilled one.
  for (int64_t k = 0; k < kKeys; k += 3) {
    ASSERT_OK(index->Put(KeyOf(k), KeyLocation{100, static_cast<int32_t>(k)}));
  }
  EXPECT_GT(index->spills(), 2);
  EXPECT_LT(index->memory_keys(), kKeys / 4);
  for (int64_t k = 0; k < kKeys; ++k) {
    ASSERT_OK_AND_ASSIGN(auto found, index->Get(KeyOf(k)));
    ASSERT_TRUE(found.has_value()) << k;
    EXPECT_EQ(*found, (KeyLocation{k % 3 == 0 ? 100 : static_cast<int32_t>(k % 7),
                                   static_cast<int32_t>(k)}))
        << k;
  }
  ASSERT_OK_AND_ASSIGN(auto absent, index->Get("no such key"));
  EXPECT_FALSE(absent.has_value());
}

TEST(KeyIndexTest, LocationsOutliveTheTtlNeitherInMemoryNorSpilled) {
  test::TempDir dir;
  int64_t now = 1000000;
  KeyIndexOptions options;
  options.directory = dir.path() + "/index";
  options.memory_bytes = 32 << 10;
  options.ttl_millis = 500;
  options.clock_millis = [&now] { return now; };
  ASSERT_OK_AND_ASSIGN(auto index, KeyIndex::Open(options));
  for (int64_t k = 0; k < 4000; ++k) ASSERT_OK(index->Put(KeyOf(k), KeyLocation{1, 1}));
  ASSERT_GT(index->spills(), 0);
  now += 400;
  ASSERT_OK(index->Put(KeyOf(0), KeyLocation{2, 2}));  // rewritten: young again
  now += 200;
  ASSERT_OK_AND_ASSIGN(auto rewritten, index->Get(KeyOf(0)));
  EXPECT_EQ(rewritten, (KeyLocation{2, 2}));
  for (int64_t k : {int64_t{1}, int64_t{3999}, int64_t{2000}}) {
    ASSERT_OK_AND_ASSIGN(auto expired, index->Get(KeyOf(k)));
    EXPECT_FALSE(expired.has_value()) << k;
  }
}

TEST(KeyIndexTest, RemovesItsDirectoryAndRefusesAnExistingOne) {
  test::TempDir dir;
  KeyIndexOptions options;
  options.directory = dir.path() + "/index";
  {
    ASSERT_OK_AND_ASSIGN(auto index, KeyIndex::Open(options));
    EXPECT_TRUE(std::filesystem::exists(options.directory));
    EXPECT_TRUE(test::HasError(KeyIndex::Open(options), StatusCode::kIOError,
                               {"key index directory", options.directory, "exists"}));
  }
  EXPECT_FALSE(std::filesystem::exists(options.directory));
  options.memory_bytes = 0;
  EXPECT_TRUE(
      test::HasError(KeyIndex::Open(options), StatusCode::kInvalidArgument, {"memory budget"}));
}

}  // namespace
}  // namespace sluice
