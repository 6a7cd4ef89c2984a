#include "sluice/cdc/cdc_value_cast.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "test_util.h"

namespace sluice {
namespace {

using test::HasError;

Value Cast(std::string_view text, const DataTypePtr& type, const TimeZone* zone = nullptr) {
  Result<Value> v = CastFromCdcValueString(text, *type, zone);
  EXPECT_TRUE(test::IsOk(v)) << text << " as " << type->ToString();
  return v.ok() ? *v : Value();
}

Status CastStatus(std::string_view text, const DataTypePtr& type) {
  return CastFromCdcValueString(text, *type).status();
}

Timestamp Ts(int64_t millis, int32_t nanos = 0) { return Timestamp{millis, nanos}; }

DataField Field(int32_t id, std::string name, DataTypePtr type) {
  return DataField{id, std::move(name), std::move(type), std::nullopt, std::nullopt};
}

TEST(CdcValueCastTest, Booleans) {
  for (const char* t : {"t", "true", "TRUE", "y", "Yes", "1"}) {
    EXPECT_EQ(Cast(t, DataType::Boolean()), Value::Boolean(true)) << t;
  }
  for (const char* f : {"f", "false", "False", "n", "NO", "0"}) {
    EXPECT_EQ(Cast(f, DataType::Boolean()), Value::Boolean(false)) << f;
  }
  EXPECT_TRUE(HasError(CastStatus("2", DataType::Boolean()), StatusCode::kInvalidArgument,
                       {"\"2\"", "BOOLEAN"}));
  EXPECT_TRUE(HasError(CastStatus(" true", DataType::Boolean()), StatusCode::kInvalidArgument,
                       {"BOOLEAN"}));
}

TEST(CdcValueCastTest, IntegersAsJavaValueOf) {
  EXPECT_EQ(Cast("6", DataType::TinyInt()), Value::Int8(6));
  EXPECT_EQ(Cast("-128", DataType::TinyInt()), Value::Int8(-128));
  EXPECT_EQ(Cast("+12", DataType::SmallInt()), Value::Int16(12));
  EXPECT_EQ(Cast("-2147483648", DataType::Int()), Value::Int32(INT32_MIN));
  EXPECT_EQ(Cast("9223372036854775807", DataType::BigInt()), Value::Int64(INT64_MAX));
  EXPECT_TRUE(HasError(CastStatus("128", DataType::TinyInt()), StatusCode::kInvalidArgument,
                       {"\"128\"", "TINYINT"}));
  EXPECT_TRUE(HasError(CastStatus("1.5", DataType::Int()), StatusCode::kInvalidArgument,
                       {"\"1.5\"", "INT"}));
  EXPECT_TRUE(
      HasError(CastStatus(" 1", DataType::BigInt()), StatusCode::kInvalidArgument, {"BIGINT"}));
  EXPECT_TRUE(HasError(CastStatus("", DataType::Int()), StatusCode::kInvalidArgument, {"INT"}));
  EXPECT_TRUE(HasError(CastStatus("9223372036854775808", DataType::BigInt()),
                       StatusCode::kInvalidArgument, {"BIGINT"}));
}

TEST(CdcValueCastTest, FloatKeepsJavaPrecisionRule) {
  // TypeUtilsTest.testFloatCastFromString / testLargeFloatCastFromString.
  const char* texts[] = {"123.456", "0.00042",      "1.00001",  "175.26562",
                         "0.00046", "6.1042607E-4", "123.45678"};
  const float expected[] = {123.456f, 0.00042f,       1.00001f,  175.26562f,
                            0.00046f, 0.00061042607f, 123.45678f};
  for (size_t i = 0; i < std::size(texts); ++i) {
    EXPECT_EQ(Cast(texts[i], DataType::Float()), Value::Float(expected[i])) << texts[i];
  }
  EXPECT_EQ(Cast("0.5", DataType::Float()), Value::Float(0.5f));
  EXPECT_TRUE(std::isnan(Cast("NaN", DataType::Float()).float32()));
  EXPECT_TRUE(HasError(CastStatus("0.1234567891", DataType::Float()), StatusCode::kInvalidArgument,
                       {"\"0.1234567891\"", "FLOAT", "precision"}));
  EXPECT_TRUE(
      HasError(CastStatus("1e39", DataType::Float()), StatusCode::kInvalidArgument, {"FLOAT"}));
}

TEST(CdcValueCastTest, DoubleAsJavaParseDouble) {
  EXPECT_EQ(Cast("123.456", DataType::Double()), Value::Double(123.456));
  EXPECT_EQ(Cast(" 1e3 ", DataType::Double()), Value::Double(1000));
  EXPECT_EQ(Cast("+2.5d", DataType::Double()), Value::Double(2.5));
  EXPECT_EQ(Cast(".5", DataType::Double()), Value::Double(0.5));
  EXPECT_EQ(Cast("-Infinity", DataType::Double()),
            Value::Double(-std::numeric_limits<double>::infinity()));
  EXPECT_EQ(Cast("1e400", DataType::Double()),
            Value::Double(std::numeric_limits<double>::infinity()));
  EXPECT_EQ(Cast("4.9E-324", DataType::Double()), Value::Double(4.9E-324));
  EXPECT_TRUE(HasError(CastStatus("inf", DataType::Double()), StatusCode::kInvalidArgument,
                       {"\"inf\"", "DOUBLE"}));
  EXPECT_TRUE(
      HasError(CastStatus("1,5", DataType::Double()), StatusCode::kInvalidArgument, {"DOUBLE"}));
}

TEST(CdcValueCastTest, DecimalRoundsHalfUpAndOverflowsToNull) {
  EXPECT_EQ(Cast("123", DataType::Decimal(5, 0)), Value::FromDecimal(Decimal{123, 5, 0}));
  EXPECT_EQ(Cast("1.005", DataType::Decimal(5, 2)), Value::FromDecimal(Decimal{101, 5, 2}));
  EXPECT_EQ(Cast("-1.005", DataType::Decimal(5, 2)), Value::FromDecimal(Decimal{-101, 5, 2}));
  EXPECT_EQ(Cast("1.5e2", DataType::Decimal(5, 1)), Value::FromDecimal(Decimal{1500, 5, 1}));
  EXPECT_EQ(Cast("0.004", DataType::Decimal(5, 2)), Value::FromDecimal(Decimal{0, 5, 2}));
  EXPECT_EQ(Cast("0.005", DataType::Decimal(5, 2)), Value::FromDecimal(Decimal{1, 5, 2}));
  EXPECT_EQ(Cast("12345678901234567890.5", DataType::Decimal(38, 0)),
            Value::FromDecimal(Decimal{static_cast<int128_t>(12345678901234567890ULL) + 1, 38, 0}));
  // Java Decimal.fromBigDecimal: too many digits is null, not an error.
  EXPECT_TRUE(Cast("1000", DataType::Decimal(3, 0)).is_null());
  EXPECT_TRUE(Cast("99.995", DataType::Decimal(4, 2)).is_null());
  EXPECT_TRUE(Cast("1e100", DataType::Decimal(38, 0)).is_null());
  EXPECT_TRUE(HasError(CastStatus("1.2.3", DataType::Decimal(5, 2)), StatusCode::kInvalidArgument,
                       {"\"1.2.3\"", "DECIMAL(5, 2)"}));
  EXPECT_TRUE(HasError(CastStatus(" 1", DataType::Decimal(5, 2)), StatusCode::kInvalidArgument,
                       {"DECIMAL"}));
}

TEST(CdcValueCastTest, StringsAreNotCutOrPadded) {
  EXPECT_EQ(Cast("abc", DataType::Char(3)), Value::String("abc"));
  EXPECT_EQ(Cast("ab", DataType::Char(3)), Value::String("ab"));
  EXPECT_EQ(Cast("äöü", DataType::VarChar(3)), Value::String("äöü"));
  EXPECT_EQ(Cast("", DataType::String()), Value::String(""));
  EXPECT_TRUE(HasError(CastStatus("abcd", DataType::VarChar(3)), StatusCode::kInvalidArgument,
                       {"\"abcd\"", "VARCHAR(3)", "length of 4"}));
}

TEST(CdcValueCastTest, BinaryIsBase64VarBinaryIsUtf8) {
  EXPECT_EQ(Cast("YWJj", DataType::Binary(3)), Value::Binary("abc"));
  EXPECT_EQ(Cast("YWI=", DataType::Binary(3)), Value::Binary("ab"));
  EXPECT_EQ(Cast("YWI", DataType::Binary(3)), Value::Binary("ab"));
  // No length check on BINARY, as Java.
  EXPECT_EQ(Cast("YWJjZA==", DataType::Binary(3)), Value::Binary("abcd"));
  EXPECT_TRUE(HasError(CastStatus("YW J", DataType::Binary(3)), StatusCode::kInvalidArgument,
                       {"BINARY(3)", "base64"}));
  EXPECT_EQ(Cast("YWJj", DataType::Bytes()), Value::Binary("YWJj"));
  EXPECT_EQ(Cast("abc", DataType::VarBinary(3)), Value::Binary("abc"));
  EXPECT_TRUE(HasError(CastStatus("abcd", DataType::VarBinary(3)), StatusCode::kInvalidArgument,
                       {"VARBINARY(3)"}));
}

TEST(CdcValueCastTest, Dates) {
  // TypeUtilsTest.testDateCastFromString / testDateNumericCastFromString.
  EXPECT_EQ(Cast("2017-12-12 09:30:00.0", DataType::Date()), Value::Int32(17512));
  EXPECT_EQ(Cast("17512", DataType::Date()), Value::Int32(17512));
  EXPECT_EQ(Cast("-1", DataType::Date()), Value::Int32(-1));
  EXPECT_EQ(Cast("2017-12-12", DataType::Date()), Value::Int32(17512));
  EXPECT_EQ(Cast("2017-1-2", DataType::Date()), Value::Int32(DaysFromCivil(2017, 1, 2)));
  EXPECT_EQ(Cast("2017-12", DataType::Date()), Value::Int32(DaysFromCivil(2017, 12, 1)));
  // A lone year is digits: days since the epoch.
  EXPECT_EQ(Cast("2017", DataType::Date()), Value::Int32(2017));
  EXPECT_EQ(Cast("2024-02-29", DataType::Date()), Value::Int32(DaysFromCivil(2024, 2, 29)));
  EXPECT_TRUE(HasError(CastStatus("2023-02-29", DataType::Date()), StatusCode::kInvalidArgument,
                       {"\"2023-02-29\"", "DATE"}));
  EXPECT_TRUE(
      HasError(CastStatus("2017-04-31", DataType::Date()), StatusCode::kInvalidArgument, {"DATE"}));
  EXPECT_TRUE(HasError(CastStatus("2017-12-12T09:30:00", DataType::Date()),
                       StatusCode::kInvalidArgument, {"DATE"}));
}

TEST(CdcValueCastTest, Times) {
  // TypeUtilsTest.testTimeCastFromString: Java adds the "+01:00" to the clock.
  EXPECT_EQ(Cast("13:09:42.123456+01:00", DataType::Time(3)),
            Value::Int32(14 * 3600000 + 9 * 60000 + 42 * 1000 + 123));
  EXPECT_EQ(Cast("123456789", DataType::Time()), Value::Int32(123456789));
  EXPECT_EQ(Cast("10:00:00-02:00", DataType::Time()), Value::Int32(8 * 3600000));
  EXPECT_EQ(Cast("10:30", DataType::Time()), Value::Int32(10 * 3600000 + 30 * 60000));
  EXPECT_EQ(Cast("10", DataType::Time()), Value::Int32(10));
  // parseFraction rounds on the fourth digit.
  EXPECT_EQ(Cast("00:00:01.9996", DataType::Time(3)), Value::Int32(2000));
  EXPECT_TRUE(HasError(CastStatus("10:xx", DataType::Time()), StatusCode::kInvalidArgument,
                       {"\"10:xx\"", "TIME"}));
}

TEST(CdcValueCastTest, TimestampText) {
  // TypeUtilsTest.testTimestampCastFromString.
  const int64_t base = int64_t{DaysFromCivil(2017, 12, 12)} * 86400000 + 9 * 3600000 + 30 * 60000;
  EXPECT_EQ(Cast("2017-12-12 09:30:00", DataType::Timestamp()), Value::FromTimestamp(Ts(base)));
  EXPECT_EQ(Cast("2017-12-12 09:30:00.123456789", DataType::Timestamp(9)),
            Value::FromTimestamp(Ts(base + 123, 456789)));
  EXPECT_EQ(Cast("2017-12-12 09:30:00.123456789", DataType::Timestamp(6)),
            Value::FromTimestamp(Ts(base + 123, 456000)));
  EXPECT_EQ(Cast("2017-12-12 09:30:00.987", DataType::Timestamp(0)),
            Value::FromTimestamp(Ts(base)));
  EXPECT_EQ(Cast("2017-12-12 9:30:0.5", DataType::Timestamp(3)),
            Value::FromTimestamp(Ts(base + 500)));
  EXPECT_EQ(Cast("2017-12-12", DataType::Timestamp()),
            Value::FromTimestamp(Ts(int64_t{DaysFromCivil(2017, 12, 12)} * 86400000)));
  EXPECT_EQ(Cast("2017-12-12T09:30", DataType::Timestamp()), Value::FromTimestamp(Ts(base)));
  EXPECT_EQ(Cast("2017-12-12T09:30:00.5", DataType::Timestamp(3)),
            Value::FromTimestamp(Ts(base + 500)));
  // java.time SMART resolution moves a day past the month's end back to its last day.
  EXPECT_EQ(Cast("2023-02-30 00:00:00", DataType::Timestamp()),
            Value::FromTimestamp(Ts(int64_t{DaysFromCivil(2023, 2, 28)} * 86400000)));
  for (const char* bad : {"2017-12-12 09:30", "2017-12-12 25:00:00", "2017-12-12 09:30:00Z",
                          "2017-12-12 09:30:00.1234567891", "17-12-12", "2017/12/12"}) {
    EXPECT_TRUE(HasError(CastStatus(bad, DataType::Timestamp()), StatusCode::kInvalidArgument,
                         {"TIMESTAMP(6)"}))
        << bad;
  }
}

TEST(CdcValueCastTest, TimestampEpochNumbersFollowThePrecision) {
  // TypeUtilsTest.testTimestampNumericCastFromString.
  EXPECT_EQ(Cast("123456789000000", DataType::Timestamp(6)),
            Value::FromTimestamp(Timestamp::FromEpochMicros(123456789000000)));
  EXPECT_EQ(Cast("1700000000", DataType::Timestamp(0)), Value::FromTimestamp(Ts(1700000000000)));
  EXPECT_EQ(Cast("1700000000123", DataType::Timestamp(3)), Value::FromTimestamp(Ts(1700000000123)));
  EXPECT_EQ(Cast("1700000000123456789", DataType::Timestamp(9)),
            Value::FromTimestamp(Ts(1700000000123, 456789)));
  EXPECT_EQ(Cast("-1", DataType::Timestamp(6)), Value::FromTimestamp(Ts(-1, 999000)));
  EXPECT_TRUE(HasError(CastStatus("1700000000", DataType::Timestamp(2)),
                       StatusCode::kInvalidArgument,
                       {"\"1700000000\"", "TIMESTAMP(2)", "Unsupported precision"}));
}

TEST(CdcValueCastTest, LocalZonedTimestampIsAWallClockInTheZone) {
  const int64_t wall = int64_t{DaysFromCivil(2017, 12, 12)} * 86400000 + 9 * 3600000 + 30 * 60000;
  EXPECT_EQ(Cast("2017-12-12 09:30:00", DataType::TimestampLtz(3)), Value::FromTimestamp(Ts(wall)));
  Result<std::shared_ptr<const TimeZone>> tokyo = TimeZone::Load("Asia/Tokyo");
  ASSERT_TRUE(test::IsOk(tokyo));
  // TypeUtilsTest.testLocalZonedTimestampCastFromString (JVM zone Asia/Tokyo).
  EXPECT_EQ(Cast("2017-12-12 09:30:00", DataType::TimestampLtz(3), tokyo->get()),
            Value::FromTimestamp(Ts(wall - 9 * 3600000)));
  // No epoch numbers for LTZ.
  EXPECT_TRUE(HasError(CastStatus("1700000000", DataType::TimestampLtz(3)),
                       StatusCode::kInvalidArgument, {"TIMESTAMP"}));
}

TEST(CdcValueCastTest, ArraysFromJson) {
  EXPECT_EQ(Cast("[0, 1, 2]", DataType::Array(DataType::Int())),
            Value::Array({Value::Int32(0), Value::Int32(1), Value::Int32(2)}));
  EXPECT_EQ(Cast("[\"0\", null, \"2\"]", DataType::Array(DataType::String())),
            Value::Array({Value::String("0"), Value(), Value::String("2")}));
  // Numbers and nested JSON as Jackson prints them.
  EXPECT_EQ(Cast("[1.50, 1e10, 7, {\"a\": [1]}]", DataType::Array(DataType::String())),
            Value::Array({Value::String("1.5"), Value::String("1.0E10"), Value::String("7"),
                          Value::String("{\"a\":[1]}")}));
  // Not JSON: split on commas for VARCHAR elements.
  EXPECT_EQ(Cast("[a,b,c]", DataType::Array(DataType::String())),
            Value::Array({Value::String("a"), Value::String("b"), Value::String("c")}));
  EXPECT_EQ(Cast("a, b,,", DataType::Array(DataType::String())),
            Value::Array({Value::String("a"), Value::String(" b")}));
  EXPECT_TRUE(HasError(CastStatus("[a,b]", DataType::Array(DataType::Int())),
                       StatusCode::kInvalidArgument, {"\"[a,b]\"", "ARRAY<INT>"}));
  EXPECT_TRUE(HasError(CastStatus("[1, \"x\"]", DataType::Array(DataType::Int())),
                       StatusCode::kInvalidArgument, {"\"x\"", "INT"}));
  // Jackson iterates an object's values.
  EXPECT_EQ(Cast("{\"a\": 1}", DataType::Array(DataType::Int())), Value::Array({Value::Int32(1)}));
}

TEST(CdcValueCastTest, MapsFromJson) {
  EXPECT_EQ(
      Cast("{\"a\":\"b\", \"c\":null}", DataType::Map(DataType::String(), DataType::String())),
      Value::Map({{Value::String("a"), Value::String("b")}, {Value::String("c"), Value()}}));
  EXPECT_EQ(Cast("{\"1\":0}", DataType::Map(DataType::Int(), DataType::Int())),
            Value::Map({{Value::Int32(1), Value::Int32(0)}}));
  // Paimon 1.4.2: text that is not JSON is an empty map.
  EXPECT_EQ(Cast("a=b", DataType::Map(DataType::String(), DataType::String())), Value::Map({}));
}

TEST(CdcValueCastTest, RowsFromJson) {
  // TypeUtilsTest.testCastFromString: ARRAY<ROW<key1 MAP<STRING, INT>, key2 STRING>>.
  const DataTypePtr row =
      DataType::Row({Field(0, "key1", DataType::Map(DataType::String(), DataType::Int())),
                     Field(1, "key2", DataType::String())});
  EXPECT_EQ(
      Cast("[{\"key1\":null,\"key2\":\"value\"},{\"key1\":{\"nested_key1\":0},\"key2\":null}]",
           DataType::Array(row)),
      Value::Array(
          {Value::Row({Value(), Value::String("value")}),
           Value::Row({Value::Map({{Value::String("nested_key1"), Value::Int32(0)}}), Value()})}));
  EXPECT_EQ(Cast("{\"key2\":\"v\",\"other\":1}", row), Value::Row({Value(), Value::String("v")}));
  EXPECT_TRUE(
      HasError(CastStatus("key2=v", row), StatusCode::kInvalidArgument, {"\"key2=v\"", "ROW"}));
}

TEST(CdcValueCastTest, UnsupportedTypes) {
  EXPECT_TRUE(HasError(CastStatus("x", DataType::Variant()), StatusCode::kInvalidArgument,
                       {"Unsupported type", "VARIANT"}));
  EXPECT_TRUE(HasError(CastStatus("[1]", DataType::Multiset(DataType::Int())),
                       StatusCode::kInvalidArgument, {"Unsupported type", "MULTISET"}));
}

}  // namespace
}  // namespace sluice
