#include "sluice/row/binary_array.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>

#include "row_test_util.h"
#include "sluice/row/binary_map.h"
#include "test_util.h"

namespace sluice {
namespace {

using test::FromHex;
using test::ToHex;

TEST(BinaryArrayTest, IntArrayWithNullExactBytes) {
  auto bytes =
      EncodeBinaryArray({Value::Int32(1), Value::Null(), Value::Int32(3)}, *DataType::Int());
  ASSERT_OK(bytes);
  // count 3 | null bits (element 1) | three 4-byte slots | padding to 24.
  EXPECT_EQ(ToHex(*bytes),
            "03000000"
            "02000000"
            "01000000"
            "00000000"
            "03000000"
            "00000000");
  auto view = BinaryArrayView::Make(*bytes, *DataType::Int());
  ASSERT_OK(view);
  EXPECT_EQ(view->size(), 3);
  EXPECT_FALSE(view->IsNullAt(0));
  EXPECT_TRUE(view->IsNullAt(1));
  EXPECT_EQ(view->GetInt(2), 3);
}

TEST(BinaryArrayTest, ElementWidths) {
  EXPECT_EQ(BinaryArrayElementWidth(*DataType::Boolean()), 1);
  EXPECT_EQ(BinaryArrayElementWidth(*DataType::TinyInt()), 1);
  EXPECT_EQ(BinaryArrayElementWidth(*DataType::SmallInt()), 2);
  EXPECT_EQ(BinaryArrayElementWidth(*DataType::Date()), 4);
  EXPECT_EQ(BinaryArrayElementWidth(*DataType::Time()), 4);
  EXPECT_EQ(BinaryArrayElementWidth(*DataType::Float()), 4);
  EXPECT_EQ(BinaryArrayElementWidth(*DataType::Decimal(5, 2)), 8);
  EXPECT_EQ(BinaryArrayElementWidth(*DataType::Timestamp(3)), 8);
  EXPECT_EQ(BinaryArrayElementWidth(*DataType::String()), 8);
  EXPECT_EQ(BinaryArrayElementWidth(*DataType::Vector(DataType::Float(), 2)), 0);

  auto bools = EncodeBinaryArray({Value::Boolean(true), Value::Boolean(false), Value::Null()},
                                 *DataType::Boolean());
  ASSERT_OK(bools);
  EXPECT_EQ(ToHex(*bools),
            "03000000"
            "04000000"
            "01000000"
            "00000000");
  auto shorts = EncodeBinaryArray({Value::Int16(-2)}, *DataType::SmallInt());
  ASSERT_OK(shorts);
  EXPECT_EQ(ToHex(*shorts),
            "01000000"
            "00000000"
            "feff000000000000");
}

TEST(BinaryArrayTest, StringsInlineAndOutOfLineRelativeToTheArray) {
  auto bytes =
      EncodeBinaryArray({Value::String("a"), Value::String("abcdefghij")}, *DataType::String());
  ASSERT_OK(bytes);
  EXPECT_EQ(ToHex(*bytes),
            "02000000"
            "00000000"
            "6100000000000081"
            "0a00000018000000"
            "6162636465666768696a000000000000");
  auto values = DecodeBinaryArray(*bytes, *DataType::String());
  ASSERT_OK(values);
  EXPECT_EQ(*values, (ValueList{Value::String("a"), Value::String("abcdefghij")}));
}

TEST(BinaryArrayTest, NullNonCompactDecimalHasNoReservation) {
  auto bytes = EncodeBinaryArray({Value::Null()}, *DataType::Decimal(30, 2));
  ASSERT_OK(bytes);
  EXPECT_EQ(ToHex(*bytes),
            "01000000"
            "01000000"
            "0000000000000000");
  auto ts = EncodeBinaryArray({Value::Null(), Value::FromTimestamp(Timestamp{1, 2})},
                              *DataType::Timestamp(9));
  ASSERT_OK(ts);
  EXPECT_EQ(ToHex(*ts),
            "02000000"
            "01000000"
            "0000000000000000"
            "0200000018000000"
            "0100000000000000");
}

TEST(BinaryArrayTest, NaNIsCanonical) {
  float odd_nan;
  const uint32_t bits = 0x7fc00123u;
  std::memcpy(&odd_nan, &bits, 4);
  auto bytes = EncodeBinaryArray({Value::Float(odd_nan)}, *DataType::Float());
  ASSERT_OK(bytes);
  EXPECT_EQ(ToHex(*bytes),
            "01000000"
            "00000000"
            "0000c07f"
            "00000000");
}

TEST(BinaryArrayTest, LargeArrayRoundTrip) {
  ValueList values;
  for (int i = 0; i < 1000; ++i) {
    values.push_back(i % 7 == 0 ? Value::Null() : Value::Int64(static_cast<int64_t>(i) << 40));
  }
  auto bytes = EncodeBinaryArray(values, *DataType::BigInt());
  ASSERT_OK(bytes);
  EXPECT_EQ(bytes->size(), 4 + 32 * 4 + 8000 + 4u);
  auto decoded = DecodeBinaryArray(*bytes, *DataType::BigInt());
  ASSERT_OK(decoded);
  EXPECT_EQ(*decoded, values);
}

TEST(BinaryArrayTest, Corruption) {
  EXPECT_TRUE(test::HasError(DecodeBinaryArray(FromHex("0200"), *DataType::Int()),
                             StatusCode::kCorruption,
                             {"BinaryArray of 2 bytes has no element count"}));
  EXPECT_TRUE(test::HasError(DecodeBinaryArray(FromHex("feffffff 00000000"), *DataType::Int()),
                             StatusCode::kCorruption, {"negative BinaryArray element count -2"}));
  EXPECT_TRUE(
      test::HasError(DecodeBinaryArray(FromHex("03000000 00000000 01000000"), *DataType::Int()),
                     StatusCode::kCorruption, {"needs 20 bytes", "has 12"}));
  EXPECT_TRUE(test::HasError(
      DecodeBinaryArray(FromHex("01000000 00000000 0800000010000000"), *DataType::String()),
      StatusCode::kCorruption, {"element 0: out-of-line data"}));
}

TEST(BinaryMapTest, ExactBytesAndRoundTrip) {
  ValuePairs pairs = {{Value::Int32(1), Value::String("x")}, {Value::Int32(2), Value::Null()}};
  auto bytes = EncodeBinaryMap(pairs, *DataType::Int(), *DataType::String());
  ASSERT_OK(bytes);
  EXPECT_EQ(ToHex(*bytes),
            "10000000"  // key array: 16 bytes
            "02000000"
            "00000000"
            "01000000"
            "02000000"  // keys
            "02000000"
            "02000000"
            "7800000000000081"
            "0000000000000000");  // values
  auto decoded = DecodeBinaryMap(*bytes, *DataType::Int(), *DataType::String());
  ASSERT_OK(decoded);
  EXPECT_EQ(*decoded, pairs);
  auto view = BinaryMapView::Make(*bytes, *DataType::Int(), *DataType::String());
  ASSERT_OK(view);
  EXPECT_EQ(view->size(), 2);
  EXPECT_EQ(view->keys().GetInt(1), 2);
}

TEST(BinaryMapTest, Corruption) {
  EXPECT_TRUE(test::HasError(DecodeBinaryMap(FromHex("0800"), *DataType::Int(), *DataType::Int()),
                             StatusCode::kCorruption,
                             {"BinaryMap of 2 bytes has no key array size"}));
  EXPECT_TRUE(
      test::HasError(DecodeBinaryMap(FromHex("08000000 01000000 00000000 00000000 00000000"),
                                     *DataType::Int(), *DataType::Int()),
                     StatusCode::kCorruption, {"map keys", "BinaryArray of 1 elements"}));
  // 1 key, 0 values.
  EXPECT_TRUE(test::HasError(
      DecodeBinaryMap(FromHex("10000000 01000000 00000000 07000000 00000000 00000000 00000000"),
                      *DataType::Int(), *DataType::Int()),
      StatusCode::kCorruption, {"1 keys and 0 values"}));
}

}  // namespace
}  // namespace sluice
