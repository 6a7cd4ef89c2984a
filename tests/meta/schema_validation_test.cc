// ValidateTableSchema (Java SchemaValidation.validateTableSchema) on schemas as they would be
// written, and on both paths that write them: CREATE TABLE and ALTER TABLE.
#include "sluice/meta/schema_validation.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "sluice/meta/schema_change.h"
#include "test_util.h"

namespace sluice::test {
namespace {

// A schema with columns k INT NOT NULL, p STRING, v BIGINT, r ROW<x INT>, the given keys and
// options.
Result<TableSchema> Schema(std::vector<std::string> primary_keys,
                           std::vector<std::string> partition_keys, TableOptions options) {
  std::vector<DataField> fields = {
      DataField{0, "k", DataType::Int()->WithNullable(false), std::nullopt, std::nullopt},
      DataField{1, "p", DataType::String(), std::nullopt, std::nullopt},
      DataField{2, "v", DataType::BigInt(), std::nullopt, std::nullopt},
      DataField{3, "r",
                DataType::Row({DataField{4, "x", DataType::Int(), std::nullopt, std::nullopt}}),
                std::nullopt, std::nullopt}};
  return TableSchema::Make(TableSchema::kCurrentVersion, 0, std::move(fields), 4,
                           std::move(partition_keys), std::move(primary_keys), std::move(options),
                           std::nullopt, 0);
}

Status Validate(std::vector<std::string> primary_keys, std::vector<std::string> partition_keys,
                TableOptions options) {
  Result<TableSchema> schema =
      Schema(std::move(primary_keys), std::move(partition_keys), std::move(options));
  if (!schema.ok()) return schema.status();
  return ValidateTableSchema(*schema);
}

TEST(SchemaValidationTest, AcceptsTablesJavaAccepts) {
  EXPECT_OK(Validate({}, {}, {}));
  EXPECT_OK(Validate({"k"}, {}, {{"bucket", "2"}}));
  EXPECT_OK(Validate({"k"}, {}, {{"bucket", "-2"}}));
  EXPECT_OK(Validate({}, {}, {{"bucket", "3"}, {"bucket-key", "k"}}));
  EXPECT_OK(Validate({"k", "p"}, {"p"},
                     {{"sequence.field", "v"},
                      {"merge-engine", "partial-update"},
                      {"changelog-producer", "lookup"}}));
  EXPECT_OK(Validate({"k"}, {}, {{"merge-engine", "first-row"}, {"changelog-producer", "lookup"}}));
  EXPECT_OK(Validate({"k"}, {}, {{"rowkind.field", "p"}}));
}

TEST(SchemaValidationTest, KeysAndBucket) {
  EXPECT_TRUE(HasError(Validate({"k", "r"}, {}, {}), StatusCode::kInvalidArgument,
                       {"primary key field r is unsupported"}));
  EXPECT_TRUE(HasError(Validate({}, {"r"}, {}), StatusCode::kInvalidArgument,
                       {"partition field r is unsupported"}));
  EXPECT_TRUE(HasError(Validate({}, {}, {{"primary-key.nullable", "true"}}),
                       StatusCode::kInvalidArgument,
                       {"'primary-key.nullable' can only be enabled"}));
  EXPECT_TRUE(HasError(Validate({}, {}, {{"full-compaction.delta-commits", "2"}}),
                       StatusCode::kInvalidArgument, {"'full-compaction.delta-commits'"}));
  EXPECT_TRUE(HasError(Validate({}, {}, {{"bucket", "-2"}}), StatusCode::kInvalidArgument,
                       {"greater than 0"}));
  EXPECT_TRUE(HasError(Validate({}, {}, {{"bucket", "2"}, {"bucket-key", "r"}}),
                       StatusCode::kInvalidArgument, {"nested type can not in bucket-key", "[r]"}));
}

TEST(SchemaValidationTest, SequenceFields) {
  EXPECT_TRUE(HasError(
      Validate({"k"}, {}, {{"sequence.field", "v"}, {"fields.v.aggregate-function", "sum"}}),
      StatusCode::kInvalidArgument, {"Should not define aggregation on sequence field: 'v'"}));
  EXPECT_TRUE(HasError(Validate({"k"}, {}, {{"sequence.field", "v, v"}}),
                       StatusCode::kInvalidArgument, {"Sequence field 'v' is defined repeatedly"}));
  EXPECT_TRUE(
      HasError(Validate({"k"}, {}, {{"sequence.field", "v"}, {"merge-engine", "first-row"}}),
               StatusCode::kInvalidArgument, {"FIRST_ROW"}));
  // A primary key without the partition column: updates cross partitions.
  EXPECT_TRUE(HasError(Validate({"k"}, {"p"}, {{"sequence.field", "v"}}),
                       StatusCode::kInvalidArgument, {"cross partition update", "[k]", "[p]"}));
}

TEST(SchemaValidationTest, ChangelogProducerAndColumns) {
  EXPECT_TRUE(HasError(
      Validate({"k"}, {}, {{"merge-engine", "first-row"}, {"changelog-producer", "input"}}),
      StatusCode::kInvalidArgument, {"Only support 'none' and 'lookup' changelog-producer"}));
  EXPECT_TRUE(HasError(Validate({"k"}, {}, {{"rowkind.field", "zz"}}), StatusCode::kInvalidArgument,
                       {"Rowkind field: 'zz'"}));
}

// validateForDeletionVectors: the changelog producers that work with deletion vectors, and
// not first-row (it deletes no old data).
TEST(SchemaValidationTest, DeletionVectors) {
  const std::pair<std::string, std::string> dv{"deletion-vectors.enabled", "true"};
  for (const char* producer : {"none", "input", "lookup"}) {
    EXPECT_OK(Validate({"k"}, {}, {dv, {"changelog-producer", producer}})) << producer;
  }
  EXPECT_OK(Validate({"k"}, {}, {dv, {"merge-engine", "aggregation"}}));
  EXPECT_TRUE(HasError(Validate({"k"}, {}, {dv, {"changelog-producer", "full-compaction"}}),
                       StatusCode::kInvalidArgument,
                       {"only supported for NONE/INPUT/LOOKUP changelog producer"}));
  EXPECT_TRUE(HasError(Validate({"k"}, {}, {dv, {"merge-engine", "first-row"}}),
                       StatusCode::kInvalidArgument, {"First row merge engine does not need"}));
  EXPECT_OK(
      Validate({"k"}, {}, {dv, {"merge-engine", "first-row"}, {"pk-clustering-override", "true"}}));
  EXPECT_OK(Validate({"k"}, {}, {{"merge-engine", "first-row"}}));
}

// The ALTER path validates its result too: a change that makes the schema invalid is refused.
TEST(SchemaValidationTest, AlterIsValidated) {
  NewTableSpec spec;
  spec.columns = {DataField{0, "k", DataType::Int(), std::nullopt, std::nullopt},
                  DataField{0, "v", DataType::BigInt(), std::nullopt, std::nullopt}};
  spec.primary_keys = {"k"};
  ASSERT_OK_AND_ASSIGN(TableSchema schema, MakeInitialSchema(spec, 0));
  EXPECT_TRUE(HasError(
      ApplySchemaChanges(schema, {SchemaChange::SetOption("rowkind.field", "zz")}, false, 0),
      StatusCode::kInvalidArgument, {"Rowkind field: 'zz'"}));
  EXPECT_TRUE(HasError(
      ApplySchemaChanges(schema, {SchemaChange::AddColumn({"_KEY_x"}, DataType::Int())}, false, 0),
      StatusCode::kInvalidArgument, {"cannot start with [_KEY_]"}));
  EXPECT_OK(ApplySchemaChanges(schema, {SchemaChange::SetOption("rowkind.field", "v")}, false, 0));
}

}  // namespace
}  // namespace sluice::test
