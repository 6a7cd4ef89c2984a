// ColumnRowComparator orders column rows exactly as CompareValues orders their Values, for every
// scalar type a key or sequence field can have (Java's orders: -0.0 < 0.0, NaN last, unsigned
// bytes, shorter prefix first, nulls first), and reverses only non-null values when descending.
#include "sluice/lsm/column_row_comparator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "sluice/types/value_comparator.h"
#include "test_util.h"

namespace sluice {
namespace {

int Sign(int c) { return c < 0 ? -1 : (c > 0 ? 1 : 0); }

void CheckAgainstValues(const DataTypePtr& type, const std::vector<Value>& values) {
  ColumnVector column(type);
  for (const Value& v : values) ASSERT_OK(column.AppendValue(v));
  for (size_t i = 0; i < values.size(); ++i) {
    for (size_t j = 0; j < values.size(); ++j) {
      EXPECT_EQ(
          Sign(CompareColumnRows(column, static_cast<int64_t>(i), column, static_cast<int64_t>(j))),
          Sign(CompareValues(values[i], values[j], *type)))
          << type->ToString() << " rows " << i << ", " << j;
    }
  }
}

TEST(ColumnRowComparatorTest, AgreesWithCompareValues) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CheckAgainstValues(DataType::Boolean(),
                     {Value::Null(), Value::Boolean(true), Value::Boolean(false)});
  CheckAgainstValues(DataType::TinyInt(),
                     {Value::Int8(-128), Value::Int8(127), Value::Null(), Value::Int8(0)});
  CheckAgainstValues(DataType::SmallInt(), {Value::Int16(-3), Value::Int16(300), Value::Null()});
  CheckAgainstValues(DataType::Int(),
                     {Value::Int32(5), Value::Int32(-5), Value::Null(), Value::Int32(5)});
  CheckAgainstValues(DataType::BigInt(), {Value::Int64(INT64_MIN), Value::Int64(INT64_MAX),
                                          Value::Int64(0), Value::Null()});
  CheckAgainstValues(
      DataType::Double(),
      {Value::Double(nan), Value::Double(-0.0), Value::Double(0.0), Value::Double(-INFINITY),
       Value::Double(INFINITY), Value::Null(), Value::Double(1.5)});
  CheckAgainstValues(DataType::Float(), {Value::Float(std::nanf("")), Value::Float(-0.0f),
                                         Value::Float(0.0f), Value::Float(-1.0f), Value::Null()});
  CheckAgainstValues(
      DataType::Decimal(10, 2),
      {Value::FromDecimal(Decimal{-150, 10, 2}), Value::FromDecimal(Decimal{99, 10, 2}),
       Value::Null(), Value::FromDecimal(Decimal{0, 10, 2})});
  CheckAgainstValues(DataType::Decimal(30, 3),
                     {Value::FromDecimal(Decimal{static_cast<int128_t>(1) << 100, 30, 3}),
                      Value::FromDecimal(Decimal{-(static_cast<int128_t>(1) << 90), 30, 3}),
                      Value::FromDecimal(Decimal{7, 30, 3}), Value::Null()});
  CheckAgainstValues(
      DataType::Timestamp(9),
      {Value::FromTimestamp(Timestamp{1000, 5}), Value::FromTimestamp(Timestamp{1000, 4}),
       Value::FromTimestamp(Timestamp{-1, 999999}), Value::Null()});
  CheckAgainstValues(DataType::String(),
                     {Value::String("abc"), Value::String("ab"), Value::String(""),
                      Value::String("\xc3\xa9"), Value::String("z"), Value::Null()});
  CheckAgainstValues(DataType::Bytes(), {Value::Binary(std::string("\x80", 1)),
                                         Value::Binary(std::string("\x01", 1)), Value::Binary("")});
  CheckAgainstValues(DataType::Array(DataType::Int()),
                     {Value::Array({Value::Int32(1), Value::Int32(2)}),
                      Value::Array({Value::Int32(1)}), Value::Null()});
}

TEST(ColumnRowComparatorTest, ColumnsInOrderAndDescendingKeepsNullsFirst) {
  ColumnBatch batch(
      DataType::Row({DataField{0, "a", DataType::Int(), std::nullopt, std::nullopt},
                     DataField{1, "b", DataType::String(), std::nullopt, std::nullopt}}));
  ASSERT_OK(batch.AppendRow({Value::Int32(1), Value::String("y")}));
  ASSERT_OK(batch.AppendRow({Value::Int32(1), Value::String("x")}));
  ASSERT_OK(batch.AppendRow({Value::Null(), Value::String("z")}));
  const ColumnRowComparator ascending({0, 1});
  EXPECT_GT(ascending.Compare(batch, 0, batch, 1), 0);
  EXPECT_LT(ascending.Compare(batch, 2, batch, 0), 0);
  EXPECT_EQ(ascending.Compare(batch, 1, batch, 1), 0);
  const ColumnRowComparator descending({0, 1}, false);
  EXPECT_LT(descending.Compare(batch, 0, batch, 1), 0);
  EXPECT_LT(descending.Compare(batch, 2, batch, 0), 0);  // null still first
}

}  // namespace
}  // namespace sluice
