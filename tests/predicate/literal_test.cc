#include "sluice/predicate/literal.h"

#include <gtest/gtest.h>

#include <cmath>
#include "test_util.h"

namespace sluice {
namespace {

Literal Num(std::string text) { return Literal{Literal::Kind::kNumber, std::move(text), false}; }
Literal Str(std::string text) { return Literal{Literal::Kind::kString, std::move(text), false}; }
Literal Typed(Literal::Kind kind, std::string text) {
  return Literal{kind, std::move(text), false};
}

Value Convert(const Literal& l, const DataTypePtr& type) {
  Result<Value> v = ConvertLiteral(l, *type);
  EXPECT_OK(v) << l.ToString() << " -> " << type->ToString();
  return v.ok() ? *v : Value();
}

std::string ConvertError(const Literal& l, const DataTypePtr& type) {
  Result<Value> v = ConvertLiteral(l, *type);
  EXPECT_TRUE(test::HasError(v, StatusCode::kInvalidArgument))
      << l.ToString() << " -> " << type->ToString() << " gave " << (v.ok() ? v->DebugString() : "");
  return v.ok() ? "" : v.status().message();
}

TEST(LiteralTest, NumbersToIntegers) {
  EXPECT_EQ(Convert(Num("3"), DataType::Int()), Value::Int32(3));
  EXPECT_EQ(Convert(Num("-128"), DataType::TinyInt()), Value::Int8(-128));
  EXPECT_EQ(Convert(Num("15.0"), DataType::Int()), Value::Int32(15));
  EXPECT_EQ(Convert(Num("1.5e3"), DataType::SmallInt()), Value::Int16(1500));
  EXPECT_EQ(Convert(Num("9223372036854775807"), DataType::BigInt()), Value::Int64(INT64_MAX));
  EXPECT_EQ(Convert(Num("-9223372036854775808"), DataType::BigInt()), Value::Int64(INT64_MIN));
  EXPECT_EQ(Convert(Num("0.000"), DataType::Int()), Value::Int32(0));
  EXPECT_NE(ConvertError(Num("128"), DataType::TinyInt()).find("out of range"), std::string::npos);
  EXPECT_NE(ConvertError(Num("9223372036854775808"), DataType::BigInt()).find("out of range"),
            std::string::npos);
  EXPECT_NE(ConvertError(Num("90.5"), DataType::Int()).find("not an integer"), std::string::npos);
  EXPECT_NE(ConvertError(Num("1e999999"), DataType::Int()).find("out of range"), std::string::npos);
}

TEST(LiteralTest, NumbersToDecimalsKeepExactValue) {
  auto d = DataType::Decimal(10, 2);
  EXPECT_EQ(Convert(Num("15.0"), d), Value::FromDecimal(Decimal{1500, 10, 2}));
  EXPECT_EQ(Convert(Num("-3"), d), Value::FromDecimal(Decimal{-300, 10, 2}));
  EXPECT_EQ(Convert(Num("1e2"), d), Value::FromDecimal(Decimal{10000, 10, 2}));
  // More fraction digits than the column: exact value, own scale.
  EXPECT_EQ(Convert(Num("1.005"), d), Value::FromDecimal(Decimal{1005, 4, 3}));
  // More integer digits than the column holds: exact value, own precision.
  EXPECT_EQ(Convert(Num("123456789012"), d), Value::FromDecimal(Decimal{123456789012, 12, 0}));
  auto wide = DataType::Decimal(38, 10);
  Value v = Convert(Num("1234567890123456789012345678.0123456789"), wide);
  EXPECT_EQ(v.decimal().scale, 10);
  EXPECT_EQ(v.decimal().ToString(), "1234567890123456789012345678.0123456789");
  EXPECT_NE(ConvertError(Num("123456789012345678901234567890123456789"), wide).find("38 digits"),
            std::string::npos);
}

TEST(LiteralTest, NumbersToFloating) {
  EXPECT_EQ(Convert(Num("1"), DataType::Double()), Value::Double(1.0));
  EXPECT_EQ(Convert(Num("-15.25"), DataType::Double()), Value::Double(-15.25));
  EXPECT_EQ(Convert(Num("14.1"), DataType::Float()), Value::Float(14.1f));
  EXPECT_EQ(Convert(Num("1e-3"), DataType::Double()), Value::Double(1e-3));
  EXPECT_TRUE(std::isnan(Convert(Str("NaN"), DataType::Double()).float64()));
  EXPECT_EQ(Convert(Str("-Infinity"), DataType::Double()).float64(), -INFINITY);
  EXPECT_NE(ConvertError(Num("1e999"), DataType::Double()).find("out of range"), std::string::npos);
  EXPECT_NE(ConvertError(Str("abc"), DataType::Double()).find("not a number"), std::string::npos);
}

TEST(LiteralTest, StringsAndBinaries) {
  EXPECT_EQ(Convert(Str("Alice"), DataType::String()), Value::String("Alice"));
  EXPECT_EQ(Convert(Str(""), DataType::VarChar(3)), Value::String(""));
  EXPECT_EQ(Convert(Str("ab"), DataType::Bytes()), Value::Binary("ab"));
  EXPECT_EQ(Convert(Typed(Literal::Kind::kBinary, "\x01\xff"), DataType::Binary(2)),
            Value::Binary("\x01\xff"));
  EXPECT_EQ(Convert(Str(" 42 "), DataType::Int()), Value::Int32(42));
  EXPECT_EQ(Convert(Str("true"), DataType::Boolean()), Value::Boolean(true));
  EXPECT_NE(ConvertError(Num("3"), DataType::String()).find("cannot compare STRING with 3"),
            std::string::npos);
  EXPECT_TRUE(
      test::HasError(ConvertLiteral(Typed(Literal::Kind::kBinary, "x"), *DataType::String()),
                     StatusCode::kInvalidArgument, {"cannot compare STRING with X'78'"}));
  EXPECT_TRUE(
      test::HasError(ConvertLiteral(Literal{Literal::Kind::kBoolean, "", true}, *DataType::Int()),
                     StatusCode::kInvalidArgument, {"cannot compare INT with TRUE"}));
}

TEST(LiteralTest, DatesTimesTimestamps) {
  EXPECT_EQ(Convert(Typed(Literal::Kind::kDate, "1970-01-01"), DataType::Date()), Value::Int32(0));
  EXPECT_EQ(Convert(Typed(Literal::Kind::kDate, "2024-03-01"), DataType::Date()),
            Value::Int32(19783));
  EXPECT_EQ(Convert(Str("1969-12-31"), DataType::Date()), Value::Int32(-1));
  EXPECT_EQ(Convert(Typed(Literal::Kind::kTime, "12:00:00.5"), DataType::Time()),
            Value::Int32(43200500));
  EXPECT_EQ(Convert(Typed(Literal::Kind::kTimestamp, "2024-01-01 12:00:00.123456789"),
                    DataType::Timestamp(9)),
            Value::FromTimestamp(Timestamp{1704110400123, 456789}));
  EXPECT_EQ(Convert(Typed(Literal::Kind::kTimestamp, "1899-01-01 00:59:20.001001002"),
                    DataType::Timestamp(9)),
            Value::FromTimestamp(Timestamp{-2240521239999, 1002}));
  EXPECT_EQ(
      Convert(Typed(Literal::Kind::kTimestamp, "2024-01-01T00:00"), DataType::TimestampLtz(3)),
      Value::FromTimestamp(Timestamp{1704067200000, 0}));
  EXPECT_EQ(Convert(Typed(Literal::Kind::kDate, "2024-01-01"), DataType::Timestamp(6)),
            Value::FromTimestamp(Timestamp{1704067200000, 0}));

  // UTC offsets name instants: TIMESTAMP_LTZ only.
  EXPECT_EQ(Convert(Typed(Literal::Kind::kTimestamp, "2024-01-01 08:00:00+08:00"),
                    DataType::TimestampLtz(3)),
            Value::FromTimestamp(Timestamp{1704067200000, 0}));
  EXPECT_EQ(Convert(Typed(Literal::Kind::kTimestamp, "2023-12-31 19:30:00.5-04:30"),
                    DataType::TimestampLtz(3)),
            Value::FromTimestamp(Timestamp{1704067200500, 0}));
  EXPECT_EQ(Convert(Str("2024-01-01 00:00:00Z"), DataType::TimestampLtz(6)),
            Value::FromTimestamp(Timestamp{1704067200000, 0}));
  EXPECT_NE(ConvertError(Typed(Literal::Kind::kTimestamp, "2024-01-01 08:00:00+08:00"),
                         DataType::Timestamp(3))
                .find("holds wall-clock time"),
            std::string::npos);
  EXPECT_TRUE(test::HasError(
      ConvertLiteral(Typed(Literal::Kind::kTimestamp, "2024-01-01 08:00:00+19:00"),
                     *DataType::TimestampLtz(3)),
      StatusCode::kInvalidArgument, {"'2024-01-01 08:00:00+19:00' has a bad UTC offset"}));

  const auto not_a_date = [](std::string_view text) {
    return test::HasError(ParseDateText(text), StatusCode::kInvalidArgument,
                          {"'" + std::string(text) + "' is not a date (expected YYYY-MM-DD)"});
  };
  EXPECT_TRUE(not_a_date("2023-02-29"));
  EXPECT_OK(ParseDateText("2024-02-29"));
  EXPECT_TRUE(not_a_date("2024-13-01"));
  EXPECT_TRUE(not_a_date("24-01-01"));
  EXPECT_TRUE(not_a_date("2024-01-01x"));
  EXPECT_TRUE(test::HasError(ParseTimeText("24:00:00"), StatusCode::kInvalidArgument,
                             {"'24:00:00' is not a time"}));
  EXPECT_TRUE(test::HasError(ParseTimeText("12:00:00.0001"), StatusCode::kInvalidArgument,
                             {"'12:00:00.0001' has sub-millisecond digits"}));
  EXPECT_OK(ParseTimeText("12:00:00.000000"));
  EXPECT_TRUE(test::HasError(ParseTimestampText("2024-01-01 12:00:00.1234567891"),
                             StatusCode::kInvalidArgument,
                             {"'2024-01-01 12:00:00.1234567891' is not a timestamp"}));
  EXPECT_TRUE(test::HasError(ParseTimestampText("2024-01-01 12"), StatusCode::kInvalidArgument,
                             {"'2024-01-01 12' is not a timestamp"}));
  EXPECT_NE(ConvertError(Typed(Literal::Kind::kTimestamp, "2024-01-01"), DataType::Date())
                .find("cannot compare DATE"),
            std::string::npos);
  EXPECT_NE(ConvertError(Str("yesterday"), DataType::Date()).find("not a date"), std::string::npos);
}

TEST(LiteralTest, NullAndNested) {
  EXPECT_TRUE(Convert(Literal{}, DataType::Array(DataType::Int())).is_null());
  EXPECT_NE(ConvertError(Num("1"), DataType::Array(DataType::Int())).find("IS [NOT] NULL"),
            std::string::npos);
}

}  // namespace
}  // namespace sluice
