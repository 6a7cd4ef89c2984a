// SortLookupStoreBlock: the hash index finds every key of a block and nothing else, colliding
// hashes included, and a block whose entries do not fit is refused before it is indexed.
#include "sluice/lsm/lookup/sort_lookup_store_block.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sluice/base/coding.h"
#include "test_util.h"

namespace sluice {
namespace {

// A block as SortLookupStoreWriter lays it out.
std::string BlockOf(const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string block;
  std::vector<uint32_t> offsets;
  for (const auto& [key, value] : entries) {
    offsets.push_back(static_cast<uint32_t>(block.size()));
    PutVarint64(&block, key.size());
    PutVarint64(&block, value.size());
    block += key;
    block += value;
  }
  for (uint32_t offset : offsets) PutFixed32LE(&block, offset);
  PutFixed32LE(&block, static_cast<uint32_t>(offsets.size()));
  return block;
}

TEST(SortLookupStoreBlockTest, FindsEveryKeyAndNoOther) {
  std::vector<std::pair<std::string, std::string>> entries;
  for (int i = 0; i < 1000; i += 2) {
    entries.emplace_back("key-" + std::to_string(100000 + i), "value-" + std::to_string(i));
  }
  ASSERT_OK_AND_ASSIGN(SortLookupStoreBlock block, SortLookupStoreBlock::Make(BlockOf(entries)));
  EXPECT_EQ(block.entry_count(), 500u);
  // The index costs at most two slots of four bytes per entry beyond the block.
  EXPECT_LE(block.memory_size(), static_cast<int64_t>(BlockOf(entries).size()) + 500 * 16);
  for (int i = 0; i < 1000; ++i) {
    const std::string key = "key-" + std::to_string(100000 + i);
    std::string_view value;
    const bool found = block.Find(key, SortLookupStoreBlock::HashOf(key), &value);
    ASSERT_EQ(found, i % 2 == 0) << key;
    if (found) EXPECT_EQ(value, "value-" + std::to_string(i));
  }
  std::string_view value;
  EXPECT_FALSE(block.Find("", SortLookupStoreBlock::HashOf(""), &value));
}

// Lookups given one hash for every key walk the probe chain and compare the keys.
TEST(SortLookupStoreBlockTest, CollidingHashesStillCompareKeys) {
  std::vector<std::pair<std::string, std::string>> entries = {
      {"a", "1"}, {"b", "2"}, {"c", ""}, {"d", "4"}};
  ASSERT_OK_AND_ASSIGN(SortLookupStoreBlock block, SortLookupStoreBlock::Make(BlockOf(entries)));
  for (const auto& [key, expected] : entries) {
    std::string_view value;
    // Under a hash that is not the key's own it may be missed, never given another's value.
    EXPECT_FALSE(block.Find(key, SortLookupStoreBlock::HashOf(key) + 1, &value) &&
                 value != expected)
        << key;
    ASSERT_TRUE(block.Find(key, SortLookupStoreBlock::HashOf(key), &value)) << key;
    EXPECT_EQ(value, expected);
  }
  std::string_view value;
  EXPECT_FALSE(block.Find("e", SortLookupStoreBlock::HashOf("a"), &value));
}

TEST(SortLookupStoreBlockTest, EntriesOutsideTheBlockAreCorruption) {
  std::string block = BlockOf({{"alpha", "one"}, {"beta", "two"}});
  EXPECT_TRUE(
      test::HasError(SortLookupStoreBlock::Make(""), StatusCode::kCorruption, {"entry count"}));
  std::string huge_count = block;
  EncodeFixed32LE(reinterpret_cast<uint8_t*>(huge_count.data() + huge_count.size() - 4), 1000);
  EXPECT_TRUE(test::HasError(SortLookupStoreBlock::Make(huge_count), StatusCode::kCorruption,
                             {"entry count"}));
  // The second entry's offset points past the entries.
  std::string bad_offset = block;
  EncodeFixed32LE(reinterpret_cast<uint8_t*>(bad_offset.data() + bad_offset.size() - 8), 500);
  EXPECT_TRUE(test::HasError(SortLookupStoreBlock::Make(bad_offset), StatusCode::kCorruption,
                             {"entry 1", "outside"}));
  // The first entry's key length runs past the entries.
  std::string bad_length = block;
  bad_length[0] = 100;
  EXPECT_TRUE(test::HasError(SortLookupStoreBlock::Make(bad_length), StatusCode::kCorruption,
                             {"entry 0", "outside"}));
}

}  // namespace
}  // namespace sluice
