// JavaStringHash: Java's String.hashCode() over the UTF-16 code units of UTF-8 text.
#include "sluice/base/java_string_hash.h"

#include <gtest/gtest.h>

namespace sluice {
namespace {

TEST(JavaStringHashTest, MatchesJavaHashCode) {
  // Values from Java: "bucket".hashCode(), "".hashCode(), ...
  EXPECT_EQ(JavaStringHash("bucket"), -1378203158);
  EXPECT_EQ(JavaStringHash(""), 0);
  EXPECT_EQ(JavaStringHash("a"), 97);
  EXPECT_EQ(JavaStringHash("\xC3\xA9"), 233);  // "é": one UTF-16 unit, U+00E9
  // U+1F600 is the surrogate pair D83D DE00: 31 * 0xD83D + 0xDE00.
  EXPECT_EQ(JavaStringHash("\xF0\x9F\x98\x80"), 31 * 0xD83D + 0xDE00);
}

TEST(JavaStringHashTest, AsciiIsThePlainPolynomial) {
  // A data file name, as the stream scan shards by it.
  const std::string_view name = "data-15fb3da7-7143-4ad0-80e3-8cab9a14de94-0.parquet";
  uint32_t h = 0;
  for (unsigned char c : name) h = 31 * h + c;
  EXPECT_EQ(JavaStringHash(name), static_cast<int32_t>(h));
}

TEST(JavaStringHashTest, ATruncatedSequenceCountsByteByByte) {
  EXPECT_EQ(JavaStringHash("\xC3"), 0xC3);
  EXPECT_EQ(JavaStringHash("a\xE2\x82"), (97 * 31 + 0xE2) * 31 + 0x82);
}

}  // namespace
}  // namespace sluice
