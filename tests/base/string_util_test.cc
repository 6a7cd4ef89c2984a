#include "sluice/base/string_util.h"

#include <gtest/gtest.h>

namespace sluice {
namespace {

TEST(StringUtilTest, AsciiToLowerKeepsOtherBytes) {
  EXPECT_EQ(AsciiToLower("ZSTD"), "zstd");
  EXPECT_EQ(AsciiToLower("Merge-Engine_1"), "merge-engine_1");
  EXPECT_EQ(AsciiToLower("\xC3\x89t\xC3\xA9"), "\xC3\x89t\xC3\xA9");  // UTF-8 bytes untouched
  EXPECT_EQ(AsciiToLower(""), "");
}

TEST(StringUtilTest, EqualsIgnoreAsciiCase) {
  EXPECT_TRUE(EqualsIgnoreAsciiCase("TRUE", "true"));
  EXPECT_TRUE(EqualsIgnoreAsciiCase("NaN", "nan"));
  EXPECT_FALSE(EqualsIgnoreAsciiCase("true", "tru"));
  EXPECT_FALSE(EqualsIgnoreAsciiCase("inf", "int"));
}

}  // namespace
}  // namespace sluice
