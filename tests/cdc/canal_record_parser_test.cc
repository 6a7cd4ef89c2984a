// canal-json: rows, update handling, DDL skipping, mysqlType types and type mappings, errors.
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

// A canal message of `type` in shop.orders keyed by id.
std::string Canal(
    std::string_view type, std::string_view data, std::string_view old = "null",
    std::string_view mysql_type =
        R"j({"id": "bigint(20)", "name": "varchar(32)", "price": "decimal(10,2)"})j") {
  return R"({"data": )" + std::string(data) + R"(, "old": )" + std::string(old) +
         R"(, "database": "shop", "table": "orders", "type": ")" + std::string(type) +
         R"(", "isDdl": false, "pkNames": ["id"], "es": 1700000000000, "ts": 1700000000123,
            "mysqlType": )" +
         std::string(mysql_type) + "}";
}

TEST(CanalRecordParserTest, InsertGivesOneRecordPerRow) {
  auto records =
      ParseMessage("canal-json", Canal("INSERT", R"([{"id": "1", "name": "pen", "price": "1.50"},
                          {"id": "2", "name": "ink", "price": null}])"));
  ASSERT_TRUE(IsOk(records));
  EXPECT_EQ(Describe(*records), Strings({"+I shop.orders {id=1, name=pen, price=1.50}",
                                         "+I shop.orders {id=2, name=ink, price=NULL}"}));
  EXPECT_EQ(DescribeSchema(*(*records)[0].schema),
            "id BIGINT, name VARCHAR(32), price DECIMAL(10, 2) | pk: id");
}

TEST(CanalRecordParserTest, RowIsASnapshotInsert) {
  auto records = ParseMessage("canal-json", Canal("ROW", R"([{"id": "3", "name": "cup"}])"));
  ASSERT_TRUE(IsOk(records));
  // A column mysqlType names but the row lacks is NULL.
  EXPECT_EQ(Describe(*records), Strings({"+I shop.orders {id=3, name=cup, price=NULL}"}));
}

TEST(CanalRecordParserTest, UpdateGivesDeleteOfTheOldRowThenInsert) {
  auto records =
      ParseMessage("canal-json", Canal("UPDATE",
                                       R"([{"id": "1", "name": "pen", "price": "2.00"},
                              {"id": "2", "name": "ink", "price": "3.00"}])",
                                       R"([{"price": "1.50"}, {"name": "dye", "price": null}])"));
  ASSERT_TRUE(IsOk(records));
  // As Java: -D / +I, not -U / +U.
  EXPECT_EQ(Describe(*records), Strings({"-D shop.orders {id=1, name=pen, price=1.50}",
                                         "+I shop.orders {id=1, name=pen, price=2.00}",
                                         "-D shop.orders {id=2, name=dye, price=NULL}",
                                         "+I shop.orders {id=2, name=ink, price=3.00}"}));
}

TEST(CanalRecordParserTest, Delete) {
  auto records =
      ParseMessage("canal-json", Canal("DELETE", R"([{"id": "1", "name": "pen", "price": "2"}])"));
  ASSERT_TRUE(IsOk(records));
  EXPECT_EQ(Describe(*records), Strings({"-D shop.orders {id=1, name=pen, price=2}"}));
}

TEST(CanalRecordParserTest, DdlAndTombstonesGiveNothing) {
  auto ddl = ParseMessage("canal-json", R"({"data": null, "database": "shop", "table": "orders",
      "isDdl": true, "type": "ALTER", "sql": "ALTER TABLE orders ADD c INT"})");
  ASSERT_TRUE(IsOk(ddl));
  EXPECT_TRUE(ddl->empty());
  auto tombstone = ParseMessage("canal-json", std::nullopt, std::string("k"));
  ASSERT_TRUE(IsOk(tombstone));
  EXPECT_TRUE(tombstone->empty());
}

TEST(CanalRecordParserTest, WithoutMysqlTypeEveryColumnIsString) {
  auto records = ParseMessage("canal-json", R"({"data": [{"id": 7, "f": 1.250, "b": true,
      "n": null, "j": {"a": [1, 2.0]}}], "database": "d", "table": "t", "type": "INSERT"})");
  ASSERT_TRUE(IsOk(records));
  // Numbers keep their text; nested values become compact JSON.
  EXPECT_EQ(Describe(*records),
            Strings({R"(+I d.t {id=7, f=1.250, b=true, n=NULL, j={"a":[1,2.0]}})"}));
  EXPECT_EQ(DescribeSchema(*(*records)[0].schema),
            "id STRING, f STRING, b STRING, n STRING, "
            "j STRING | pk:");
}

TEST(CanalRecordParserTest, MysqlTypesBecomePaimonTypes) {
  const std::string types = R"j({"a": "tinyint(1)", "b": "tinyint(4) unsigned", "c": "int(11)",
      "d": "int unsigned", "e": "bigint(20) unsigned", "f": "float", "g": "double",
      "h": "decimal(38,10)", "i": "decimal(65,2)", "j": "date", "k": "datetime(3)",
      "l": "timestamp(6)", "m": "time", "n": "year", "o": "bit(12)", "p": "char(4)",
      "q": "text", "r": "longtext", "s": "varbinary(8)", "t": "blob", "u": "json",
      "v": "enum('x','y')", "w": "set('p','q','r')", "x": "datetime", "y": "mediumint"})j";
  auto records = ParseMessage("canal-json", Canal("INSERT", "[{}]", "null", types));
  ASSERT_TRUE(IsOk(records));
  EXPECT_EQ(DescribeSchema(*(*records)[0].schema),
            "a BOOLEAN, b SMALLINT, c INT, d BIGINT, e DECIMAL(20, 0), f FLOAT, g DOUBLE, "
            "h DECIMAL(38, 10), i STRING, j DATE, k TIMESTAMP(3), l TIMESTAMP(6), m TIME(0), "
            "n INT, o BINARY(2), p CHAR(4), q STRING, r STRING, s VARBINARY(8), t BYTES, "
            "u STRING, v STRING, w ARRAY<STRING>, x TIMESTAMP(0), y INT | pk: id");

  TypeMapping mapping;
  mapping.Add(TypeMappingMode::kTinyInt1NotBool)
      .Add(TypeMappingMode::kBigintUnsignedToBigint)
      .Add(TypeMappingMode::kCharToString)
      .Add(TypeMappingMode::kLongtextToBytes);
  records =
      ParseMessage("canal-json", Canal("INSERT", "[{}]", "null", types), std::nullopt, mapping);
  ASSERT_TRUE(IsOk(records));
  EXPECT_EQ(DescribeSchema(*(*records)[0].schema),
            "a TINYINT, b SMALLINT, c INT, d BIGINT, e BIGINT, f FLOAT, g DOUBLE, "
            "h DECIMAL(38, 10), i STRING, j DATE, k TIMESTAMP(3), l TIMESTAMP(6), m TIME(0), "
            "n INT, o BINARY(2), p STRING, q STRING, r BYTES, s VARBINARY(8), t BYTES, "
            "u STRING, v STRING, w ARRAY<STRING>, x TIMESTAMP(0), y INT | pk: id");

  records = ParseMessage("canal-json", Canal("INSERT", "[{}]", "null", types), std::nullopt,
                         TypeMapping().Add(TypeMappingMode::kToString));
  ASSERT_TRUE(IsOk(records));
  for (const DataField& field : (*records)[0].schema->fields) {
    EXPECT_EQ(field.type->ToString(), "STRING") << field.name;
  }
}

TEST(CanalRecordParserTest, EnumIndexAndSetBitsBecomeMembers) {
  auto records = ParseMessage(
      "canal-json", Canal("INSERT", R"([{"e": "2", "s": "5"}, {"e": "it''s", "s": "0"}])", "null",
                          R"j({"e": "enum('a','it''s')", "s": "set('p','q','r')"})j"));
  ASSERT_TRUE(IsOk(records));
  EXPECT_EQ(Describe(*records),
            Strings({"+I shop.orders {e=it's, s=[p,r]}", "+I shop.orders {e=it''s, s=[]}"}));
  auto bad = ParseMessage(
      "canal-json", Canal("INSERT", R"([{"e": "3"}])", "null", R"j({"e": "enum('a','b')"})j"));
  EXPECT_TRUE(HasError(bad, StatusCode::kCorruption, {"data[0].e", "ENUM index 3"}));
}

TEST(CanalRecordParserTest, MalformedMessagesAreCorruption) {
  EXPECT_TRUE(HasError(ParseMessage("canal-json", "{\"data\": ["), StatusCode::kCorruption,
                       {"canal-json", "invalid JSON"}));
  EXPECT_TRUE(HasError(ParseMessage("canal-json", "[1]"), StatusCode::kCorruption,
                       {"expected a JSON object", "array"}));
  EXPECT_TRUE(HasError(ParseMessage("canal-json", R"({"type": "INSERT"})"), StatusCode::kCorruption,
                       {"missing field 'data'"}));
  EXPECT_TRUE(HasError(ParseMessage("canal-json", R"({"data": [], "table": "t"})"),
                       StatusCode::kCorruption, {"missing field 'type'"}));
  EXPECT_TRUE(HasError(ParseMessage("canal-json", R"({"data": {}, "type": "INSERT"})"),
                       StatusCode::kCorruption, {"data", "expected array"}));
  EXPECT_TRUE(HasError(ParseMessage("canal-json", Canal("UPSERT", "[{}]")), StatusCode::kCorruption,
                       {"unknown record operation 'UPSERT'"}));
  EXPECT_TRUE(HasError(ParseMessage("canal-json", Canal("UPDATE", R"([{"id": "1"}])")),
                       StatusCode::kCorruption, {"missing field 'old'", "UPDATE"}));
  EXPECT_TRUE(HasError(ParseMessage("canal-json", Canal("UPDATE", R"([{"id": "1"}])", "[]")),
                       StatusCode::kCorruption, {"'old' has 0 rows"}));
  EXPECT_TRUE(HasError(ParseMessage("canal-json", Canal("INSERT", "[1]")), StatusCode::kCorruption,
                       {"data[0]", "expected object"}));
  EXPECT_TRUE(HasError(
      ParseMessage("canal-json", Canal("INSERT", "[{}]", "null", R"({"id": "geography"})")),
      StatusCode::kNotSupported, {"mysqlType.id", "GEOGRAPHY"}));
  EXPECT_TRUE(
      HasError(ParseMessage("canal-json", Canal("INSERT", "[{}]", "null", R"j({"id": "int(x)"})j")),
               StatusCode::kCorruption, {"mysqlType.id", "bad length 'x'"}));
  EXPECT_TRUE(HasError(ParseMessage("canal-json", Canal("INSERT", "[{}]", "null", R"({"id": 4})")),
                       StatusCode::kCorruption, {"mysqlType.id", "expected string"}));
  EXPECT_TRUE(
      HasError(ParseMessage("canal-json", R"({"data": [], "type": "INSERT", "pkNames": [1]})"),
               StatusCode::kCorruption, {"pkNames[0]", "expected string"}));
}

TEST(CanalRecordParserTest, DeeplyNestedValuesAreRefused) {
  std::string deep = R"({"data": [{"v": )" + std::string(200, '[') + std::string(200, ']') +
                     R"(}], "type": "INSERT"})";
  EXPECT_TRUE(
      HasError(ParseMessage("canal-json", deep), StatusCode::kCorruption, {"nested deeper than"}));
}

TEST(CanalRecordParserTest, ParserIsUsableAfterAnError) {
  auto parser = NewRecordParser("canal-json", TypeMapping());
  ASSERT_TRUE(IsOk(parser));
  SourceMessage bad;
  bad.value = "not json";
  std::vector<RichCdcMultiplexRecord> records;
  EXPECT_TRUE(HasError((*parser)->Parse(bad, &records), StatusCode::kCorruption, {"JSON"}));
  SourceMessage good;
  good.value = Canal("INSERT", R"([{"id": "1"}])");
  ASSERT_TRUE(IsOk((*parser)->Parse(good, &records)));
  EXPECT_EQ(Describe(records), Strings({"+I shop.orders {id=1, name=NULL, price=NULL}"}));
}

TEST(RecordParserTest, UnknownFormatNamesTheKnownOnes) {
  EXPECT_TRUE(HasError(NewRecordParser("avro", TypeMapping()), StatusCode::kInvalidArgument,
                       {"avro", "canal-json", "aws-dms-json"}));
}

TEST(TypeMappingTest, ParsesJavaOptionNames) {
  auto mapping = TypeMapping::Parse(" To-String ,tinyint1-not-bool");
  ASSERT_TRUE(IsOk(mapping));
  EXPECT_TRUE(mapping->Contains(TypeMappingMode::kToString));
  EXPECT_TRUE(mapping->Contains(TypeMappingMode::kTinyInt1NotBool));
  EXPECT_FALSE(mapping->Contains(TypeMappingMode::kCharToString));
  EXPECT_TRUE(HasError(TypeMapping::Parse("to-string,nope"), StatusCode::kInvalidArgument,
                       {"Unsupported type mapping option: nope"}));
}

}  // namespace
}  // namespace sluice
