// IntHashMap / IntHashSet (base/int_hash_map.h) against std::unordered_map / std::unordered_set
// over random keys (key 0 and negative keys among them), through many rehashes.
#include "sluice/base/int_hash_map.h"

#include <gtest/gtest.h>

#include <random>
#include <unordered_map>
#include <unordered_set>

namespace sluice {
namespace {

TEST(IntHashMapTest, MatchesUnorderedMapThroughRehashes) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int32_t> key(-5000, 5000);
  Int2ShortHashMap map;
  std::unordered_map<int32_t, int16_t> model;
  for (int i = 0; i < 40000; ++i) {
    const int32_t k = i % 97 == 0 ? 0 : key(rng);
    const auto v = static_cast<int16_t>(i % 30000);
    if (i % 3 == 0) {
      map.Put(k, v);
      model[k] = v;
    } else {
      EXPECT_EQ(map.Insert(k, v), model.emplace(k, v).second) << k;
    }
    const int32_t probe = key(rng);
    const int16_t* found = map.Find(probe);
    auto it = model.find(probe);
    ASSERT_EQ(found != nullptr, it != model.end()) << probe;
    if (found != nullptr) EXPECT_EQ(*found, it->second) << probe;
  }
  EXPECT_EQ(map.size(), model.size());
  for (const auto& [k, v] : model) {
    ASSERT_NE(map.Find(k), nullptr) << k;
    EXPECT_EQ(*map.Find(k), v) << k;
  }
}

TEST(IntHashMapTest, KeyZeroAndReserve) {
  Int2ShortHashMap map;
  EXPECT_TRUE(map.empty());
  EXPECT_EQ(map.Find(0), nullptr);
  EXPECT_EQ(map.Find(7), nullptr);
  EXPECT_TRUE(map.Insert(0, 3));
  EXPECT_FALSE(map.Insert(0, 4));
  EXPECT_EQ(*map.Find(0), 3);
  map.Put(0, 5);
  EXPECT_EQ(*map.Find(0), 5);
  map.Reserve(100000);
  for (int32_t k = 1; k <= 100000; ++k) map.Put(k * 7919, static_cast<int16_t>(k & 0x7fff));
  EXPECT_EQ(map.size(), 100001u);
  EXPECT_EQ(*map.Find(0), 5);
  EXPECT_EQ(*map.Find(7919 * 12345), 12345);
  EXPECT_EQ(map.Find(7918), nullptr);
}

TEST(IntHashSetTest, AddReportsNewKeysOnly) {
  std::mt19937 rng(5);
  IntHashSet set;
  std::unordered_set<int32_t> model;
  for (int i = 0; i < 20000; ++i) {
    const auto k = static_cast<int32_t>(rng() % 3000) - 1500;
    EXPECT_EQ(set.Add(k), model.insert(k).second) << k;
  }
  EXPECT_EQ(set.size(), model.size());
  for (int32_t k = -1600; k < 1600; ++k) EXPECT_EQ(set.Contains(k), model.count(k) == 1) << k;
}

}  // namespace
}  // namespace sluice
