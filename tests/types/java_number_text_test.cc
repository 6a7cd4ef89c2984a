#include "sluice/types/java_number_text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace sluice {
namespace {

// Expected strings are Java's Double.toString / Float.toString (JDK 19+).
TEST(JavaNumberTextTest, DoubleLayoutSwitchesAtJavaThresholds) {
  EXPECT_EQ(JavaDoubleToString(1.0), "1.0");
  EXPECT_EQ(JavaDoubleToString(100.0), "100.0");
  EXPECT_EQ(JavaDoubleToString(0.1), "0.1");
  EXPECT_EQ(JavaDoubleToString(0.001), "0.001");
  EXPECT_EQ(JavaDoubleToString(0.00123), "0.00123");
  EXPECT_EQ(JavaDoubleToString(0.0001), "1.0E-4");
  EXPECT_EQ(JavaDoubleToString(1.0e-5), "1.0E-5");
  EXPECT_EQ(JavaDoubleToString(9.99e-4), "9.99E-4");
  EXPECT_EQ(JavaDoubleToString(1234567.5), "1234567.5");
  EXPECT_EQ(JavaDoubleToString(9999999.0), "9999999.0");
  EXPECT_EQ(JavaDoubleToString(1.0e7), "1.0E7");
  EXPECT_EQ(JavaDoubleToString(123456789.0), "1.23456789E8");
  EXPECT_EQ(JavaDoubleToString(1.0e10), "1.0E10");
  EXPECT_EQ(JavaDoubleToString(-1.25e-10), "-1.25E-10");
  EXPECT_EQ(JavaDoubleToString(2e23), "2.0E23");
  EXPECT_EQ(JavaDoubleToString(std::numeric_limits<double>::max()), "1.7976931348623157E308");
}

TEST(JavaNumberTextTest, DoubleSpecialValues) {
  EXPECT_EQ(JavaDoubleToString(0.0), "0.0");
  EXPECT_EQ(JavaDoubleToString(-0.0), "-0.0");
  EXPECT_EQ(JavaDoubleToString(1.0 / 0.0), "Infinity");
  EXPECT_EQ(JavaDoubleToString(-1.0 / 0.0), "-Infinity");
  EXPECT_EQ(JavaDoubleToString(std::nan("")), "NaN");
}

TEST(JavaNumberTextTest, SubnormalsTakeTheClosestOfOneOrTwoDigits) {
  // Double.MIN_VALUE: one digit ("5e-324") round-trips, but Java prints the closer "4.9E-324".
  EXPECT_EQ(JavaDoubleToString(std::numeric_limits<double>::denorm_min()), "4.9E-324");
  EXPECT_EQ(JavaDoubleToString(2 * std::numeric_limits<double>::denorm_min()), "9.9E-324");
  EXPECT_EQ(JavaDoubleToString(std::numeric_limits<double>::min()), "2.2250738585072014E-308");
  EXPECT_EQ(JavaFloatToString(std::numeric_limits<float>::denorm_min()), "1.4E-45");
  EXPECT_EQ(JavaFloatToString(std::numeric_limits<float>::min()), "1.1754944E-38");
}

TEST(JavaNumberTextTest, FloatUsesFloatDigits) {
  EXPECT_EQ(JavaFloatToString(0.1f), "0.1");
  EXPECT_EQ(JavaFloatToString(1.1f), "1.1");
  EXPECT_EQ(JavaFloatToString(1.0f), "1.0");
  EXPECT_EQ(JavaFloatToString(9999999.0f), "9999999.0");
  EXPECT_EQ(JavaFloatToString(1.0e7f), "1.0E7");
  EXPECT_EQ(JavaFloatToString(16777216.0f), "1.6777216E7");
  EXPECT_EQ(JavaFloatToString(1.0e-5f), "1.0E-5");
  EXPECT_EQ(JavaFloatToString(3.4028235e38f), "3.4028235E38");
  EXPECT_EQ(JavaFloatToString(-0.0f), "-0.0");
  EXPECT_EQ(JavaFloatToString(std::nanf("")), "NaN");
  EXPECT_EQ(JavaFloatToString(-1.0f / 0.0f), "-Infinity");
}

}  // namespace
}  // namespace sluice
