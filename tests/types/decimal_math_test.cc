#include "sluice/types/decimal_math.h"

#include <gtest/gtest.h>

namespace sluice {
namespace {

TEST(DecimalMathTest, PowersOfTen) {
  EXPECT_EQ(Pow10(0), 1);
  EXPECT_EQ(Pow10(18), static_cast<int128_t>(1000000000000000000LL));
  EXPECT_EQ(Pow10(38) / Pow10(20), Pow10(18));
}

TEST(DecimalMathTest, HalfUpRoundsAwayFromZero) {
  EXPECT_EQ(DivideHalfUp(15, 10), 2);
  EXPECT_EQ(DivideHalfUp(-15, 10), -2);
  EXPECT_EQ(DivideHalfUp(14, 10), 1);
  EXPECT_EQ(DivideHalfUp(-14, 10), -1);
  EXPECT_EQ(DivideHalfUp(15, -10), -2);
  EXPECT_EQ(RescaleHalfUp(12345, 3, 1), 123);  // 12.345 -> 12.3
  EXPECT_EQ(RescaleHalfUp(12350, 3, 1), 124);  // 12.350 -> 12.4
  EXPECT_EQ(RescaleHalfUp(-12350, 3, 1), -124);
  EXPECT_EQ(RescaleHalfUp(123, 1, 3), 12300);
  EXPECT_EQ(RescaleHalfUp(7, 2, 2), 7);
  // Beyond 38 digits: dropping them rounds to 0, adding them wraps without undefined behaviour.
  EXPECT_EQ(RescaleHalfUp(Pow10(38) - 1, 76, 0), 0);
  EXPECT_EQ(RescaleHalfUp(0, 0, 70), 0);
}

TEST(DecimalMathTest, FitsPrecision) {
  EXPECT_TRUE(FitsPrecision(99999, 5));
  EXPECT_FALSE(FitsPrecision(100000, 5));
  EXPECT_TRUE(FitsPrecision(-99999, 5));
  EXPECT_FALSE(FitsPrecision(-100000, 5));
  EXPECT_TRUE(FitsPrecision(0, 1));
}

}  // namespace
}  // namespace sluice
