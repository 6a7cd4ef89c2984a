#include "sluice/meta/table_schema.h"
#include "sluice/meta/core_options.h"

#include <gtest/gtest.h>
#include "test_util.h"

namespace sluice {
namespace {

std::vector<DataField> Fields() {
  return {
      {0, "f0", DataType::String(false), std::nullopt, std::nullopt},
      {1, "f1", DataType::Int(false), std::nullopt, std::nullopt},
      {2, "f2", DataType::Int(false), "comment", std::nullopt},
      {3, "f3", DataType::Double(), std::nullopt, "1.5"},
  };
}

TEST(TableSchemaTest, WritesJavaLayout) {
  Result<TableSchema> s =
      TableSchema::Make(3, 0, Fields(), 3, {"f1"}, {"f0", "f1", "f2"},
                        {{"bucket", "2"}, {"bucket-key", "f2"}, {"file.format", "orc"}},
                        "a \"table\"", 1725534144802);
  ASSERT_OK(s);
  const std::string expected = R"({
  "version" : 3,
  "id" : 0,
  "fields" : [ {
    "id" : 0,
    "name" : "f0",
    "type" : "STRING NOT NULL"
  }, {
    "id" : 1,
    "name" : "f1",
    "type" : "INT NOT NULL"
  }, {
    "id" : 2,
    "name" : "f2",
    "type" : "INT NOT NULL",
    "description" : "comment"
  }, {
    "id" : 3,
    "name" : "f3",
    "type" : "DOUBLE",
    "defaultValue" : "1.5"
  } ],
  "highestFieldId" : 3,
  "partitionKeys" : [ "f1" ],
  "primaryKeys" : [ "f0", "f1", "f2" ],
  "options" : {
    "bucket" : "2",
    "bucket-key" : "f2",
    "file.format" : "orc"
  },
  "comment" : "a \"table\"",
  "timeMillis" : 1725534144802
})";
  EXPECT_EQ(s->ToJson(), expected);
  Result<TableSchema> back = TableSchema::FromJson(expected);
  ASSERT_OK(back);
  EXPECT_EQ(back->ToJson(), expected);
  EXPECT_EQ(back->comment(), "a \"table\"");
  EXPECT_EQ(back->fields()[3].default_value, "1.5");
}

TEST(TableSchemaTest, Helpers) {
  Result<TableSchema> s =
      TableSchema::Make(3, 1, Fields(), 9, {"f1"}, {"f0", "f1", "f2"},
                        {{"bucket", "4"}, {"bucket-key", "f2,f0"}}, std::nullopt, 0);
  ASSERT_OK(s);
  EXPECT_EQ(s->trimmed_primary_keys(), (std::vector<std::string>{"f0", "f2"}));
  EXPECT_EQ(s->bucket_keys(), (std::vector<std::string>{"f2", "f0"}));
  EXPECT_EQ(CoreOptions::FromSchema(*s)->bucket(), 4);
  EXPECT_TRUE(s->is_primary_key_table());
  EXPECT_FALSE(s->CrossPartitionUpdate());
  EXPECT_EQ(s->FieldByName("f2")->id, 2);
  EXPECT_EQ(s->FieldById(3)->name, "f3");
  EXPECT_EQ(s->FieldById(7), nullptr);
  EXPECT_EQ(s->FieldByName("nope"), nullptr);
  EXPECT_EQ(s->FieldIndex("f3"), 3);
  EXPECT_EQ(s->FieldNames(), (std::vector<std::string>{"f0", "f1", "f2", "f3"}));
  EXPECT_EQ(*s->FindOption("bucket-key"), "f2,f0");
  EXPECT_EQ(s->OptionOr("file.format", "parquet"), "parquet");
  EXPECT_EQ(s->LogicalRowType()->ToString(),
            "ROW<`f0` STRING NOT NULL, `f1` INT NOT NULL, `f2` INT NOT NULL COMMENT 'comment', "
            "`f3` DOUBLE DEFAULT 1.5>");
  EXPECT_EQ(s->LogicalPartitionType()->ToString(), "ROW<`f1` INT NOT NULL>");
  EXPECT_EQ(s->LogicalBucketKeyType()->num_fields(), 2);
  EXPECT_EQ(s->LogicalTrimmedPrimaryKeysType()->fields()[1].name, "f2");
  EXPECT_EQ(s->LogicalPrimaryKeysType()->num_fields(), 3);

  // Without bucket-key, the bucket keys are the trimmed primary keys; without bucket, -1.
  Result<TableSchema> t =
      TableSchema::Make(3, 1, Fields(), 3, {"f1"}, {"f0", "f1"}, {}, std::nullopt, 0);
  ASSERT_OK(t);
  EXPECT_EQ(t->bucket_keys(), (std::vector<std::string>{"f0"}));
  EXPECT_EQ(CoreOptions::FromSchema(*t)->bucket(), -1);
  // Cross-partition update: a partition key outside the primary key.
  Result<TableSchema> u = TableSchema::Make(3, 1, Fields(), 3, {"f3"}, {"f0"}, {}, std::nullopt, 0);
  ASSERT_OK(u);
  EXPECT_TRUE(u->CrossPartitionUpdate());
  // Append table.
  Result<TableSchema> a = TableSchema::Make(3, 1, Fields(), 3, {}, {}, {}, std::nullopt, 0);
  ASSERT_OK(a);
  EXPECT_TRUE(a->bucket_keys().empty());
  EXPECT_FALSE(a->is_primary_key_table());
}

TEST(TableSchemaTest, ValidationErrors) {
  auto make = [](std::vector<std::string> partition, std::vector<std::string> pk,
                 TableOptions options) {
    return TableSchema::Make(3, 0, Fields(), 3, std::move(partition), std::move(pk),
                             std::move(options), std::nullopt, 0)
        .status();
  };
  EXPECT_NE(make({"f1"}, {"f1"}, {}).message().find("should not be same with partition"),
            std::string::npos);
  EXPECT_EQ(make({}, {"f0"}, {{"bucket-key", "f3"}}).message(),
            "bucket key 'f3' is not a primary key");
  EXPECT_EQ(make({"f1"}, {}, {{"bucket-key", "f1"}}).message(),
            "bucket key 'f1' is a partition key");
  EXPECT_EQ(make({}, {}, {{"bucket-key", "x"}}).message(), "bucket key 'x' is not a field");
  EXPECT_EQ(make({}, {}, {{"bucket", "two"}}).message(),
            "option 'bucket': cannot parse 'two' as an INT");
  EXPECT_EQ(make({"zz"}, {}, {}).message(), "partition key 'zz' is not a field");
  EXPECT_EQ(make({}, {"zz"}, {}).message(), "primary key 'zz' is not a field");
  std::vector<DataField> dup = Fields();
  dup[1].name = "f0";
  EXPECT_EQ(TableSchema::Make(3, 0, dup, 3, {}, {}, {}, std::nullopt, 0).status().message(),
            "duplicate field name 'f0'");
}

TEST(TableSchemaTest, LegacyVersionDefaults) {
  // Paimon 0.7: no version key; bucket defaulted to 1 and file.format to orc.
  Result<TableSchema> v1 = TableSchema::FromJson(R"({"id": 0, "fields": [
      {"id": 0, "name": "a", "type": "INT"}], "highestFieldId": 0, "partitionKeys": [],
      "primaryKeys": [], "options": {}})");
  ASSERT_OK(v1);
  EXPECT_EQ(v1->version(), 1);
  EXPECT_EQ(CoreOptions::FromSchema(*v1)->bucket(), 1);
  EXPECT_EQ(v1->OptionOr("file.format", ""), "orc");
  EXPECT_EQ(v1->time_millis(), 0);
  Result<TableSchema> v2 = TableSchema::FromJson(R"({"version": 2, "id": 0, "fields": [],
      "highestFieldId": 0, "partitionKeys": [], "primaryKeys": [],
      "options": {"file.format": "parquet"}})");
  ASSERT_OK(v2);
  EXPECT_EQ(CoreOptions::FromSchema(*v2)->bucket(), -1);
  EXPECT_EQ(v2->OptionOr("file.format", ""), "parquet");
  EXPECT_EQ(v2->options().size(), 1u);
}

TEST(TableSchemaTest, BadInputNamesTheField) {
  const std::string fields = R"("fields": [{"id": 0, "name": "a", "type": "INT"}])";
  struct Case {
    std::string json;
    std::string message;
  };
  const Case cases[] = {
      {R"({"version": 3, "fields": [], "highestFieldId": 0, "partitionKeys": [],
           "primaryKeys": [], "options": {}})",
       "missing field 'id'"},
      {R"({"version": 3, "id": 0, "highestFieldId": 0, "partitionKeys": [],
           "primaryKeys": [], "options": {}})",
       "missing field 'fields'"},
      {"{\"version\": 3, \"id\": 0, " + fields +
           R"(, "partitionKeys": [], "primaryKeys": [], "options": {}})",
       "missing field 'highestFieldId'"},
      {"{\"version\": 3, \"id\": 0, " + fields +
           R"(, "highestFieldId": 0, "partitionKeys": "a", "primaryKeys": [], "options": {}})",
       "field 'partitionKeys': expected array, got string"},
      {"{\"version\": 3, \"id\": 0, " + fields +
           R"(, "highestFieldId": 0, "partitionKeys": [], "primaryKeys": [1], "options": {}})",
       "field 'primaryKeys[0]': expected string, got number"},
      {"{\"version\": 3, \"id\": 0, " + fields +
           R"(, "highestFieldId": 0, "partitionKeys": [], "primaryKeys": [],
              "options": {"bucket": 2}})",
       "field 'options.bucket': expected string, got number"},
      {"{\"version\": 3, \"id\": 0, " + fields +
           R"(, "highestFieldId": 0, "partitionKeys": [], "primaryKeys": []})",
       "missing field 'options'"},
      {"{\"version\": \"3\", \"id\": 0, " + fields + "}",
       "field 'version': expected an integer, got string"},
      {R"({"version": 3, "id": 0, "fields": [{"id": 0, "name": "a", "type": "INTEGR"}],
           "highestFieldId": 0, "partitionKeys": [], "primaryKeys": [], "options": {}})",
       "field 'fields[0].type': could not parse type 'INTEGR' at position 0: a keyword "
       "expected but was 'INTEGR'"},
      {R"({"version": 3, "id": 0, "fields": [{"id": 0, "name": "a", "type": "INT"},
           {"id": 1, "name": "a", "type": "INT"}], "highestFieldId": 1, "partitionKeys": [],
           "primaryKeys": [], "options": {}})",
       "duplicate field name 'a'"},
      {R"({"version": 3, "id": 0, "fields": [{"id": 0, "name": "a", "type": "INT"}],
           "highestFieldId": 99999999999, "partitionKeys": [], "primaryKeys": [],
           "options": {}})",
       "field 'highestFieldId': value 99999999999 is out of the 32-bit range"},
      {"\"schema\"", "field '(root)': expected object, got string"},
  };
  for (const Case& c : cases) {
    Result<TableSchema> s = TableSchema::FromJson(c.json);
    ASSERT_TRUE(test::HasError(s, StatusCode::kCorruption, {c.message})) << c.json;
    EXPECT_EQ(s.status().message(), c.message) << c.json;
  }
}

}  // namespace
}  // namespace sluice
