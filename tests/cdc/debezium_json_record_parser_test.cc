// debezium-json: both envelopes, op handling, logical types, primary keys from the key, errors.
#include <gtest/gtest.h>

#include "record_parser_test_util.h"
#include "test_util.h"

namespace sluice {
namespace {

using test::Describe;
using test::DescribeSchema;
using test::HasError;
using test::IsOk;
using test::ParseMessage;
using test::Strings;

// A payload of `op` in inv.items.
std::string Payload(std::string_view op, std::string_view before, std::string_view after) {
  return R"j({"before": )j" + std::string(before) + R"j(, "after": )j" + std::string(after) +
         R"j(, "source": {"connector": "mysql", "db": "inv", "table": "items", "ts_ms": 1},
             "op": ")j" +
         std::string(op) + R"j(", "ts_ms": 2, "transaction": null})j";
}

TEST(DebeziumJsonRecordParserTest, OpsWithoutSchema) {
  auto insert = ParseMessage("debezium-json", Payload("c", "null", R"j({"id": 1, "v": "a"})j"));
  ASSERT_TRUE(IsOk(insert));
  EXPECT_EQ(Describe(*insert), Strings({"+I inv.items {id=1, v=a}"}));
  EXPECT_EQ(DescribeSchema(*(*insert)[0].schema), "id STRING, v STRING | pk:");

  auto read = ParseMessage("debezium-json", Payload("r", "null", R"j({"id": 2, "v": null})j"));
  ASSERT_TRUE(IsOk(read));
  EXPECT_EQ(Describe(*read), Strings({"+I inv.items {id=2, v=NULL}"}));

  // As Java: -D of the old row, +I of the new one.
  auto update = ParseMessage("debezium-json",
                             Payload("u", R"j({"id": 1, "v": "a"})j", R"j({"id": 1, "v": "b"})j"));
  ASSERT_TRUE(IsOk(update));
  EXPECT_EQ(Describe(*update), Strings({"-D inv.items {id=1, v=a}", "+I inv.items {id=1, v=b}"}));

  auto remove = ParseMessage("debezium-json", Payload("d", R"j({"id": 1, "v": "b"})j", "null"));
  ASSERT_TRUE(IsOk(remove));
  EXPECT_EQ(Describe(*remove), Strings({"-D inv.items {id=1, v=b}"}));
}

TEST(DebeziumJsonRecordParserTest, TruncateMessageAndTombstoneGiveNothing) {
  for (std::string_view op : {"t", "m"}) {
    auto records = ParseMessage("debezium-json", Payload(op, "null", "null"));
    ASSERT_TRUE(IsOk(records));
    EXPECT_TRUE(records->empty());
  }
  auto tombstone = ParseMessage("debezium-json", std::nullopt, std::string(R"j({"id": 1})j"));
  ASSERT_TRUE(IsOk(tombstone));
  EXPECT_TRUE(tombstone->empty());
}

TEST(DebeziumJsonRecordParserTest, NullSchemaEnvelope) {
  auto records = ParseMessage("debezium-json", R"j({"schema": null, "payload": )j" +
                                                   Payload("c", "null", R"j({"id": 5})j") + "}");
  ASSERT_TRUE(IsOk(records));
  EXPECT_EQ(Describe(*records), Strings({"+I inv.items {id=5}"}));
}

TEST(DebeziumJsonRecordParserTest, PrimaryKeysFromPkNamesOrTheMessageKey) {
  const std::string value = Payload("c", "null", R"j({"a": 1, "b": 2, "c": 3})j");
  auto no_key = ParseMessage("debezium-json", value);
  ASSERT_TRUE(IsOk(no_key));
  EXPECT_TRUE((*no_key)[0].schema->primary_keys.empty());

  auto plain_key = ParseMessage("debezium-json", value, std::string(R"j({"a": 1, "b": 2})j"));
  ASSERT_TRUE(IsOk(plain_key));
  EXPECT_EQ((*plain_key)[0].schema->primary_keys, Strings({"a", "b"}));

  auto envelope_key = ParseMessage(
      "debezium-json", value,
      std::string(R"j({"schema": {"type": "struct", "fields": [{"type": "int32", "field": "c"}]},
                       "payload": {"c": 3}})j"));
  ASSERT_TRUE(IsOk(envelope_key));
  EXPECT_EQ((*envelope_key)[0].schema->primary_keys, Strings({"c"}));

  // A key that is not a JSON object names no keys and is no error.
  auto text_key = ParseMessage("debezium-json", value, std::string("user-17"));
  ASSERT_TRUE(IsOk(text_key));
  EXPECT_TRUE((*text_key)[0].schema->primary_keys.empty());

  // pkNames (written by Paimon's own CDC serializers) wins.
  std::string with_pk_names = value;
  with_pk_names.insert(1, R"j("pkNames": ["c"], )j");
  auto pk_names = ParseMessage("debezium-json", with_pk_names, std::string(R"j({"a": 1})j"));
  ASSERT_TRUE(IsOk(pk_names));
  EXPECT_EQ((*pk_names)[0].schema->primary_keys, Strings({"c"}));
}

// A message with the schema envelope: each column of `columns` is a Connect schema JSON.
std::string WithSchema(std::string_view columns, std::string_view after, std::string_view op = "c",
                       std::string_view before = "null") {
  return R"j({"schema": {"type": "struct", "fields": [
      {"type": "struct", "optional": true, "field": "before", "fields": [)j" +
         std::string(columns) + R"j(]},
      {"type": "struct", "optional": true, "field": "after", "fields": [)j" +
         std::string(columns) + R"j(]},
      {"type": "string", "field": "op"}]}, "payload": )j" +
         Payload(op, before, after) + "}";
}

TEST(DebeziumJsonRecordParserTest, ConnectTypes) {
  const std::string columns = R"j(
      {"type": "int8", "field": "i8"}, {"type": "int16", "field": "i16"},
      {"type": "int32", "optional": false, "field": "i32"}, {"type": "int64", "field": "i64"},
      {"type": "float", "field": "f32"}, {"type": "double", "field": "f64"},
      {"type": "float64", "field": "d64"}, {"type": "boolean", "field": "b"},
      {"type": "string", "field": "s"}, {"type": "bytes", "field": "raw"},
      {"type": "string", "name": "io.debezium.data.Json", "field": "j"},
      {"type": "int32", "name": "io.debezium.time.Year", "field": "y"})j";
  auto records = ParseMessage("debezium-json", WithSchema(columns, R"j({"i8": -1, "i16": 300,
      "i32": 70000, "i64": 9000000000, "f32": 1.5, "f64": 2.000022, "d64": 1e-7, "b": true,
      "s": "text", "raw": "AAEC/w==", "j": "{\"a\": 1}", "y": 2024})j"));
  ASSERT_TRUE(IsOk(records));
  EXPECT_EQ(DescribeSchema(*(*records)[0].schema),
            "i8 TINYINT, i16 SMALLINT, i32 INT, i64 BIGINT, f32 FLOAT, f64 DOUBLE, d64 DOUBLE, "
            "b BOOLEAN, s STRING, raw BYTES, j STRING, y INT | pk:");
  EXPECT_EQ(Describe(*records),
            Strings({std::string("+I inv.items {i8=-1, i16=300, i32=70000, i64=9000000000, "
                                 "f32=1.5, f64=2.000022, d64=1e-7, b=true, s=text, raw=") +
                     std::string("\x00\x01\x02\xff", 4) + R"j(, j={"a": 1}, y=2024})j"}));

  // With to-string the columns are STRING, the values the same.
  auto as_text = ParseMessage("debezium-json", WithSchema(columns, R"j({"i8": 1})j"), std::nullopt,
                              TypeMapping().Add(TypeMappingMode::kToString));
  ASSERT_TRUE(IsOk(as_text));
  EXPECT_EQ(DescribeSchema(*(*as_text)[0].schema), "i8 STRING | pk:");
}

TEST(DebeziumJsonRecordParserTest, TemporalTypes) {
  const std::string columns = R"j(
      {"type": "int32", "name": "io.debezium.time.Date", "field": "d"},
      {"type": "int32", "name": "org.apache.kafka.connect.data.Date", "field": "cd"},
      {"type": "int64", "name": "io.debezium.time.Timestamp", "field": "ts3"},
      {"type": "int64", "name": "org.apache.kafka.connect.data.Timestamp", "field": "cts"},
      {"type": "int64", "name": "io.debezium.time.MicroTimestamp", "field": "ts6"},
      {"type": "int64", "name": "io.debezium.time.NanoTimestamp", "field": "ts9"},
      {"type": "string", "name": "io.debezium.time.ZonedTimestamp", "field": "zts"},
      {"type": "int32", "name": "io.debezium.time.Time", "field": "t3"},
      {"type": "int32", "name": "org.apache.kafka.connect.data.Time", "field": "ct"},
      {"type": "int64", "name": "io.debezium.time.MicroTime", "field": "t6"},
      {"type": "int64", "name": "io.debezium.time.NanoTime", "field": "t9"})j";
  auto records = ParseMessage("debezium-json", WithSchema(columns, R"j({"d": 19724, "cd": -1,
      "ts3": 1704164645123, "cts": 0, "ts6": 1704164645123456, "ts9": 1704164645123456789,
      "zts": "2024-01-02T11:04:05.5+08:00", "t3": 11045123, "ct": 0, "t6": 11045123456,
      "t9": 11045000000001})j"));
  ASSERT_TRUE(IsOk(records));
  EXPECT_EQ(DescribeSchema(*(*records)[0].schema),
            "d DATE, cd DATE, ts3 TIMESTAMP(3), cts TIMESTAMP(3), ts6 TIMESTAMP(6), "
            "ts9 TIMESTAMP(9), zts TIMESTAMP(6), t3 TIME(3), ct TIME(3), t6 TIME(0), "
            "t9 TIME(9) | pk:");
  EXPECT_EQ(Describe(*records),
            Strings({"+I inv.items {d=2024-01-02, cd=1969-12-31, ts3=2024-01-02 03:04:05.123, "
                     "cts=1970-01-01 00:00:00.000, ts6=2024-01-02 03:04:05.123456, "
                     "ts9=2024-01-02 03:04:05.123456789, zts=2024-01-02 03:04:05.500000, "
                     "t3=03:04:05.123, ct=00:00:00, t6=03:04:05.123456, "
                     "t9=03:04:05.000000001}"}));
}

TEST(DebeziumJsonRecordParserTest, Decimals) {
  const std::string columns = R"j(
      {"type": "bytes", "name": "org.apache.kafka.connect.data.Decimal",
       "parameters": {"scale": "2", "connect.decimal.precision": "10"}, "field": "num"},
      {"type": "bytes", "name": "org.apache.kafka.connect.data.Decimal",
       "parameters": {"scale": "2", "connect.decimal.precision": "10"}, "field": "b64"},
      {"type": "bytes", "name": "org.apache.kafka.connect.data.Decimal",
       "parameters": {"scale": "3", "connect.decimal.precision": "38"}, "field": "neg"},
      {"type": "bytes", "name": "org.apache.kafka.connect.data.Decimal",
       "parameters": {"scale": "0"}, "field": "ubig"},
      {"type": "bytes", "name": "org.apache.kafka.connect.data.Decimal",
       "parameters": {"scale": "1", "connect.decimal.precision": "65"}, "field": "wide"},
      {"type": "struct", "name": "io.debezium.data.VariableScaleDecimal", "field": "vsd",
       "fields": [{"type": "int32", "field": "scale"}, {"type": "bytes", "field": "value"}]},
      {"type": "bytes", "name": "io.debezium.data.Bits", "parameters": {"length": "12"},
       "field": "bits"})j";
  // 12345 = 0x3039 -> "MDk="; -1 = 0xff -> "/w=="; 18446744073709551615 = 0x00ff..ff.
  const std::string after = R"j({"num": 123.40, "b64": "MDk=", "neg": "/w==",
      "ubig": "AP//////////", "wide": 12345678901234567890123456789012345678901234.5,
      "vsd": {"scale": 4, "value": "MDk="}, "bits": "AQI="})j";
  auto records = ParseMessage("debezium-json", WithSchema(columns, after));
  ASSERT_TRUE(IsOk(records));
  EXPECT_EQ(DescribeSchema(*(*records)[0].schema),
            "num DECIMAL(10, 2), b64 DECIMAL(10, 2), neg DECIMAL(38, 3), ubig DECIMAL(20, 0), "
            "wide STRING, vsd STRING, bits BINARY(2) | pk:");
  // Bits: little-endian 01 02 -> big-endian 02 01 -> "AgE=".
  EXPECT_EQ(Describe(*records),
            Strings({"+I inv.items {num=123.40, b64=123.45, neg=-0.001, "
                     "ubig=18446744073709551615, "
                     "wide=12345678901234567890123456789012345678901234.5, vsd=1.2345, "
                     "bits=AgE=}"}));
  auto bits_text = ParseMessage("debezium-json", WithSchema(columns, R"j({"bits": "AQI="})j"),
                                std::nullopt, TypeMapping().Add(TypeMappingMode::kToString));
  ASSERT_TRUE(IsOk(bits_text));
  EXPECT_EQ(Describe(*bits_text), Strings({"+I inv.items {bits=0000001000000001}"}));
}

TEST(DebeziumJsonRecordParserTest, UpdateWithSchemaAndNullValues) {
  const std::string columns = R"j({"type": "int32", "field": "id"},
      {"type": "int32", "name": "io.debezium.time.Date", "field": "d"},
      {"type": "string", "field": "extra"})j";
  auto records =
      ParseMessage("debezium-json", WithSchema(columns, R"j({"id": 1, "d": null, "extra": "x"})j",
                                               "u", R"j({"id": 1, "d": 0, "extra": null})j"));
  ASSERT_TRUE(IsOk(records));
  EXPECT_EQ(Describe(*records), Strings({"-D inv.items {id=1, d=1970-01-01, extra=NULL}",
                                         "+I inv.items {id=1, d=NULL, extra=x}"}));
}

TEST(DebeziumJsonRecordParserTest, MalformedMessagesAreCorruption) {
  EXPECT_TRUE(HasError(ParseMessage("debezium-json", "{"), StatusCode::kCorruption,
                       {"debezium-json", "invalid JSON"}));
  EXPECT_TRUE(HasError(ParseMessage("debezium-json", R"j({"after": {}})j"), StatusCode::kCorruption,
                       {"missing field 'op'"}));
  EXPECT_TRUE(HasError(ParseMessage("debezium-json", Payload("x", "null", "{}")),
                       StatusCode::kCorruption, {"unknown record operation 'x'"}));
  EXPECT_TRUE(HasError(ParseMessage("debezium-json", Payload("c", "null", "null")),
                       StatusCode::kCorruption, {"missing field 'after'"}));
  EXPECT_TRUE(HasError(ParseMessage("debezium-json", Payload("u", "null", "{}")),
                       StatusCode::kCorruption, {"missing field 'before'", "'op' is 'u'"}));
  EXPECT_TRUE(HasError(ParseMessage("debezium-json", Payload("c", "null", "[1]")),
                       StatusCode::kCorruption, {"after", "expected object"}));
  EXPECT_TRUE(HasError(ParseMessage("debezium-json", R"j({"schema": {}, "payload": {}})j"),
                       StatusCode::kCorruption, {"schema.fields"}));
  EXPECT_TRUE(HasError(ParseMessage("debezium-json", R"j({"schema": null})j"),
                       StatusCode::kCorruption, {"missing field 'payload'"}));
  const std::string date = R"j({"type": "int32", "name": "io.debezium.time.Date", "field": "d"})j";
  EXPECT_TRUE(HasError(ParseMessage("debezium-json", WithSchema(date, R"j({"d": "soon"})j")),
                       StatusCode::kCorruption, {"after.d", "'soon' is not an integer"}));
  const std::string decimal = R"j({"type": "bytes", "field": "n",
      "name": "org.apache.kafka.connect.data.Decimal", "parameters": {"scale": "x"}})j";
  EXPECT_TRUE(HasError(ParseMessage("debezium-json", WithSchema(decimal, R"j({"n": 1})j")),
                       StatusCode::kCorruption, {"after.n", "DECIMAL scale 'x'"}));
  const std::string bytes = R"j({"type": "bytes", "field": "b"})j";
  EXPECT_TRUE(HasError(ParseMessage("debezium-json", WithSchema(bytes, R"j({"b": "%%"})j")),
                       StatusCode::kCorruption, {"after.b", "base64"}));
  const std::string zoned =
      R"j({"type": "string", "name": "io.debezium.time.ZonedTimestamp", "field": "z"})j";
  EXPECT_TRUE(HasError(ParseMessage("debezium-json", WithSchema(zoned, R"j({"z": "noon"})j")),
                       StatusCode::kCorruption, {"after.z", "noon"}));
}

}  // namespace
}  // namespace sluice
