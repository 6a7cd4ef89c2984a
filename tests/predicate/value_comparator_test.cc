#include "sluice/types/value_comparator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "predicate/predicate_test_util.h"

namespace sluice {
namespace {

Value Dec(int128_t unscaled, int32_t precision, int32_t scale) {
  return Value::FromDecimal(Decimal{unscaled, precision, scale});
}

int Cmp(const Value& a, const Value& b, const DataTypePtr& type) {
  return CompareValues(a, b, *type);
}

TEST(ValueComparatorTest, DoublesFollowJavaDoubleCompare) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_LT(CompareDouble(-0.0, 0.0), 0);
  EXPECT_GT(CompareDouble(0.0, -0.0), 0);
  EXPECT_EQ(CompareDouble(0.0, 0.0), 0);
  EXPECT_EQ(CompareDouble(nan, nan), 0);
  EXPECT_EQ(CompareDouble(nan, -nan), 0);  // every NaN is one value in Java's order
  EXPECT_GT(CompareDouble(nan, inf), 0);
  EXPECT_LT(CompareDouble(-inf, -1e308), 0);
  EXPECT_LT(CompareDouble(1.0, nan), 0);
  EXPECT_GT(CompareDouble(2.5, 1.5), 0);
  EXPECT_LT(CompareFloat(-0.0f, 0.0f), 0);
  EXPECT_GT(CompareFloat(std::numeric_limits<float>::quiet_NaN(), 1e38f), 0);

  // Sorting with the order is total: -inf, -1, -0.0, 0.0, 1, inf, NaN.
  std::vector<double> v = {nan, 1.0, -0.0, inf, 0.0, -1.0, -inf};
  std::sort(v.begin(), v.end(), [](double a, double b) { return CompareDouble(a, b) < 0; });
  EXPECT_EQ(v[0], -inf);
  EXPECT_EQ(v[1], -1.0);
  EXPECT_TRUE(std::signbit(v[2]) && v[2] == 0.0);
  EXPECT_TRUE(!std::signbit(v[3]) && v[3] == 0.0);
  EXPECT_EQ(v[4], 1.0);
  EXPECT_EQ(v[5], inf);
  EXPECT_TRUE(std::isnan(v[6]));

  auto dbl = DataType::Double();
  EXPECT_LT(Cmp(Value::Double(1.0), Value::Double(nan), dbl), 0);
  // A FLOAT value compares with a DOUBLE literal by widening.
  EXPECT_EQ(Cmp(Value::Float(0.5f), Value::Double(0.5), DataType::Float()), 0);
}

TEST(ValueComparatorTest, DecimalsCompareByValueAcrossScales) {
  EXPECT_EQ(CompareDecimal({150, 5, 2}, {15, 5, 1}), 0);  // 1.50 == 1.5
  EXPECT_LT(CompareDecimal({149, 5, 2}, {15, 5, 1}), 0);
  EXPECT_GT(CompareDecimal({1005, 10, 3}, {100, 10, 2}), 0);  // 1.005 > 1.00
  EXPECT_LT(CompareDecimal({-5, 5, 1}, {3, 5, 1}), 0);        // -0.5 < 0.3
  EXPECT_LT(CompareDecimal({-15, 5, 1}, {-12, 5, 1}), 0);     // -1.5 < -1.2
  EXPECT_LT(CompareDecimal({-15, 5, 1}, {-5, 5, 1}), 0);      // -1.5 < -0.5
  EXPECT_GT(CompareDecimal({-1, 5, 3}, {-2, 5, 2}), 0);       // -0.001 > -0.02
  EXPECT_EQ(CompareDecimal({0, 5, 0}, {0, 38, 38}), 0);
  // Extremes of DECIMAL(38, x): no overflow when rescaling.
  int128_t big = 1;
  for (int i = 0; i < 38; ++i) big *= 10;
  big -= 1;  // 38 nines
  EXPECT_GT(CompareDecimal({big, 38, 0}, {big, 38, 38}), 0);
  EXPECT_LT(CompareDecimal({-big, 38, 0}, {big, 38, 38}), 0);
  EXPECT_LT(CompareDecimal({-big, 38, 0}, {-big, 38, 37}), 0);
  EXPECT_EQ(Cmp(Dec(1230, 10, 2), Dec(123, 10, 1), DataType::Decimal(10, 2)), 0);
  EXPECT_TRUE(ValuesEqual(Dec(1230, 10, 2), Dec(123, 4, 1), *DataType::Decimal(10, 2)));
}

TEST(ValueComparatorTest, BytesAreUnsigned) {
  EXPECT_LT(CompareBytes("a", "\xff"), 0);  // 0x61 < 0xff even where char is signed
  EXPECT_LT(CompareBytes("ab", "abc"), 0);
  EXPECT_LT(CompareBytes("", "a"), 0);
  EXPECT_EQ(CompareBytes("", ""), 0);
  EXPECT_GT(CompareBytes("b", "abc"), 0);
  EXPECT_LT(CompareBytes("\xc3\xa9", "\xe2\x82\xac"), 0);  // é < € as UTF-8 bytes
  EXPECT_LT(Cmp(Value::String("Z"), Value::String("a"), DataType::String()), 0);
  EXPECT_LT(Cmp(Value::Binary(std::string("\x00", 1)), Value::Binary("\x80"), DataType::Bytes()),
            0);
}

TEST(ValueComparatorTest, TimestampsBooleansAndIntegers) {
  auto ts = DataType::Timestamp(9);
  EXPECT_LT(Cmp(Value::FromTimestamp({1000, 5}), Value::FromTimestamp({1000, 6}), ts), 0);
  EXPECT_GT(Cmp(Value::FromTimestamp({1001, 0}), Value::FromTimestamp({1000, 999999}), ts), 0);
  EXPECT_LT(Cmp(Value::FromTimestamp({-1, 999999}), Value::FromTimestamp({0, 0}), ts), 0);
  EXPECT_LT(Cmp(Value::Boolean(false), Value::Boolean(true), DataType::Boolean()), 0);
  EXPECT_LT(
      Cmp(Value::Int64(std::numeric_limits<int64_t>::min()), Value::Int64(0), DataType::BigInt()),
      0);
  // Integral kinds compare by value whatever their width.
  EXPECT_EQ(Cmp(Value::Int8(7), Value::Int64(7), DataType::TinyInt()), 0);
  EXPECT_LT(Cmp(Value::Int32(-3), Value::Int32(2), DataType::Date()), 0);
}

TEST(ValueComparatorTest, NullsFirstAndNestedLexicographic) {
  auto arr = DataType::Array(DataType::Int());
  EXPECT_LT(Cmp(Value::Null(), Value::Int32(std::numeric_limits<int32_t>::min()), DataType::Int()),
            0);
  EXPECT_EQ(Cmp(Value::Null(), Value::Null(), DataType::Int()), 0);
  auto a = [](std::vector<Value> v) { return Value::Array(std::move(v)); };
  EXPECT_LT(Cmp(a({Value::Int32(1), Value::Int32(2)}), a({Value::Int32(1), Value::Int32(3)}), arr),
            0);
  EXPECT_LT(Cmp(a({Value::Int32(1)}), a({Value::Int32(1), Value::Int32(0)}), arr), 0);
  EXPECT_LT(Cmp(a({Value::Null()}), a({Value::Int32(0)}), arr), 0);
  EXPECT_EQ(Cmp(a({}), a({}), arr), 0);

  auto row = test::RowOf({{"s", DataType::String()}, {"d", DataType::Double()}});
  auto r = [](std::string s, double d) { return Value::Row({Value::String(s), Value::Double(d)}); };
  EXPECT_LT(Cmp(r("a", 9), r("b", 0), row), 0);
  EXPECT_LT(Cmp(r("a", -0.0), r("a", 0.0), row), 0);
  EXPECT_EQ(Cmp(r("a", 1), r("a", 1), row), 0);

  auto map = DataType::Map(DataType::String(), DataType::Int());
  Value m1 = Value::Map({{Value::String("k"), Value::Int32(1)}});
  Value m2 = Value::Map({{Value::String("k"), Value::Int32(2)}});
  EXPECT_LT(Cmp(m1, m2, map), 0);
  EXPECT_EQ(Cmp(m1, m1, map), 0);
}

TEST(ValueComparatorTest, MismatchedRepresentationsNeverCrash) {
  auto i = DataType::Int();
  EXPECT_FALSE(ValueFitsType(Value::String("x"), *i));
  EXPECT_TRUE(ValueFitsType(Value::Null(), *i));
  EXPECT_TRUE(ValueFitsType(Value::Int64(1), *i));
  EXPECT_FALSE(ValueFitsType(Value::Int32(1), *DataType::Decimal(5, 0)));
  EXPECT_TRUE(ValueFitsType(Value::Binary("x"), *DataType::String()));
  // A value that fits orders before one that does not; both orders are consistent.
  EXPECT_LT(Cmp(Value::Int32(1), Value::String("x"), i), 0);
  EXPECT_GT(Cmp(Value::String("x"), Value::Int32(1), i), 0);
  EXPECT_NE(Cmp(Value::String("x"), Value::Double(1), i), 0);
}

TEST(ValueComparatorTest, ValueLessSortsWithTheTypeOrder) {
  auto s = DataType::String();
  std::vector<Value> v = {Value::String("b"), Value::Null(), Value::String("\xff"),
                          Value::String("a")};
  std::sort(v.begin(), v.end(), ValueLess(*s));
  EXPECT_TRUE(v[0].is_null());
  EXPECT_EQ(v[1].bytes(), "a");
  EXPECT_EQ(v[2].bytes(), "b");
  EXPECT_EQ(v[3].bytes(), "\xff");
}

}  // namespace
}  // namespace sluice
