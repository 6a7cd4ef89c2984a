#include "sluice/predicate/like_pattern.h"

#include <gtest/gtest.h>

namespace sluice {
namespace {

bool Like(std::string_view value, std::string_view pattern) {
  return LikePattern::Compile(pattern).Matches(value);
}

TEST(LikePatternTest, Wildcards) {
  EXPECT_TRUE(Like("abc", "abc"));
  EXPECT_FALSE(Like("abcd", "abc"));
  EXPECT_FALSE(Like("ab", "abc"));
  EXPECT_TRUE(Like("abc", "a%"));
  EXPECT_TRUE(Like("a", "a%"));
  EXPECT_FALSE(Like("ba", "a%"));
  EXPECT_TRUE(Like("xxabc", "%abc"));
  EXPECT_FALSE(Like("xxabcx", "%abc"));
  EXPECT_TRUE(Like("xxabcx", "%abc%"));
  EXPECT_TRUE(Like("", "%"));
  EXPECT_TRUE(Like("", "%%"));
  EXPECT_FALSE(Like("", "_"));
  EXPECT_TRUE(Like("abc", "a_c"));
  EXPECT_FALSE(Like("ac", "a_c"));
  EXPECT_TRUE(Like("aXbYc", "a%b%c"));
  EXPECT_TRUE(Like("abababc", "%ab%c"));
  EXPECT_TRUE(Like("mississippi", "m%iss%ppi"));
  EXPECT_FALSE(Like("mississippi", "m%iss%ppix"));
  EXPECT_TRUE(Like("aaa", "%a_"));
  EXPECT_FALSE(Like("a", "%a_"));
  // '_' is one UTF-8 character, not one byte.
  EXPECT_TRUE(Like("\xc3\xa9t\xc3\xa9", "_t_"));
  EXPECT_TRUE(Like("\xe2\x82\xac", "_"));
  EXPECT_FALSE(Like("\xe2\x82\xac", "__"));
  EXPECT_TRUE(
      Like("x\xe2\x82\xac"
           "y",
           "%_y"));
  // Case-sensitive.
  EXPECT_FALSE(Like("ABC", "abc"));
}

TEST(LikePatternTest, EscapesAndShape) {
  EXPECT_TRUE(Like("50%", "50\\%"));
  EXPECT_FALSE(Like("500", "50\\%"));
  EXPECT_TRUE(Like("a_b", "a\\_b"));
  EXPECT_FALSE(Like("axb", "a\\_b"));
  EXPECT_TRUE(Like("a\\b", "a\\\\b"));
  EXPECT_TRUE(Like("a\\", "a\\"));  // a trailing backslash is itself

  LikePattern exact = LikePattern::Compile("a\\%b");
  EXPECT_TRUE(exact.is_exact());
  EXPECT_EQ(exact.fixed_prefix(), "a%b");
  LikePattern prefix = LikePattern::Compile("ab%%");
  EXPECT_TRUE(prefix.is_prefix());
  EXPECT_EQ(prefix.fixed_prefix(), "ab");
  LikePattern general = LikePattern::Compile("ab%c_");
  EXPECT_FALSE(general.is_prefix());
  EXPECT_FALSE(general.is_exact());
  EXPECT_EQ(general.fixed_prefix(), "ab");
  EXPECT_FALSE(LikePattern::Compile("a_%").is_prefix());
  EXPECT_EQ(LikePattern::Compile("%x").fixed_prefix(), "");

  EXPECT_EQ(LikePattern::Escape("5%_\\"), "5\\%\\_\\\\");
  EXPECT_TRUE(Like("5%_\\", LikePattern::Escape("5%_\\")));
}

TEST(LikePatternTest, ManyWildcardsStayFast) {
  std::string value(20000, 'a');
  std::string pattern = "%a%a%a%a%a%a%a%a%b";
  EXPECT_FALSE(Like(value, pattern));
}

}  // namespace
}  // namespace sluice
