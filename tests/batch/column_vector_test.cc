#include "sluice/column_vector.h"

#include <gtest/gtest.h>

#include "sluice/column_batch.h"
#include "test_util.h"
#include "types/field_util.h"

namespace sluice {
namespace {

using test::Field;

TEST(ColumnVectorTest, EveryTypeRoundTripsThroughValuesWithNulls) {
  DataTypePtr row = DataType::Row({
      Field(0, "b", DataType::Boolean()),
      Field(1, "i8", DataType::TinyInt()),
      Field(2, "i16", DataType::SmallInt()),
      Field(3, "i32", DataType::Int()),
      Field(4, "i64", DataType::BigInt()),
      Field(5, "f", DataType::Float()),
      Field(6, "d", DataType::Double()),
      Field(7, "dec", DataType::Decimal(10, 2)),
      Field(8, "big", DataType::Decimal(38, 4)),
      Field(9, "s", DataType::String()),
      Field(10, "bin", DataType::Bytes()),
      Field(11, "date", DataType::Date()),
      Field(12, "ts", DataType::Timestamp(9)),
      Field(13, "arr", DataType::Array(DataType::Int())),
      Field(14, "map", DataType::Map(DataType::String(false), DataType::BigInt())),
      Field(15, "nested",
            DataType::Row({Field(16, "x", DataType::Int()),
                           Field(17, "y", DataType::Array(DataType::String()))})),
  });
  ValueList full = {
      Value::Boolean(true),
      Value::Int8(-8),
      Value::Int16(-16),
      Value::Int32(32),
      Value::Int64(-64),
      Value::Float(1.5f),
      Value::Double(-2.25),
      Value::FromDecimal(Decimal{12345, 10, 2}),
      Value::FromDecimal(Decimal{static_cast<int128_t>(1) << 100, 38, 4}),
      Value::String("paimon"),
      Value::Binary(std::string("\0\1\2", 3)),
      Value::Int32(19000),
      Value::FromTimestamp(Timestamp{1700000000123, 456789}),
      Value::Array({Value::Int32(1), Value(), Value::Int32(3)}),
      Value::Map({{Value::String("k"), Value::Int64(1)}, {Value::String("z"), Value()}}),
      Value::Row({Value::Int32(7), Value::Array({Value::String("a"), Value()})}),
  };
  ValueList nulls(full.size());
  ColumnBatch batch(row);
  // A null first row exercises validity created after the fact.
  ASSERT_OK(batch.AppendRow(nulls));
  ASSERT_OK(batch.AppendRow(full));
  ASSERT_OK(batch.AppendRow(nulls));
  ASSERT_OK(batch.AppendRow(full));
  ASSERT_EQ(batch.num_rows(), 4);
  for (int64_t i = 0; i < 4; ++i) {
    EXPECT_EQ(batch.GetRow(i), Value::Row(i % 2 == 0 ? nulls : full)) << "row " << i;
  }
  EXPECT_EQ(batch.column(9)->CountNulls(), 2);
  EXPECT_EQ(batch.column(9)->GetBytes(1), "paimon");
  EXPECT_EQ(batch.column(13)->ListBegin(1), 0);
  EXPECT_EQ(batch.column(13)->ListEnd(1), 3);
  batch.Clear();
  EXPECT_EQ(batch.num_rows(), 0);
  EXPECT_EQ(batch.column(13)->child(0)->size(), 0);
}

TEST(ColumnVectorTest, MismatchedValuesAreRejected) {
  ColumnVector ints(DataType::TinyInt());
  EXPECT_TRUE(test::HasError(ints.AppendValue(Value::Int32(1000)), StatusCode::kInvalidArgument,
                             {"value 1000 does not fit type TINYINT"}));
  EXPECT_TRUE(test::HasError(ints.AppendValue(Value::String("x")), StatusCode::kInvalidArgument,
                             {"does not fit type TINYINT"}));
  EXPECT_OK(ints.AppendValue(Value::Int64(-128)));
  ColumnVector strings(DataType::String());
  EXPECT_TRUE(test::HasError(strings.AppendValue(Value::Int32(1)), StatusCode::kInvalidArgument,
                             {"value 1 does not fit type STRING"}));
  ColumnBatch batch(DataType::Row({Field(0, "a", DataType::Int())}));
  EXPECT_TRUE(test::HasError(batch.AppendRow({Value::Int32(1), Value::Int32(2)}),
                             StatusCode::kInvalidArgument, {"row has 2 fields, batch has 1"}));
  EXPECT_TRUE(test::HasError(batch.AppendRow({Value::String("x")}), StatusCode::kInvalidArgument,
                             {"column a", "does not fit type INT"}));
}

TEST(ColumnVectorTest, DecodersResizeAndFillBuffers) {
  ColumnVector v(DataType::BigInt());
  v.Resize(3);
  int64_t* data = v.data<int64_t>();
  data[0] = 1;
  data[1] = 2;
  data[2] = 3;
  EXPECT_FALSE(v.has_nulls());
  v.MutableValidity()[1] = 0;
  EXPECT_TRUE(v.IsNull(1));
  v.Resize(5);  // validity grows with new rows valid
  EXPECT_FALSE(v.IsNull(4));
  EXPECT_EQ(v.CountNulls(), 1);
  EXPECT_EQ(v.GetValue(2), Value::Int64(3));
}

// SwapRows moves whole columns, nested ones with their children, each side keeping its type.
TEST(ColumnVectorTest, SwapRowsExchangesRowsAndKeepsTypes) {
  const DataTypePtr nested = DataType::Row(
      {DataField{0, "s", DataType::String(), std::nullopt, std::nullopt},
       DataField{1, "a", DataType::Array(DataType::Int()), std::nullopt, std::nullopt}});
  const DataTypePtr renamed = DataType::Row(
      {DataField{0, "t", DataType::String(false), std::nullopt, std::nullopt},
       DataField{1, "b", DataType::Array(DataType::Int()), std::nullopt, std::nullopt}});
  ColumnVector full(nested);
  ColumnVector empty(renamed);
  const Value first = Value::Row({Value::String("paimon"), Value::Array({Value::Int32(1)})});
  const Value second = Value::Row({Value::Null(), Value::Array({})});
  ASSERT_OK(full.AppendValue(first));
  ASSERT_OK(full.AppendValue(second));
  ASSERT_OK(full.AppendValue(Value::Null()));
  full.SwapRows(&empty);
  EXPECT_EQ(full.size(), 0);
  EXPECT_EQ(full.child(0)->size(), 0);
  EXPECT_EQ(full.type(), nested);
  EXPECT_EQ(empty.type(), renamed);
  ASSERT_EQ(empty.size(), 3);
  EXPECT_EQ(empty.GetValue(0), first);
  EXPECT_EQ(empty.GetValue(1), second);
  EXPECT_TRUE(empty.IsNull(2));
  // The emptied side takes rows again.
  ASSERT_OK(full.AppendValue(second));
  EXPECT_EQ(full.GetValue(0), second);
}

}  // namespace
}  // namespace sluice

namespace sluice {
namespace {}  // namespace
}  // namespace sluice
