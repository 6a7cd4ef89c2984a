#include "sluice/row/binary_row.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "row_test_util.h"
#include "sluice/row/binary_writer.h"
#include "test_util.h"

namespace sluice {
namespace {

using test::FromHex;
using test::RowOf;
using test::ToHex;

Value Dec(int128_t unscaled, int precision, int scale) {
  return Value::FromDecimal(Decimal{unscaled, precision, scale});
}

Value Ts(int64_t millis, int32_t nanos = 0) {
  return Value::FromTimestamp(Timestamp{millis, nanos});
}

// Encodes, checks the size rule, decodes back and re-encodes the decoded values.
void ExpectRoundTrip(const ValueList& values, const DataTypePtr& type) {
  auto bytes = EncodeBinaryRow(values, *type);
  ASSERT_OK(bytes);
  EXPECT_EQ(bytes->size() % 8, 0u);
  auto decoded = DecodeBinaryRow(*bytes, *type);
  ASSERT_OK(decoded);
  ASSERT_EQ(decoded->size(), values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ((*decoded)[i], values[i]) << "field " << i << ": " << (*decoded)[i].DebugString()
                                        << " vs " << values[i].DebugString();
  }
  auto again = EncodeBinaryRow(*decoded, *type);
  ASSERT_OK(again);
  EXPECT_EQ(ToHex(*again), ToHex(*bytes));
}

// --- Exact bytes from the spec (5.8, 5.9: rows taken from Java-written manifests) -----------

TEST(BinaryRowTest, SpecPartitionIntTen) {
  const std::string serialized = FromHex("00000001 0000000000000000 0a00000000000000");
  auto type = RowOf({DataType::Int()});
  auto values = DecodeSerializedBinaryRow(serialized, *type);
  ASSERT_OK(values);
  EXPECT_EQ(*values, ValueList{Value::Int32(10)});
  auto bytes = EncodeBinaryRow(*values, *type);
  ASSERT_OK(bytes);
  EXPECT_EQ(SerializeBinaryRow(*bytes, 1), serialized);
}

TEST(BinaryRowTest, SpecKeyInlineStringAndInt) {
  const std::string serialized =
      FromHex("00000002 0000000000000000 416c696365000085 0100000000000000");
  auto type = RowOf({DataType::String(false), DataType::Int(false)});
  auto values = DecodeSerializedBinaryRow(serialized, *type);
  ASSERT_OK(values);
  EXPECT_EQ(*values, (ValueList{Value::String("Alice"), Value::Int32(1)}));
  auto bytes = EncodeBinaryRow(*values, *type);
  ASSERT_OK(bytes);
  EXPECT_EQ(ToHex(SerializeBinaryRow(*bytes, 2)), ToHex(serialized));

  auto view = BinaryRowView::FromSerialized(serialized);
  ASSERT_OK(view);
  EXPECT_EQ(view->arity(), 2);
  EXPECT_EQ(*view->GetString(0), "Alice");
  EXPECT_EQ(view->GetInt(1), 1);
  EXPECT_FALSE(view->AnyNull());
}

TEST(BinaryRowTest, SpecKeyStatsBothNull) {
  const std::string serialized =
      FromHex("00000002 0003000000000000 0000000000000000 0000000000000000");
  auto type = RowOf({DataType::String(), DataType::Int()});
  auto values = DecodeSerializedBinaryRow(serialized, *type);
  ASSERT_OK(values);
  EXPECT_EQ(*values, (ValueList{Value::Null(), Value::Null()}));
  auto bytes = EncodeBinaryRow(*values, *type);
  ASSERT_OK(bytes);
  EXPECT_EQ(SerializeBinaryRow(*bytes, 2), serialized);
  auto view = BinaryRowView::FromSerialized(serialized);
  ASSERT_OK(view);
  EXPECT_TRUE(view->IsNullAt(0));
  EXPECT_TRUE(view->IsNullAt(1));
  EXPECT_TRUE(view->AnyNull());
}

// The value-stats max row of the worked example in spec 4.11 (an out-of-line 16-byte string).
TEST(BinaryRowTest, SpecWorkedExampleValueStatsMax) {
  const std::string serialized = FromHex(
      "00000004 0000000000000000 1000000028000000 0a00000000000000 0100000000000000 "
      "3333333333332640 54776f20726f61647320646976657268");
  auto type = RowOf({DataType::String(), DataType::Int(), DataType::Int(), DataType::Double()});
  auto values = DecodeSerializedBinaryRow(serialized, *type);
  ASSERT_OK(values);
  EXPECT_EQ(*values, (ValueList{Value::String("Two roads diverh"), Value::Int32(10),
                                Value::Int32(1), Value::Double(11.1)}));
  auto bytes = EncodeBinaryRow(*values, *type);
  ASSERT_OK(bytes);
  EXPECT_EQ(ToHex(SerializeBinaryRow(*bytes, 4)), ToHex(serialized));
}

// The 16-column value-stats min row of avro_manifest_09 (spec 5.9), slot by slot.
TEST(BinaryRowTest, SpecSixteenColumnStatsRow) {
  const std::string row = FromHex(
      "0000070000000000"  // header, fields 8, 9, 10 null
      "0000000000000000"  // 0 BOOLEAN false
      "8000000000000000"  // 1 TINYINT -128
      "0080000000000000"  // 2 SMALLINT -32768
      "0000008000000000"  // 3 INT min
      "01608db1e7f6ffff"  // 4 BIGINT -9999999999999
      "ec519ac400000000"  // 5 FLOAT -1234.56
      "2c5286b48065d2c1"  // 6 DOUBLE
      "6161000000000082"  // 7 STRING "aa" inline
      "0000000000000000"  // 8 BYTES null
      "0000000000000000"  // 9 ARRAY null
      "0000000000000000"  // 10 ROW null
      "78e0010088000000"  // 11 TIMESTAMP(6): nanos 123000, millis at 136
      "9809000000000000"  // 12 DATE 2456
      "eaffffffffffffff"  // 13 DECIMAL(2,2) -22
      "2efd69b6ffffffff"  // 14 DECIMAL(10,10) -1234567890
      "0800000090000000"  // 15 DECIMAL(19,19): 8 bytes at 144
      "f3e0010000000000"  // millis 123123
      "112210f4b16c1cb1 0000000000000000");
  auto type =
      RowOf({DataType::Boolean(), DataType::TinyInt(), DataType::SmallInt(), DataType::Int(),
             DataType::BigInt(), DataType::Float(), DataType::Double(), DataType::String(),
             DataType::Bytes(), DataType::Array(DataType::Int()), RowOf({DataType::Int()}),
             DataType::Timestamp(6), DataType::Date(), DataType::Decimal(2, 2),
             DataType::Decimal(10, 10), DataType::Decimal(19, 19)});
  auto values = DecodeBinaryRow(row, *type);
  ASSERT_OK(values);
  const ValueList& v = *values;
  EXPECT_EQ(v[0], Value::Boolean(false));
  EXPECT_EQ(v[1], Value::Int8(-128));
  EXPECT_EQ(v[2], Value::Int16(-32768));
  EXPECT_EQ(v[3], Value::Int32(INT32_MIN));
  EXPECT_EQ(v[4], Value::Int64(-9999999999999));
  EXPECT_FLOAT_EQ(v[5].float32(), -1234.56f);
  EXPECT_DOUBLE_EQ(v[6].float64(), -1234567890.0987654);
  EXPECT_EQ(v[7], Value::String("aa"));
  EXPECT_TRUE(v[8].is_null());
  EXPECT_TRUE(v[9].is_null());
  EXPECT_TRUE(v[10].is_null());
  EXPECT_EQ(v[11], Ts(123123, 123000));
  EXPECT_EQ(v[11].timestamp().ToString(6), "1970-01-01 00:02:03.123123");
  EXPECT_EQ(v[12], Value::Int32(2456));
  EXPECT_EQ(v[13].decimal().ToString(), "-0.22");
  EXPECT_EQ(v[14].decimal().ToString(), "-0.1234567890");
  EXPECT_EQ(v[15].decimal().unscaled, static_cast<int128_t>(1234567890987654321LL));
  auto bytes = EncodeBinaryRow(v, *type);
  ASSERT_OK(bytes);
  EXPECT_EQ(ToHex(*bytes), ToHex(row));
}

TEST(BinaryRowTest, EmptyRow) {
  EXPECT_EQ(ToHex(EmptyBinaryRow()), "0000000000000000");
  EXPECT_EQ(ToHex(SerializeBinaryRow(EmptyBinaryRow(), 0)), "000000000000000000000000");
  auto empty_type = DataType::Row({});
  auto bytes = EncodeBinaryRow({}, *empty_type);
  ASSERT_OK(bytes);
  EXPECT_EQ(*bytes, EmptyBinaryRow());
  auto values = DecodeSerializedBinaryRow(SerializeBinaryRow(EmptyBinaryRow(), 0), *empty_type);
  ASSERT_OK(values);
  EXPECT_TRUE(values->empty());
  BinaryRowView empty;
  EXPECT_EQ(empty.arity(), 0);
  EXPECT_EQ(empty.bytes(), EmptyBinaryRow());
  EXPECT_EQ(empty.header_byte(), 0);
  EXPECT_FALSE(empty.AnyNull());
}

TEST(BinaryRowTest, NullBitsWidthGrowsPastFiftySixFields) {
  EXPECT_EQ(BinaryRowView::NullBitsSize(0), 8u);
  EXPECT_EQ(BinaryRowView::NullBitsSize(56), 8u);
  EXPECT_EQ(BinaryRowView::NullBitsSize(57), 16u);
  EXPECT_EQ(BinaryRowView::NullBitsSize(120), 16u);
  EXPECT_EQ(BinaryRowView::NullBitsSize(121), 24u);
  std::vector<DataTypePtr> types(130, DataType::BigInt());
  ValueList values;
  for (int i = 0; i < 130; ++i) {
    values.push_back(i % 3 == 0 ? Value::Null() : Value::Int64(i * 1000003LL));
  }
  auto type = RowOf(types);
  ExpectRoundTrip(values, type);
  auto bytes = EncodeBinaryRow(values, *type);
  ASSERT_OK(bytes);
  EXPECT_EQ(bytes->size(), 24u + 130 * 8);
  auto view = BinaryRowView::Make(*bytes, 130);
  ASSERT_OK(view);
  EXPECT_TRUE(view->IsNullAt(129));
  EXPECT_FALSE(view->IsNullAt(128));
  EXPECT_EQ(view->GetLong(128), 128 * 1000003LL);
}

TEST(BinaryRowTest, InlineAndOutOfLineStrings) {
  auto type =
      RowOf({DataType::String(), DataType::String(), DataType::String(), DataType::Bytes()});
  ValueList values = {Value::String(""), Value::String("1234567"), Value::String("12345678"),
                      Value::Binary(std::string("\x00\xff", 2))};
  auto bytes = EncodeBinaryRow(values, *type);
  ASSERT_OK(bytes);
  EXPECT_EQ(ToHex(*bytes),
            "0000000000000000"
            "0000000000000080"    // "" inline, length 0
            "3132333435363787"    // 7 bytes inline
            "0800000028000000"    // 8 bytes at offset 40
            "00ff000000000082"    // binary inline
            "3132333435363738");  // var part
  ExpectRoundTrip(values, type);
  // Multi-byte UTF-8: the inline limit counts bytes, not characters.
  ExpectRoundTrip({Value::String("\xe5\x95\xa6\xe5\x95\xa6"),
                   Value::String("\xe5\x95\xa6\xe5\x95\xa6\xe5\x95\xa6"), Value::Null(),
                   Value::Binary(std::string(1000, 'x'))},
                  type);
}

TEST(BinaryRowTest, NullNonCompactDecimalAndTimestampKeepTheirSpace) {
  auto type = RowOf({DataType::Decimal(20, 2), DataType::Timestamp(6), DataType::Decimal(18, 2),
                     DataType::Timestamp(3)});
  auto bytes = EncodeBinaryRow({Value::Null(), Value::Null(), Value::Null(), Value::Null()}, *type);
  ASSERT_OK(bytes);
  EXPECT_EQ(ToHex(*bytes),
            "000f000000000000"
            "0000000028000000"  // null DECIMAL(20): offset 40, length 0
            "0000000038000000"  // null TIMESTAMP(6): offset 56, nanos 0
            "0000000000000000"  // compact: plain zero slot
            "0000000000000000"
            "00000000000000000000000000000000"  // 16 reserved bytes
            "0000000000000000");                // 8 reserved bytes
  auto values = DecodeBinaryRow(*bytes, *type);
  ASSERT_OK(values);
  for (const Value& v : *values) EXPECT_TRUE(v.is_null());
}

TEST(BinaryRowTest, NullsWithoutReservationAsJavaBeforeOneTwo) {
  auto type = RowOf({DataType::Int(), DataType::Timestamp(9), DataType::Decimal(30, 2)});
  const ValueList values = {Value::Int32(7), Value::Null(), Value::Null()};
  auto legacy = EncodeBinaryRow(values, *type, RowKind::kInsert, NullReservation::kNone);
  ASSERT_OK(legacy);
  EXPECT_EQ(ToHex(*legacy),
            "000600000000000007000000000000000000000000000000"
            "0000000000000000");
  auto current = EncodeBinaryRow(values, *type);
  ASSERT_OK(current);
  EXPECT_EQ(current->size(), 32u + 8 + 16);
  for (const std::string* bytes : {&*legacy, &*current}) {
    auto view = BinaryRowView::Make(*bytes, 3);
    ASSERT_OK(view);
    auto decoded = DecodeBinaryRow(*view, *type);
    ASSERT_OK(decoded);
    EXPECT_EQ(*decoded, values);
    auto again =
        EncodeBinaryRow(*decoded, *type, RowKind::kInsert, DetectNullReservation(*view, *type));
    ASSERT_OK(again);
    EXPECT_EQ(*again, *bytes);
  }
}

TEST(BinaryRowTest, DecimalUnscaledBytesAreJavaBigIntegerBytes) {
  auto type = RowOf({DataType::Decimal(20, 0)});
  struct Case {
    int64_t unscaled;
    const char* bytes;
  };
  for (const Case& c : {Case{0, "00"}, Case{255, "00ff"}, Case{-1, "ff"}, Case{-129, "ff7f"},
                        Case{127, "7f"}, Case{128, "0080"}, Case{-128, "80"}}) {
    auto bytes = EncodeBinaryRow({Dec(c.unscaled, 20, 0)}, *type);
    ASSERT_OK(bytes);
    const size_t n = std::string(c.bytes).size() / 2;
    EXPECT_EQ(static_cast<uint8_t>((*bytes)[8]), n) << c.unscaled;
    EXPECT_EQ(ToHex(bytes->substr(16, n)), c.bytes) << c.unscaled;
    EXPECT_EQ(bytes->size(), 32u);
    ExpectRoundTrip({Dec(c.unscaled, 20, 0)}, type);
  }
}

TEST(BinaryRowTest, RoundTripEveryType) {
  auto inner = RowOf({DataType::String(), DataType::Int(), DataType::Array(DataType::Int())});
  auto type = RowOf({
      DataType::Boolean(),                                         // 0
      DataType::TinyInt(),                                         // 1
      DataType::SmallInt(),                                        // 2
      DataType::Int(),                                             // 3
      DataType::BigInt(),                                          // 4
      DataType::Float(),                                           // 5
      DataType::Double(),                                          // 6
      DataType::Decimal(10, 2),                                    // 7 compact
      DataType::Decimal(38, 10),                                   // 8 non-compact
      DataType::Char(3),                                           // 9
      DataType::VarChar(100),                                      // 10
      DataType::Binary(4),                                         // 11
      DataType::Bytes(),                                           // 12
      DataType::Date(),                                            // 13
      DataType::Time(3),                                           // 14
      DataType::Timestamp(3),                                      // 15 compact
      DataType::Timestamp(9),                                      // 16
      DataType::TimestampLtz(6),                                   // 17
      DataType::Array(DataType::String()),                         // 18
      DataType::Map(DataType::Int(), DataType::String()),          // 19
      DataType::Multiset(DataType::String()),                      // 20
      inner,                                                       // 21
      DataType::Variant(),                                         // 22
      DataType::Blob(),                                            // 23
      DataType::Vector(DataType::Float(), 3),                      // 24
      DataType::Array(DataType::Array(DataType::Decimal(30, 3))),  // 25
      DataType::Map(DataType::String(), inner),                    // 26
  });
  const int128_t big = static_cast<int128_t>(-1234567890123456789LL) * 1000000000000000000LL - 7;
  std::string variant("\x02\x00\x00\x00\x0c\x01\x01\x00\x01", 9);
  ValueList values = {
      Value::Boolean(true),
      Value::Int8(-7),
      Value::Int16(-300),
      Value::Int32(-123456),
      Value::Int64(INT64_MIN),
      Value::Float(3.5f),
      Value::Double(-2.25e300),
      Dec(-12345, 10, 2),
      Dec(big, 38, 10),
      Value::String("abc"),
      Value::String("a longer varchar value"),
      Value::Binary(std::string("\x01\x02\x03\x04", 4)),
      Value::Binary(std::string("\x00\x01\x02\x03\x04\x05\x06\x07\x08", 9)),
      Value::Int32(DaysFromCivil(1900, 2, 28)),
      Value::Int32(86399999),
      Ts(-1),
      Ts(-86400000LL * 365 * 70 - 1, 999999),
      Ts(1700000000123LL, 456000),
      Value::Array({Value::String("x"), Value::Null(), Value::String("a string of 20 bytes")}),
      Value::Map({{Value::Int32(1), Value::String("one")}, {Value::Int32(2), Value::Null()}}),
      Value::Map({{Value::String("dup"), Value::Int32(2)}}),
      Value::Row({Value::String("nested string!"), Value::Null(),
                  Value::Array({Value::Int32(0), Value::Null(), Value::Int32(1)})}),
      Value::Binary(variant),
      Value::Binary("blob-descriptor-bytes"),
      Value::Array({Value::Float(1.0f), Value::Float(-2.0f), Value::Float(0.5f)}),
      Value::Array(
          {Value::Array({Dec(-1, 30, 3), Value::Null()}), Value::Null(), Value::Array({})}),
      Value::Map(
          {{Value::String("k"), Value::Row({Value::String("s"), Value::Int32(5), Value::Null()})}}),
  };
  ExpectRoundTrip(values, type);
  ExpectRoundTrip(ValueList(values.size()), type);  // every field null
}

TEST(BinaryRowTest, RowKindHeaderByte) {
  auto type = RowOf({DataType::Int()});
  auto bytes = EncodeBinaryRow({Value::Int32(5)}, *type, RowKind::kDelete);
  ASSERT_OK(bytes);
  auto view = BinaryRowView::Make(*bytes, 1);
  ASSERT_OK(view);
  EXPECT_EQ(view->header_byte(), 3);
  EXPECT_EQ(RowKindFromByte(view->header_byte()), RowKind::kDelete);
  EXPECT_EQ(RowKindShortString(RowKind::kUpdateBefore), "-U");
  EXPECT_EQ(RowKindFromShortString("+U"), RowKind::kUpdateAfter);
  EXPECT_EQ(RowKindFromByte(4), std::nullopt);
  EXPECT_TRUE(IsRetract(RowKind::kDelete));
  EXPECT_FALSE(IsRetract(RowKind::kUpdateAfter));
}

TEST(BinaryRowTest, ReusableWriterMatchesEncoder) {
  auto type = RowOf({DataType::String(), DataType::BigInt()});
  BinaryWriter writer = BinaryWriter::ForRow(2);
  for (int i = 0; i < 3; ++i) {
    writer.Reset();
    const std::string s = "key-number-" + std::to_string(i);
    writer.WriteBytes(0, s);
    writer.WriteLong(1, i);
    auto expected = EncodeBinaryRow({Value::String(s), Value::Int64(i)}, *type);
    ASSERT_OK(expected);
    EXPECT_EQ(writer.bytes(), *expected);
  }
}

TEST(BinaryRowTest, WrongValueKindNamesTheField) {
  auto type = RowOf({DataType::Int(), DataType::Int()});
  EXPECT_TRUE(test::HasError(EncodeBinaryRow({Value::Int32(1), Value::String("x")}, *type),
                             StatusCode::kInvalidArgument, {"field 1"}));
  EXPECT_TRUE(test::HasError(EncodeBinaryRow({Value::Int32(1)}, *type),
                             StatusCode::kInvalidArgument,
                             {"1 values for a row type of 2 fields"}));
}

// --- Bad input -----------------------------------------------------------------------------

void ExpectCorruption(const Result<ValueList>& r, const std::string& needle) {
  EXPECT_TRUE(test::HasError(r, StatusCode::kCorruption, {needle}));
}

TEST(BinaryRowTest, CorruptFixedPartAndArity) {
  auto type = RowOf({DataType::Int(), DataType::Int()});
  ExpectCorruption(DecodeBinaryRow(std::string(16, '\0'), *type), "needs 24 bytes");
  ExpectCorruption(DecodeSerializedBinaryRow(FromHex("000000"), *type), "no arity");
  ExpectCorruption(DecodeSerializedBinaryRow(FromHex("00000003") + std::string(32, '\0'), *type),
                   "has 3 fields");
  ExpectCorruption(DecodeSerializedBinaryRow(FromHex("ffffffff") + std::string(8, '\0'), *type),
                   "negative BinaryRow arity");
  ExpectCorruption(DecodeSerializedBinaryRow(FromHex("7fffffff") + std::string(8, '\0'), *type),
                   "null bits and slots");
}

TEST(BinaryRowTest, CorruptVariableLengthReferences) {
  auto type = RowOf({DataType::Int(), DataType::String()});
  // Out-of-line string of 8 bytes at offset 24 in a 24-byte row.
  ExpectCorruption(
      DecodeBinaryRow(FromHex("0000000000000000 0000000000000000 0800000018000000"), *type),
      "field 1: out-of-line data [offset 24, length 8)");
  // Offset far past the end.
  ExpectCorruption(
      DecodeBinaryRow(FromHex("0000000000000000 0000000000000000 01000000ffffff7f"), *type),
      "field 1");
  // Negative length.
  ExpectCorruption(
      DecodeBinaryRow(FromHex("0000000000000000 0000000000000000 ffffffff10000000"), *type),
      "negative length");
  // Inline length 9.
  ExpectCorruption(
      DecodeBinaryRow(FromHex("0000000000000000 0000000000000000 0000000000000089"), *type),
      "inline length 9");
  // A null field is not read at all.
  EXPECT_OK(DecodeBinaryRow(FromHex("0002000000000000 0000000000000000 ffffffffffffffff"), *type));
}

TEST(BinaryRowTest, CorruptDecimalTimestampAndNested) {
  auto dec = RowOf({DataType::Decimal(30, 2)});
  ExpectCorruption(
      DecodeBinaryRow(FromHex("0000000000000000 0000000010000000 ") + std::string(16, '\0'), *dec),
      "0 unscaled bytes");
  ExpectCorruption(
      DecodeBinaryRow(FromHex("0000000000000000 1100000010000000 ") + std::string(24, '\0'), *dec),
      "17 unscaled bytes");
  auto ts = RowOf({DataType::Timestamp(6)});
  ExpectCorruption(DecodeBinaryRow(FromHex("0000000000000000 0000000010000000"), *ts),
                   "timestamp millis at offset 16");
  ExpectCorruption(
      DecodeBinaryRow(FromHex("0000000000000000 40420f0010000000 0000000000000000"), *ts),
      "nano-of-millisecond 1000000");
  // A nested row whose own fixed part does not fit its 8 bytes.
  auto nested = RowOf({RowOf({DataType::Int(), DataType::Int()})});
  ExpectCorruption(
      DecodeBinaryRow(FromHex("0000000000000000 0800000010000000 0000000000000000"), *nested),
      "field 0: BinaryRow of 2 fields needs 24 bytes");
  // An inline mark where a nested value must be out of line.
  ExpectCorruption(DecodeBinaryRow(FromHex("0000000000000000 0000000000000081"), *nested),
                   "inline mark");
  // A nested array claiming 2^31-1 elements.
  auto arr = RowOf({DataType::Array(DataType::BigInt())});
  ExpectCorruption(
      DecodeBinaryRow(FromHex("0000000000000000 0800000010000000 ffffff7f00000000"), *arr),
      "field 0: BinaryArray of 2147483647 elements");
  // A nested map whose key array size overruns it.
  auto map = RowOf({DataType::Map(DataType::Int(), DataType::Int())});
  ExpectCorruption(
      DecodeBinaryRow(FromHex("0000000000000000 0800000010000000 ff00000000000000"), *map),
      "key array size 255");
  // A variant whose value length overruns it.
  auto variant = RowOf({DataType::Variant()});
  ExpectCorruption(
      DecodeBinaryRow(FromHex("0000000000000000 0800000010000000 0900000000000000"), *variant),
      "VARIANT value length 9");
}

TEST(BinaryRowTest, AccessorsAndHash) {
  auto type = RowOf({DataType::TinyInt(), DataType::SmallInt(), DataType::Float(),
                     DataType::Double(), DataType::Boolean(), DataType::Decimal(5, 2),
                     DataType::Timestamp(9), DataType::Array(DataType::Int())});
  ValueList values = {Value::Int8(-1),
                      Value::Int16(1234),
                      Value::Float(1.5f),
                      Value::Double(-0.0),
                      Value::Boolean(true),
                      Dec(-314, 5, 2),
                      Ts(-5, 7),
                      Value::Array({Value::Int32(9)})};
  auto bytes = EncodeBinaryRow(values, *type);
  ASSERT_OK(bytes);
  auto row = BinaryRowView::Make(*bytes, 8);
  ASSERT_OK(row);
  EXPECT_EQ(row->GetByte(0), -1);
  EXPECT_EQ(row->GetShort(1), 1234);
  EXPECT_EQ(row->GetFloat(2), 1.5f);
  EXPECT_TRUE(std::signbit(row->GetDouble(3)));
  EXPECT_TRUE(row->GetBoolean(4));
  EXPECT_EQ(row->GetDecimal(5, 5, 2)->unscaled, -314);
  EXPECT_EQ(*row->GetTimestamp(6, 9), (Timestamp{-5, 7}));
  auto nested = row->GetNested(7);
  ASSERT_OK(nested);
  EXPECT_EQ(nested->size(), 16u);
  auto field = DecodeBinaryRowField(*row, 7, *DataType::Array(DataType::Int()));
  ASSERT_OK(field);
  EXPECT_EQ(*field, values[7]);
  EXPECT_TRUE(test::HasError(DecodeBinaryRowField(*row, 8, *DataType::Int()),
                             StatusCode::kInvalidArgument,
                             {"field 8 of a BinaryRow with 8 fields"}));
  // Field accessors report the field on bad input.
  const std::string bad_bytes = FromHex("0000000000000000 0000000000000089");
  auto bad = BinaryRowView::Make(bad_bytes, 1);
  ASSERT_OK(bad);
  EXPECT_NE(bad->GetString(0).status().message().find("field 0"), std::string::npos);
}

}  // namespace
}  // namespace sluice
