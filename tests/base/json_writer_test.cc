#include "sluice/base/json_writer.h"

#include <gtest/gtest.h>

#include "sluice/base/json_reader.h"
#include "test_util.h"

namespace sluice {
namespace {

TEST(JsonWriterTest, JacksonPrettyLayout) {
  JsonWriter w;
  w.BeginObject();
  w.IntField("version", 3);
  w.Key("fields");
  w.BeginArray();
  w.BeginObject();
  w.IntField("id", 0);
  w.Key("type");
  w.BeginObject();
  w.StringField("type", "ARRAY");
  w.StringField("element", "INT");
  w.EndObject();
  w.EndObject();
  w.BeginObject();
  w.IntField("id", 1);
  w.EndObject();
  w.EndArray();
  w.Key("keys");
  w.BeginArray();
  w.String("a");
  w.String("b");
  w.EndArray();
  w.Key("empty_array");
  w.BeginArray();
  w.EndArray();
  w.Key("empty_object");
  w.BeginObject();
  w.EndObject();
  w.Key("nothing");
  w.Null();
  w.Key("flag");
  w.Bool(false);
  w.Key("retained");
  w.RawNumber("86400.000000000");
  w.IntField("min", INT64_MIN);
  w.EndObject();
  EXPECT_EQ(w.str(),
            "{\n"
            "  \"version\" : 3,\n"
            "  \"fields\" : [ {\n"
            "    \"id\" : 0,\n"
            "    \"type\" : {\n"
            "      \"type\" : \"ARRAY\",\n"
            "      \"element\" : \"INT\"\n"
            "    }\n"
            "  }, {\n"
            "    \"id\" : 1\n"
            "  } ],\n"
            "  \"keys\" : [ \"a\", \"b\" ],\n"
            "  \"empty_array\" : [ ],\n"
            "  \"empty_object\" : { },\n"
            "  \"nothing\" : null,\n"
            "  \"flag\" : false,\n"
            "  \"retained\" : 86400.000000000,\n"
            "  \"min\" : -9223372036854775808\n"
            "}");
}

TEST(JsonWriterTest, TopLevelScalarsAndEmptyDocumentContainers) {
  JsonWriter a;
  a.String("x");
  EXPECT_EQ(a.str(), "\"x\"");
  JsonWriter b;
  b.BeginObject();
  b.EndObject();
  EXPECT_EQ(b.str(), "{ }");
  JsonWriter c;
  c.BeginArray();
  c.Int(1);
  c.BeginArray();
  c.EndArray();
  c.EndArray();
  EXPECT_EQ(c.str(), "[ 1, [ ] ]");
}

TEST(JsonWriterTest, EscapesLikeJackson) {
  std::string out;
  AppendJsonString(std::string("q\"b\\s/\b\t\n\f\r\x01\x1f\x7f", 14) + "\xc3\xa9\xf0\x9f\x98\x80",
                   &out);
  EXPECT_EQ(out, "\"q\\\"b\\\\s/\\b\\t\\n\\f\\r\\u0001\\u001F\x7f\xc3\xa9\xf0\x9f\x98\x80\"");
  std::string nul;
  AppendJsonString(std::string_view("\0", 1), &nul);
  EXPECT_EQ(nul, "\"\\u0000\"");
}

TEST(JsonWriterTest, IllFormedUtf8IsWrittenAsJavaDecodesIt) {
  // Jackson writes Java Strings, where bytes that are not UTF-8 already became U+FFFD.
  std::string out;
  AppendJsonString("a\xff\"\xed\xa0\x80\xc3\xa9", &out);
  EXPECT_EQ(out, "\"a\xEF\xBF\xBD\\\"\xEF\xBF\xBD\xc3\xa9\"");
}

TEST(JsonWriterTest, OutputParsesBack) {
  JsonWriter w;
  w.BeginObject();
  w.StringField("k\n", "v\x02");
  w.IntField("big", 9223372036854775807LL);
  w.EndObject();
  Result<Json> json = ParseJson(w.str());
  ASSERT_OK(json);
  EXPECT_EQ((*json)["k\n"].get<std::string>(), "v\x02");
  EXPECT_EQ((*json)["big"].get<int64_t>(), 9223372036854775807LL);
}

TEST(JsonReaderTest, KeepsOrderAndPrecision) {
  Result<Json> json = ParseJson(R"({"z": 1, "a": 18446744073709551615, "m": -9223372036854775808,
                                   "d": 86400.000000001})");
  ASSERT_OK(json);
  std::vector<std::string> keys;
  for (auto it = json->begin(); it != json->end(); ++it) keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"z", "a", "m", "d"}));
  EXPECT_EQ(*JsonToInt64((*json)["m"], "m"), INT64_MIN);
  EXPECT_TRUE(test::HasError(JsonToInt64((*json)["a"], "a"), StatusCode::kCorruption,
                             {"field 'a'", "18446744073709551615"}));
  EXPECT_EQ((*json)["d"].get<long double>() * 1000000000.0L, 86400000000001.0L);
}

TEST(JsonReaderTest, ErrorsNameFieldAndPosition) {
  EXPECT_TRUE(
      test::HasError(ParseJson("{\"a\" : "), StatusCode::kCorruption, {"invalid JSON at byte 8"}));
  EXPECT_TRUE(test::HasError(ParseJson(""), StatusCode::kCorruption,
                             {"invalid JSON at byte 1", "unexpected end of input"}));
  EXPECT_TRUE(
      test::HasError(ParseJson("{} x"), StatusCode::kCorruption, {"invalid JSON at byte 4"}));
  EXPECT_TRUE(
      test::HasError(ParseJson("\xff"), StatusCode::kCorruption, {"invalid JSON at byte 1"}));

  Json obj = *ParseJson(R"({"s": 1, "i": "x", "big": 3000000000, "n": null})");
  EXPECT_EQ(JsonToString(obj["s"], "s").status().message(),
            "field 's': expected string, got number");
  EXPECT_EQ(JsonToInt64(obj["i"], "i").status().message(),
            "field 'i': expected an integer, got string");
  EXPECT_EQ(JsonToInt32(obj["big"], "big").status().message(),
            "field 'big': value 3000000000 is out of the 32-bit range");
  EXPECT_EQ(JsonToInt64(obj["n"], "n").status().message(),
            "field 'n': expected an integer, got null");
  EXPECT_EQ(GetMember(obj, "missing", "x.missing").status().message(), "missing field 'x.missing'");
  EXPECT_EQ(FindMember(obj, "missing"), nullptr);
  EXPECT_EQ(JsonIndexPath(JsonFieldPath("fields", "type"), 2), "fields.type[2]");
}

}  // namespace
}  // namespace sluice
