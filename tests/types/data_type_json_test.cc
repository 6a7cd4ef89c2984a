#include "sluice/types/data_type_json.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "sluice/base/json_reader.h"
#include "test_util.h"

namespace sluice {
namespace {

DataTypePtr MustParse(std::string_view text) {
  Result<DataTypePtr> type = ParseAtomicDataType(text);
  EXPECT_OK(type) << text;
  return type.ok() ? *type : DataType::Int();
}

// Every atomic type Java writes: the string parses and prints back unchanged, nullable and
// NOT NULL.
TEST(DataTypeJsonTest, CanonicalStringsRoundTrip) {
  const std::vector<std::string> canonical = {
      "BOOLEAN",
      "TINYINT",
      "SMALLINT",
      "INT",
      "BIGINT",
      "FLOAT",
      "DOUBLE",
      "DECIMAL(10, 0)",
      "DECIMAL(38, 18)",
      "DECIMAL(1, 1)",
      "CHAR(1)",
      "CHAR(255)",
      "VARCHAR(1)",
      "VARCHAR(2147483646)",
      "STRING",
      "BINARY(16)",
      "VARBINARY(3)",
      "BYTES",
      "DATE",
      "TIME(0)",
      "TIME(9)",
      "TIMESTAMP(0)",
      "TIMESTAMP(3)",
      "TIMESTAMP(6)",
      "TIMESTAMP(9)",
      "TIMESTAMP(0) WITH LOCAL TIME ZONE",
      "TIMESTAMP(9) WITH LOCAL TIME ZONE",
      "VARIANT",
      "BLOB",
      "VECTOR<FLOAT, 3>",
      "VECTOR<TINYINT NOT NULL, 128>",
  };
  auto is_vector = [](const std::string& s) { return s.rfind("VECTOR", 0) == 0; };
  for (const std::string& s : canonical) {
    for (const std::string& text : {s, s + " NOT NULL"}) {
      DataTypePtr type = MustParse(text);
      EXPECT_EQ(type->ToString(), text);
      // Java writes VECTOR as an object even though its string form parses.
      if (!is_vector(s)) EXPECT_EQ(DataTypeToJson(*type), "\"" + text + "\"");
      Result<DataTypePtr> again = DataTypeFromJson(Json(text));
      ASSERT_OK(again) << text;
      EXPECT_TRUE((*again)->Equals(*type)) << text;
    }
  }
}

TEST(DataTypeJsonTest, AliasesDefaultsAndCase) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"INTEGER", "INT"},
      {"int", "INT"},
      {"  Int   not   null ", "INT NOT NULL"},
      {"INT NULL", "INT"},
      {"DOUBLE PRECISION", "DOUBLE"},
      {"double precision not null", "DOUBLE NOT NULL"},
      {"DECIMAL", "DECIMAL(10, 0)"},
      {"DECIMAL(5)", "DECIMAL(5, 0)"},
      {"DECIMAL(10,2)", "DECIMAL(10, 2)"},
      {"NUMERIC(7, 3)", "DECIMAL(7, 3)"},
      {"DEC", "DECIMAL(10, 0)"},
      {"dec(4 , 1)", "DECIMAL(4, 1)"},
      {"CHAR", "CHAR(1)"},
      {"VARCHAR", "VARCHAR(1)"},
      {"VARCHAR(2147483647)", "STRING"},
      {"BINARY", "BINARY(1)"},
      {"VARBINARY", "VARBINARY(1)"},
      {"VARBINARY(2147483647)", "BYTES"},
      {"TIME", "TIME(0)"},
      {"TIME(3) WITHOUT TIME ZONE", "TIME(3)"},
      {"TIMESTAMP", "TIMESTAMP(6)"},
      {"TIMESTAMP WITHOUT TIME ZONE", "TIMESTAMP(6)"},
      {"TIMESTAMP(3) WITHOUT TIME ZONE NOT NULL", "TIMESTAMP(3) NOT NULL"},
      {"TIMESTAMP WITH LOCAL TIME ZONE", "TIMESTAMP(6) WITH LOCAL TIME ZONE"},
      {"timestamp(3) with local time zone", "TIMESTAMP(3) WITH LOCAL TIME ZONE"},
      {"TIMESTAMP_LTZ", "TIMESTAMP(6) WITH LOCAL TIME ZONE"},
      {"TIMESTAMP_LTZ(9)", "TIMESTAMP(9) WITH LOCAL TIME ZONE"},
      {"INT ARRAY", "ARRAY<INT>"},
      {"INT NOT NULL ARRAY NOT NULL", "ARRAY<INT NOT NULL> NOT NULL"},
      {"STRING MULTISET", "MULTISET<STRING>"},
      {"BIGINT NULL MULTISET NOT NULL", "MULTISET<BIGINT> NOT NULL"},
      {"vector<double not null, 2>", "VECTOR<DOUBLE NOT NULL, 2>"},
  };
  for (const auto& [input, expected] : cases) {
    EXPECT_EQ(MustParse(input)->ToString(), expected) << input;
  }
  DataTypePtr ltz = MustParse("TIMESTAMP_LTZ(3)");
  EXPECT_EQ(ltz->root(), TypeRoot::kTimestampLtz);
  EXPECT_EQ(ltz->precision(), 3);
  DataTypePtr arr = MustParse("INT NOT NULL ARRAY");
  EXPECT_EQ(arr->root(), TypeRoot::kArray);
  EXPECT_TRUE(arr->nullable());
  EXPECT_FALSE(arr->element()->nullable());
}

TEST(DataTypeJsonTest, RejectsBadStrings) {
  const std::vector<std::string> bad = {
      "",
      "FOO",
      "ARRAY<INT>",
      "MAP<INT, INT>",
      "ROW<a INT>",
      "INT INT",
      "DECIMAL(0)",
      "DECIMAL(39, 0)",
      "DECIMAL(5, 6)",
      "DECIMAL(5,",
      "CHAR(0)",
      "VARCHAR(0)",
      "TIMESTAMP(10)",
      "TIME(12)",
      "INT NOT",
      "DECIMAL(99999999999)",
      "TIMESTAMP WITH TIME ZONE",
      "VECTOR<STRING, 3>",
      "VECTOR<INT, 0>",
      "VECTOR<INT>",
      "`INT`",
      "'INT'",
      "INTERVAL",
      "INT,",
      "(",
      "BYTES(3)",
  };
  for (const std::string& text : bad) {
    EXPECT_TRUE(test::HasError(ParseAtomicDataType(text), StatusCode::kInvalidArgument,
                               {"'" + text + "'"}));
  }
  EXPECT_TRUE(
      test::HasError(ParseAtomicDataType("GEOMETRY"), StatusCode::kNotSupported, {"GEOMETRY"}));
  EXPECT_EQ(ParseAtomicDataType("FOO").status().message(),
            "could not parse type 'FOO' at position 0: a keyword expected but was 'FOO'");
}

TEST(DataTypeJsonTest, NestedObjectsRoundTrip) {
  const std::string json_text = R"js({
  "type" : "ROW NOT NULL",
  "fields" : [ {
    "id" : 5,
    "name" : "f0",
    "type" : "STRING",
    "description" : "it's"
  }, {
    "id" : 6,
    "name" : "f1",
    "type" : {
      "type" : "ARRAY NOT NULL",
      "element" : {
        "type" : "MAP",
        "key" : "INT NOT NULL",
        "value" : {
          "type" : "MULTISET",
          "element" : "DECIMAL(5, 2)"
        }
      }
    },
    "defaultValue" : "1"
  }, {
    "id" : 7,
    "name" : "v",
    "type" : {
      "type" : "VECTOR NOT NULL",
      "element" : "FLOAT",
      "length" : 4
    }
  } ]
})js";
  Result<Json> json = ParseJson(json_text);
  ASSERT_OK(json);
  Result<DataTypePtr> type = DataTypeFromJson(*json);
  ASSERT_OK(type);
  EXPECT_EQ(DataTypeToJson(**type), json_text);
  EXPECT_EQ((*type)->ToString(),
            "ROW<`f0` STRING COMMENT 'it''s', `f1` ARRAY<MAP<INT NOT NULL, "
            "MULTISET<DECIMAL(5, 2)>>> NOT NULL DEFAULT 1, `v` VECTOR<FLOAT, 4> NOT NULL> "
            "NOT NULL");
  EXPECT_EQ((*type)->fields()[2].type->length(), 4);
}

TEST(DataTypeJsonTest, IdlessNestedFieldsGetSequentialIds) {
  Json json = *ParseJson(R"({"type": "ROW", "fields": [
      {"name": "a", "type": "INT"},
      {"name": "b", "type": {"type": "ROW", "fields": [{"name": "c", "type": "INT"}]}}]})");
  Result<DataTypePtr> type = DataTypeFromJson(json);
  ASSERT_OK(type);
  EXPECT_EQ((*type)->fields()[0].id, 0);
  EXPECT_EQ((*type)->fields()[1].id, 1);
  EXPECT_EQ((*type)->fields()[1].type->fields()[0].id, 2);

  Json mixed = *ParseJson(R"({"type": "ROW", "fields": [
      {"name": "a", "type": "INT"}, {"id": 4, "name": "b", "type": "INT"}]})");
  EXPECT_NE(DataTypeFromJson(mixed).status().message().find("partial field ids"),
            std::string::npos);
  // In schema files every field carries an id.
  Json no_id = *ParseJson(R"({"name": "a", "type": "INT"})");
  EXPECT_EQ(DataFieldFromJson(no_id, "fields[0]").status().message(),
            "missing field 'fields[0].id'");
}

TEST(DataTypeJsonTest, BadJsonNamesTheField) {
  struct Case {
    const char* json;
    const char* message;
  };
  const Case cases[] = {
      {R"({"id": 1, "name": "a", "type": 3})",
       "field 'f.type': expected string or object, got number"},
      {R"({"id": "1", "name": "a", "type": "INT"})",
       "field 'f.id': expected an integer, got string"},
      {R"({"id": 1, "type": "INT"})", "missing field 'f.name'"},
      {R"({"id": 1, "name": "a"})", "missing field 'f.type'"},
      {R"({"id": 1, "name": "a", "type": "INTT"})",
       "field 'f.type': could not parse type 'INTT' at position 0: a keyword expected but was "
       "'INTT'"},
      {R"({"id": 1, "name": "a", "type": {"type": "LIST", "element": "INT"}})",
       "field 'f.type.type': unknown nested type 'LIST'"},
      {R"({"id": 1, "name": "a", "type": {"type": "ARRAY"}})", "missing field 'f.type.element'"},
      {R"({"id": 1, "name": "a", "type": {"type": "MAP", "key": "INT"}})",
       "missing field 'f.type.value'"},
      {R"({"id": 1, "name": "a", "type": {"type": "ROW", "fields": {}}})",
       "field 'f.type.fields': expected array, got object"},
      {R"({"id": 1, "name": "a", "type": {"type": "ROW", "fields": [
          {"id": 2, "name": "x", "type": "INT"}, {"id": 3, "name": "x", "type": "INT"}]}})",
       "field 'f.type.fields[1]': duplicate field name 'x'"},
      {R"({"id": 1, "name": "a", "type": {"type": "VECTOR", "element": "STRING", "length": 2}})",
       "field 'f.type': invalid element type for vector: STRING"},
      {R"({"id": 1, "name": "a", "type": "INT", "description": 5})",
       "field 'f.description': expected string, got number"},
      {R"([1])", "field 'f': expected object, got array"},
  };
  for (const Case& c : cases) {
    Result<Json> json = ParseJson(c.json);
    ASSERT_OK(json) << c.json;
    Result<DataField> field = DataFieldFromJson(*json, "f");
    ASSERT_TRUE(test::HasError(field, StatusCode::kCorruption, {c.message})) << c.json;
    EXPECT_EQ(field.status().message(), c.message);
  }
}

TEST(DataTypeJsonTest, DeepNestingIsAnErrorNotACrash) {
  std::string deep;
  for (int i = 0; i < 5000; ++i) deep += R"({"type": "ARRAY", "element": )";
  deep += "\"INT\"";
  for (int i = 0; i < 5000; ++i) deep += "}";
  Result<Json> json = ParseJson(deep);
  ASSERT_OK(json);
  EXPECT_TRUE(
      test::HasError(DataTypeFromJson(*json), StatusCode::kCorruption, {"type nested too deeply"}));

  std::string vectors;
  for (int i = 0; i < 5000; ++i) vectors += "VECTOR<";
  EXPECT_TRUE(test::HasError(ParseAtomicDataType(vectors), StatusCode::kInvalidArgument,
                             {"VECTOR<VECTOR<", "type nested too deeply"}));
}

}  // namespace
}  // namespace sluice
