// The lookup files' bloom filter: bit i of a key is (h1 + i * h2) mod num_bits with h1, h2 the
// key's MurmurHashes (seeds 42 and 0x5bd1e995, h2 made odd), whatever way the filter steps
// through them; added keys are always found and the filter round-trips through its bytes.
#include "sluice/lsm/lookup/bloom_filter.h"

#include <gtest/gtest.h>

#include <string>

#include "sluice/base/coding.h"
#include "sluice/base/murmur_hash.h"
#include "test_util.h"

namespace sluice {
namespace {

uint32_t Hash(const std::string& key, uint32_t seed) {
  return static_cast<uint32_t>(
      MurmurHashBytes(reinterpret_cast<const uint8_t*>(key.data()), key.size(), seed));
}

TEST(BloomFilterTest, BitsAreTheDoubleHashingPositions) {
  // Bit counts far below 2^32: the positions wrap many times.
  for (int64_t entries : {1, 7, 1000}) {
    BloomFilter filter = BloomFilter::ForEntries(entries, 0.05);
    std::string empty;
    filter.AppendTo(&empty);
    const int32_t k =
        static_cast<int32_t>(DecodeFixed32LE(reinterpret_cast<const uint8_t*>(empty.data())));
    const uint64_t bits = DecodeFixed64LE(reinterpret_cast<const uint8_t*>(empty.data()) + 4);
    std::string expected(bits / 8, '\0');
    for (int64_t e = 0; e < entries; ++e) {
      const std::string key = "key-" + std::to_string(e * 7919);
      filter.Add(key);
      const uint64_t h1 = Hash(key, kMurmurDefaultSeed);
      const uint64_t h2 = Hash(key, 0x5bd1e995) | 1u;
      for (int32_t i = 1; i <= k; ++i) {
        const uint64_t bit = (h1 + h2 * static_cast<uint64_t>(i)) % bits;
        expected[bit >> 3] = static_cast<char>(expected[bit >> 3] | (1 << (bit & 7)));
      }
    }
    std::string serialized;
    filter.AppendTo(&serialized);
    EXPECT_EQ(serialized.substr(12), expected) << entries << " entries";
    ASSERT_OK_AND_ASSIGN(BloomFilter parsed, BloomFilter::Parse(serialized, "test filter"));
    for (int64_t e = 0; e < entries; ++e) {
      EXPECT_TRUE(parsed.MightContain("key-" + std::to_string(e * 7919)));
    }
  }
}

TEST(BloomFilterTest, AbsentKeysAreMostlyRuledOut) {
  BloomFilter filter = BloomFilter::ForEntries(10000, 0.05);
  for (int i = 0; i < 10000; ++i) filter.Add("present-" + std::to_string(i));
  int false_positives = 0;
  for (int i = 0; i < 10000; ++i)
    false_positives += filter.MightContain("absent-" + std::to_string(i));
  // 5% expected; twice that would mean the positions are not spread.
  EXPECT_LT(false_positives, 1000);
}

}  // namespace
}  // namespace sluice
