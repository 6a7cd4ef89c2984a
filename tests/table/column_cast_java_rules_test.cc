// The reader's casts against Java's cast rules (casting/*CastRule.java): the casts Java allows
// after an ALTER TABLE that the reader used to refuse, the text Java gives numbers and
// date-times, and the casts Java refuses that the reader used to allow.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "sluice/table/source/column_cast.h"
#include "sluice/value_json.h"
#include "test_util.h"

namespace sluice {
namespace {

// Casts one value (plus a null, which must stay null); the JSON text of the result, or the
// status text when the cast fails.
std::string Cast(const DataTypePtr& from, const Value& value, const DataTypePtr& to) {
  ColumnVector in(from);
  EXPECT_OK(in.AppendValue(value));
  in.AppendNull();
  ColumnVector out(to);
  Status st = CastColumn(in, "c", &out);
  if (!st.ok()) return st.ToString();
  EXPECT_EQ(out.size(), 2);
  EXPECT_TRUE(out.IsNull(1));
  return out.IsNull(0) ? "null" : ValueToJson(out.GetValue(0), *to);
}

TEST(CastJavaRulesTest, NumbersAsJavaText) {
  EXPECT_EQ(Cast(DataType::Double(), Value::Double(1.0), DataType::String()), "\"1.0\"");
  EXPECT_EQ(Cast(DataType::Double(), Value::Double(1e7), DataType::String()), "\"1.0E7\"");
  EXPECT_EQ(Cast(DataType::Double(), Value::Double(0.001), DataType::String()), "\"0.001\"");
  EXPECT_EQ(Cast(DataType::Double(), Value::Double(1e-5), DataType::String()), "\"1.0E-5\"");
  EXPECT_EQ(Cast(DataType::Float(), Value::Float(0.1f), DataType::String()), "\"0.1\"");
  EXPECT_EQ(Cast(DataType::Float(), Value::Float(3.4028235e38f), DataType::String()),
            "\"3.4028235E38\"");
  EXPECT_EQ(
      Cast(DataType::Decimal(5, 2), Value::FromDecimal(Decimal{-5, 5, 2}), DataType::String()),
      "\"-0.05\"");
  // CHAR / VARCHAR targets cut to their length; CHAR pads (BinaryStringUtils.toCharacterString).
  EXPECT_EQ(Cast(DataType::Int(), Value::Int32(7), DataType::Char(3)), "\"7  \"");
  EXPECT_EQ(Cast(DataType::Double(), Value::Double(1234.5), DataType::VarChar(4)), "\"1234\"");
  EXPECT_EQ(Cast(DataType::String(), Value::String("h\xC3\xA9llo"), DataType::VarChar(2)),
            "\"h\xC3\xA9\"");
  EXPECT_EQ(Cast(DataType::Boolean(), Value::Boolean(true), DataType::Char(5)), "\"true \"");
}

TEST(CastJavaRulesTest, TimeAndString) {
  // TIME is milliseconds of the day; DateTimeUtils.formatTimestampMillis stops after the last
  // non-zero millisecond digit.
  EXPECT_EQ(Cast(DataType::Time(3), Value::Int32(45296789), DataType::String()),
            "\"12:34:56.789\"");
  EXPECT_EQ(Cast(DataType::Time(3), Value::Int32(45296500), DataType::String()), "\"12:34:56.5\"");
  EXPECT_EQ(Cast(DataType::Time(0), Value::Int32(45296000), DataType::String()), "\"12:34:56\"");
  ColumnVector in(DataType::String());
  in.AppendBytes("12:34:56.789");
  in.AppendBytes("01:02");
  in.AppendBytes("3600000");
  ColumnVector out(DataType::Time(3));
  ASSERT_OK(CastColumn(in, "c", &out));
  EXPECT_EQ(out.data<int32_t>()[0], 45296789);
  EXPECT_EQ(out.data<int32_t>()[1], 3720000);
  EXPECT_EQ(out.data<int32_t>()[2], 3600000);
  ColumnVector bad(DataType::String());
  bad.AppendBytes("noon");
  ColumnVector bad_out(DataType::Time(0));
  Status st = CastColumn(bad, "c", &bad_out);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.ToString().find("'noon'"), std::string::npos) << st.ToString();
}

// STRING to DATE / TIMESTAMP as Java's BinaryStringUtils.toDate / toTimestamp: epoch numbers
// (days; the precision's unit), single-digit fields and the 'T' form of java.time's parser,
// the fraction cut to the target's precision; numbers are no TIMESTAMP_LTZ text.
TEST(CastJavaRulesTest, StringsToDatesAndTimestampsAsBinaryStringUtils) {
  EXPECT_EQ(Cast(DataType::String(), Value::String("19000"), DataType::Date()), "\"2022-01-08\"");
  EXPECT_EQ(Cast(DataType::String(), Value::String("2024-2-9"), DataType::Date()),
            "\"2024-02-09\"");
  EXPECT_EQ(Cast(DataType::String(), Value::String("2024-02-09 10:00:00"), DataType::Date()),
            "\"2024-02-09\"");
  EXPECT_EQ(Cast(DataType::String(), Value::String("1700000000123"), DataType::Timestamp(3)),
            "\"2023-11-14 22:13:20.123\"");
  EXPECT_EQ(Cast(DataType::String(), Value::String("2024-02-09T7:08"), DataType::Timestamp(0)),
            "\"2024-02-09 07:08:00\"");
  EXPECT_EQ(
      Cast(DataType::String(), Value::String("2024-02-09 07:08:09.123456"), DataType::Timestamp(3)),
      "\"2024-02-09 07:08:09.123\"");
  EXPECT_NE(Cast(DataType::String(), Value::String("1700000000123"), DataType::TimestampLtz(3))
                .find("cannot cast '1700000000123'"),
            std::string::npos);
}

TEST(CastJavaRulesTest, TimestampsAndTime) {
  // 1970-01-02 01:02:03.004 -> its time of day, and a TIME -> 1970-01-01 at that time.
  EXPECT_EQ(Cast(DataType::Timestamp(3), Value::FromTimestamp(Timestamp{86400000 + 3723004, 0}),
                 DataType::Time(3)),
            "\"01:02:03.004\"");
  EXPECT_EQ(
      Cast(DataType::Timestamp(0), Value::FromTimestamp(Timestamp{-1000, 0}), DataType::Time(0)),
      "\"23:59:59\"");
  EXPECT_EQ(Cast(DataType::Time(0), Value::Int32(3723000), DataType::Timestamp(3)),
            "\"1970-01-01 01:02:03.000\"");
  // Timestamps print Java's nine digits with trailing zeros cut down to the precision.
  EXPECT_EQ(
      Cast(DataType::Timestamp(3), Value::FromTimestamp(Timestamp{1500, 0}), DataType::String()),
      "\"1970-01-01 00:00:01.500\"");
  EXPECT_EQ(
      Cast(DataType::Timestamp(0), Value::FromTimestamp(Timestamp{1000, 0}), DataType::String()),
      "\"1970-01-01 00:00:01\"");
}

TEST(CastJavaRulesTest, BytesAndNestedToString) {
  EXPECT_EQ(Cast(DataType::Bytes(), Value::Binary("abc"), DataType::String()), "\"abc\"");
  EXPECT_EQ(Cast(DataType::Binary(2), Value::Binary("ab"), DataType::String()), "\"ab\"");
  // ArrayToStringCastRule / MapToStringCastRule / RowToStringCastRule.
  EXPECT_EQ(
      Cast(DataType::Array(DataType::Int()),
           Value::Array({Value::Int32(1), Value::Null(), Value::Int32(3)}), DataType::String()),
      "\"[1, null, 3]\"");
  EXPECT_EQ(Cast(DataType::Map(DataType::String(false), DataType::Double()),
                 Value::Map({{Value::String("a"), Value::Double(1.0)},
                             {Value::String("b"), Value::Null()}}),
                 DataType::String()),
            "\"{a -> 1.0, b -> null}\"");
  const DataTypePtr row = DataType::Row(
      {DataField{1, "a", DataType::Int(), std::nullopt, std::nullopt},
       DataField{2, "b", DataType::Array(DataType::Date()), std::nullopt, std::nullopt},
       DataField{3, "c", DataType::String(), std::nullopt, std::nullopt}});
  EXPECT_EQ(Cast(row, Value::Row({Value::Int32(1), Value::Array({Value::Int32(0)}), Value::Null()}),
                 DataType::String()),
            "\"{1, [1970-01-01], null}\"");
}

// Java CastedArray / CastedMap: an ARRAY's elements, a MULTISET's elements and a MAP's values
// cast as their own columns (after `ALTER ... a.element TYPE BIGINT`), the rows' ranges and
// nulls kept; a map's keys and a ROW's fields do not change type.
TEST(CastJavaRulesTest, ArraysAndMapsCastTheirParts) {
  EXPECT_EQ(Cast(DataType::Array(DataType::Int()),
                 Value::Array({Value::Int32(1), Value::Null(), Value::Int32(-3)}),
                 DataType::Array(DataType::BigInt())),
            "[1, null, -3]");
  EXPECT_EQ(Cast(DataType::Array(DataType::Array(DataType::Float())),
                 Value::Array({Value::Array({Value::Float(0.5f)}), Value::Null()}),
                 DataType::Array(DataType::Array(DataType::Double()))),
            "[[0.5], null]");
  EXPECT_EQ(Cast(DataType::Map(DataType::String(false), DataType::Int()),
                 Value::Map({{Value::String("a"), Value::Int32(7)}}),
                 DataType::Map(DataType::String(false), DataType::String())),
            "[[\"a\", \"7\"]]");
  // Several rows: each keeps its own range.
  ColumnVector in(DataType::Array(DataType::SmallInt()));
  ASSERT_OK(in.AppendValue(Value::Array({Value::Int16(1), Value::Int16(2)})));
  ASSERT_OK(in.AppendValue(Value::Array({})));
  in.AppendNull();
  ASSERT_OK(in.AppendValue(Value::Array({Value::Int16(3)})));
  ColumnVector out(DataType::Array(DataType::BigInt()));
  ASSERT_OK(CastColumn(in, "c", &out));
  ASSERT_OK(CastColumn(in, "c", &out));
  ASSERT_EQ(out.size(), 8);
  const DataType& array = *out.type();
  for (int64_t base : {0, 4}) {
    EXPECT_EQ(ValueToJson(out.GetValue(base), array), "[1, 2]");
    EXPECT_EQ(ValueToJson(out.GetValue(base + 1), array), "[]");
    EXPECT_TRUE(out.IsNull(base + 2));
    EXPECT_EQ(ValueToJson(out.GetValue(base + 3), array), "[3]");
  }
  EXPECT_TRUE(test::HasError(
      CheckCastSupported(*DataType::Map(DataType::Int(false), DataType::Int()),
                         *DataType::Map(DataType::BigInt(false), DataType::Int()), "m"),
      StatusCode::kNotSupported, {"column 'm'", "a map's keys keep their type"}));
  EXPECT_TRUE(test::HasError(CheckCastSupported(*DataType::Array(DataType::Date()),
                                                *DataType::Array(DataType::Boolean()), "a"),
                             StatusCode::kNotSupported, {"column 'a.element'", "DATE to BOOLEAN"}));
}

TEST(CastJavaRulesTest, BooleanIntegerDecimal) {
  EXPECT_EQ(Cast(DataType::Boolean(), Value::Boolean(true), DataType::Decimal(3, 1)), "\"1.0\"");
  EXPECT_EQ(Cast(DataType::Boolean(), Value::Boolean(true), DataType::Decimal(1, 1)), "null");
  EXPECT_EQ(Cast(DataType::Int(), Value::Int32(5), DataType::Boolean()), "true");
  EXPECT_EQ(Cast(DataType::BigInt(), Value::Int64(0), DataType::Boolean()), "false");
  // BigDecimal.valueOf(double) takes Double.toString's digits: 1.005 rounds up.
  EXPECT_EQ(Cast(DataType::Double(), Value::Double(1.005), DataType::Decimal(3, 2)), "\"1.01\"");
  EXPECT_EQ(
      Cast(DataType::BigInt(), Value::Int64(9223372036854775807LL), DataType::Decimal(38, 20)),
      "null");
  // Java's (int) of a double saturates; NaN is 0.
  EXPECT_EQ(Cast(DataType::Double(), Value::Double(1e300), DataType::Int()), "2147483647");
  EXPECT_EQ(Cast(DataType::Double(), Value::Double(std::nan("")), DataType::BigInt()), "0");
}

TEST(CastJavaRulesTest, CastsJavaRefuses) {
  // Date-time to text only to STRING itself; TIMESTAMP to numbers only INT / BIGINT; TIME
  // keeps its precision.
  for (const auto& [from, to] : std::vector<std::pair<DataTypePtr, DataTypePtr>>{
           {DataType::Date(), DataType::VarChar(10)},
           {DataType::Timestamp(3), DataType::Char(30)},
           {DataType::Timestamp(3), DataType::TinyInt()},
           {DataType::Timestamp(3), DataType::Double()},
           {DataType::TinyInt(), DataType::Timestamp(3)},
           {DataType::Time(0), DataType::Time(3)},
           {DataType::Float(), DataType::Boolean()},
       }) {
    Status st = CheckCastSupported(*from, *to, "c");
    EXPECT_EQ(st.code(), StatusCode::kNotSupported) << from->ToString() << " -> " << to->ToString();
    EXPECT_NE(st.ToString().find(from->ToString() + " to " + to->ToString()), std::string::npos)
        << st.ToString();
  }
}

}  // namespace
}  // namespace sluice
