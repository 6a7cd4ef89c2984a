#include "sluice/base/murmur_hash.h"

#include <gtest/gtest.h>

#include <string>

namespace sluice {
namespace {

int32_t Words(const std::string& hex_free_bytes, uint32_t seed = kMurmurDefaultSeed) {
  return MurmurHashWords(reinterpret_cast<const uint8_t*>(hex_free_bytes.data()),
                         hex_free_bytes.size(), seed);
}

TEST(MurmurHashTest, ReferenceVectorsOfWholeWords) {
  // Published MurmurHash3_x86_32 vectors; on whole words Paimon's variant is the reference one.
  EXPECT_EQ(static_cast<uint32_t>(Words("", 0)), 0u);
  EXPECT_EQ(static_cast<uint32_t>(Words("", 1)), 0x514E28B7u);
  EXPECT_EQ(static_cast<uint32_t>(Words("", 0xffffffffu)), 0x81F16F39u);
  EXPECT_EQ(static_cast<uint32_t>(Words("test", 0)), 0xba6bd213u);
  EXPECT_EQ(static_cast<uint32_t>(Words(std::string(4, '\0'), 0)), 0x2362F9DEu);
}

TEST(MurmurHashTest, BinaryRowHashesFromJava) {
  // BinaryRow.hashCode() values from format-spec 6.3 (Java bucket-id vectors).
  std::string int0(16, '\0');
  EXPECT_EQ(Words(int0), -300363099);
  std::string int1(16, '\0');
  int1[8] = 1;
  EXPECT_EQ(Words(int1), 1465514398);
  std::string null_int(16, '\0');
  null_int[1] = 1;
  EXPECT_EQ(Words(null_int), -1748325344);
}

TEST(MurmurHashTest, BytesTailIsMixedPerSignExtendedByte) {
  // Whole words: identical to the word hash.
  std::string aligned = "abcdefgh";
  EXPECT_EQ(MurmurHashBytes(reinterpret_cast<const uint8_t*>(aligned.data()), aligned.size()),
            Words(aligned));
  // A one-byte tail 0xff is mixed as the int -1 (Java's byte sign extension), so it must differ
  // from mixing 0x000000ff, and the result must not depend on bytes past the length.
  const uint8_t a[8] = {1, 2, 3, 4, 0xff, 9, 9, 9};
  const uint8_t b[8] = {1, 2, 3, 4, 0xff, 7, 7, 7};
  EXPECT_EQ(MurmurHashBytes(a, 5), MurmurHashBytes(b, 5));
  const uint8_t c[5] = {1, 2, 3, 4, 0x7f};
  EXPECT_NE(MurmurHashBytes(a, 5), MurmurHashBytes(c, 5));
  // Hand-computed from MurmurHashUtils.hashBytes for the single byte 0xff, seed 42:
  // k1 = mixK1(-1), h1 = mixH1(42, k1), fmix(h1 ^ 1).
  uint32_t k1 = 0xffffffffu * 0xcc9e2d51u;
  k1 = (k1 << 15) | (k1 >> 17);
  k1 *= 0x1b873593u;
  uint32_t h1 = 42u ^ k1;
  h1 = (h1 << 13) | (h1 >> 19);
  h1 = h1 * 5 + 0xe6546b64u;
  h1 ^= 1;
  h1 ^= h1 >> 16;
  h1 *= 0x85ebca6bu;
  h1 ^= h1 >> 13;
  h1 *= 0xc2b2ae35u;
  h1 ^= h1 >> 16;
  const uint8_t ff = 0xff;
  EXPECT_EQ(MurmurHashBytes(&ff, 1), static_cast<int32_t>(h1));
}

TEST(MurmurHashTest, WordsIgnoresPartialTrailingWordButCountsLength) {
  const uint8_t a[6] = {1, 2, 3, 4, 5, 6};
  const uint8_t b[6] = {1, 2, 3, 4, 7, 8};
  EXPECT_EQ(MurmurHashWords(a, 6), MurmurHashWords(b, 6));
  EXPECT_NE(MurmurHashWords(a, 6), MurmurHashWords(a, 4));
}

}  // namespace
}  // namespace sluice
