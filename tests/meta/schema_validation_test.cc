// ValidateTableSchema (Java SchemaValidation.validateTableSchema) on schemas as they would be
// written, and on both paths that write them: CREATE TABLE and ALTER TABLE.
#include "sluice/meta/schema_validation.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "sluice/meta/schema_generation.h"
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
  EXPECT_OK(Validate({"k"}, {},
                     {dv,
                      {"merge-engine", "first-row"},
                      {"pk-clustering-override", "true"},
                      {"clustering.columns", "v"}}));
  EXPECT_OK(Validate({"k"}, {}, {{"merge-engine", "first-row"}}));
}

// validateStartupMode: each scan mode with exactly its own start options.
TEST(SchemaValidationTest, StartupModeOptions) {
  EXPECT_OK(Validate({}, {}, {{"scan.snapshot-id", "3"}}));
  EXPECT_OK(Validate({}, {}, {{"scan.mode", "from-snapshot-full"}, {"scan.snapshot-id", "3"}}));
  EXPECT_OK(Validate({}, {}, {{"scan.timestamp-millis", "1000"}}));
  EXPECT_OK(Validate({}, {}, {{"incremental-between", "1,3"}}));
  EXPECT_TRUE(HasError(Validate({}, {}, {{"scan.timestamp-millis", "1"}, {"scan.timestamp", "x"}}),
                       StatusCode::kInvalidArgument,
                       {"must set only one key in [scan.timestamp-millis,scan.timestamp] when "
                        "you use from-timestamp for scan.mode"}));
  EXPECT_TRUE(HasError(Validate({}, {}, {{"scan.snapshot-id", "1"}, {"scan.tag-name", "t"}}),
                       StatusCode::kInvalidArgument,
                       {"must set only one key in [scan.snapshot-id,scan.tag-name,scan.watermark] "
                        "when you use from-snapshot for scan.mode"}));
  EXPECT_TRUE(
      HasError(Validate({}, {}, {{"scan.timestamp-millis", "1"}, {"scan.snapshot-id", "1"}}),
               StatusCode::kInvalidArgument,
               {"[scan.snapshot-id] must be null when you set "
                "[scan.timestamp-millis,scan.timestamp]"}));
  EXPECT_TRUE(HasError(Validate({}, {}, {{"scan.mode", "from-snapshot"}}),
                       StatusCode::kInvalidArgument,
                       {"must set only one key in", "from-snapshot"}));
  EXPECT_TRUE(HasError(Validate({}, {}, {{"scan.mode", "from-snapshot-full"}}),
                       StatusCode::kInvalidArgument,
                       {"scan.snapshot-id can not be null when you use from-snapshot-full for "
                        "scan.mode"}));
  EXPECT_TRUE(HasError(Validate({}, {}, {{"scan.mode", "latest"}, {"scan.snapshot-id", "2"}}),
                       StatusCode::kInvalidArgument,
                       {"scan.snapshot-id must be null when you use latest for scan.mode"}));
  EXPECT_TRUE(HasError(
      Validate({}, {}, {{"scan.mode", "from-file-creation-time"}}), StatusCode::kInvalidArgument,
      {"scan.file-creation-time-millis can not be null when you use from-file-creation-time"}));
  // A tag name makes the mode from-snapshot, where incremental options conflict.
  EXPECT_TRUE(HasError(
      Validate({}, {}, {{"incremental-between", "1,2"}, {"scan.tag-name", "t"}}),
      StatusCode::kInvalidArgument,
      {"[incremental-between] must be null when you set [scan.snapshot-id,scan.tag-name]"}));
  EXPECT_TRUE(HasError(
      Validate(
          {}, {},
          {{"scan.mode", "incremental"}, {"scan.tag-name", "t"}, {"incremental-between", "1,2"}}),
      StatusCode::kInvalidArgument,
      {"[scan.tag-name] must be null when you set "
       "[incremental-between,incremental-between-timestamp,"
       "incremental-to-auto-tag]"}));
}

// validateFieldsPrefix: any `fields.<names>.*` option names existing columns.
TEST(SchemaValidationTest, FieldsOptionsNameExistingColumns) {
  EXPECT_OK(Validate({"k"}, {}, {{"fields.v.ignore-retract", "true"}}));
  EXPECT_OK(Validate({"k"}, {}, {{"fields.default-aggregate-function", "sum"}}));
  EXPECT_OK(Validate({"k"}, {},
                     {{"merge-engine", "partial-update"}, {"fields.v,p.sequence-group", "r"}}));
  for (const char* key : {"fields.zz.aggregate-function", "fields.zz.ignore-retract",
                          "fields.zz.list-agg-delimiter", "fields.zz.nested-key"}) {
    EXPECT_TRUE(HasError(Validate({"k"}, {}, {{key, "true"}}), StatusCode::kInvalidArgument,
                         {"Field zz can not be found in table schema", key}))
        << key;
  }
  EXPECT_TRUE(HasError(Validate({"k"}, {}, {{"fields.v,zz.sequence-group", "p"}}),
                       StatusCode::kInvalidArgument,
                       {"Field zz can not be found", "'fields.v,zz.sequence-group'"}));
  // Only the names in the key are checked here; a sequence group's value is the merge
  // function's (lsm/merge_function_factory.h).
  EXPECT_OK(Validate({"k"}, {}, {{"fields.v.sequence-group", "zz"}}));
}

// validateTableSchema: streaming-read-overwrite, the retained numbers, partition expiration,
// the record-level time field.
TEST(SchemaValidationTest, OptionBoundsAndCombinations) {
  EXPECT_TRUE(HasError(
      Validate({"k"}, {}, {{"streaming-read-overwrite", "true"}, {"changelog-producer", "lookup"}}),
      StatusCode::kInvalidArgument,
      {"Cannot set streaming-read-overwrite to true when changelog producer is full-compaction "
       "or lookup"}));
  EXPECT_OK(
      Validate({"k"}, {}, {{"streaming-read-overwrite", "true"}, {"changelog-producer", "input"}}));
  EXPECT_TRUE(HasError(Validate({}, {}, {{"streaming-read-overwrite", "true"}}),
                       StatusCode::kInvalidArgument,
                       {"primary keys are not defined", "streaming-read-append-overwrite"}));

  EXPECT_TRUE(HasError(Validate({}, {}, {{"snapshot.num-retained.min", "0"}}),
                       StatusCode::kInvalidArgument,
                       {"snapshot.num-retained.min should be at least 1, got 0"}));
  EXPECT_TRUE(HasError(Validate({}, {}, {{"snapshot.num-retained.max", "5"}}),
                       StatusCode::kInvalidArgument,
                       {"snapshot.num-retained.min should not be larger than "
                        "snapshot.num-retained.max (10 > 5)"}));
  EXPECT_OK(
      Validate({}, {}, {{"snapshot.num-retained.min", "1"}, {"snapshot.num-retained.max", "5"}}));
  EXPECT_TRUE(HasError(Validate({}, {}, {{"changelog.num-retained.min", "-1"}}),
                       StatusCode::kInvalidArgument,
                       {"changelog.num-retained.min should be at least 1, got -1"}));
  EXPECT_TRUE(HasError(Validate({}, {}, {{"changelog.num-retained.max", "3"}}),
                       StatusCode::kInvalidArgument,
                       {"changelog.num-retained.min should not be larger than "
                        "changelog.num-retained.max (10 > 3)"}));
  EXPECT_OK(Validate({}, {}, {{"changelog.num-retained.max", "30"}}));
  EXPECT_TRUE(HasError(Validate({}, {}, {{"snapshot.num-retained.min", "x"}}),
                       StatusCode::kInvalidArgument, {"snapshot.num-retained.min"}));

  EXPECT_TRUE(HasError(Validate({}, {}, {{"partition.expiration-time", "1 d"}}),
                       StatusCode::kInvalidArgument,
                       {"Can not set 'partition.expiration-time' for non-partitioned table."}));
  EXPECT_OK(Validate({}, {"p"}, {{"partition.expiration-time", "1 d"}}));

  EXPECT_OK(Validate({}, {}, {{"record-level.time-field", "v"}}));
  EXPECT_TRUE(HasError(Validate({}, {}, {{"record-level.time-field", "zz"}}),
                       StatusCode::kInvalidArgument,
                       {"Can not find time field zz for record level expire."}));
  EXPECT_TRUE(HasError(Validate({}, {}, {{"record-level.time-field", "p"}}),
                       StatusCode::kInvalidArgument,
                       {"should be one of INT, BIGINT, or TIMESTAMP, but field type is STRING",
                        "record-level.time-field = p"}));
}

// upsert-key, vector-field, blob fields, table-read.sequence-number.enabled.
TEST(SchemaValidationTest, KeyAndColumnListOptions) {
  EXPECT_OK(Validate({}, {}, {{"upsert-key", "k"}}));
  EXPECT_TRUE(HasError(Validate({}, {}, {{"upsert-key", "zz"}}), StatusCode::kInvalidArgument,
                       {"Cannot find field: zz"}));
  EXPECT_TRUE(HasError(Validate({}, {}, {{"upsert-key", "r"}}), StatusCode::kInvalidArgument,
                       {"upsert key field r is unsupported"}));
  EXPECT_TRUE(HasError(Validate({"k"}, {}, {{"upsert-key", "v"}}), StatusCode::kInvalidArgument,
                       {"Cannot define 'upsert-key' [v] with 'primary-key' [k]."}));
  EXPECT_TRUE(HasError(Validate({}, {}, {{"vector-field", "v"}}), StatusCode::kInvalidArgument,
                       {"Field name[v] is configured as vector-field so the type must be vector, "
                        "but it is BIGINT"}));
  EXPECT_TRUE(HasError(Validate({}, {}, {{"vector-field", "zz"}}), StatusCode::kInvalidArgument,
                       {"Some of the columns specified as vector-field are unknown", "zz"}));
  EXPECT_TRUE(HasError(Validate({}, {}, {{"blob-descriptor-field", "v"}}),
                       StatusCode::kInvalidArgument,
                       {"Field 'v' in 'blob-descriptor-field' must be a BLOB field"}));
  EXPECT_TRUE(HasError(Validate({}, {}, {{"table-read.sequence-number.enabled", "true"}}),
                       StatusCode::kInvalidArgument,
                       {"Cannot enable 'table-read.sequence-number.enabled' for "
                        "non-primary-key table"}));
  EXPECT_OK(Validate({"k"}, {}, {{"table-read.sequence-number.enabled", "true"}}));
}

// validateRowTracking, validateIncrementalClustering, validatePkClusteringOverride,
// validateChainTable.
TEST(SchemaValidationTest, RowTrackingClusteringAndChainTables) {
  const std::pair<std::string, std::string> rt{"row-tracking.enabled", "true"};
  EXPECT_OK(Validate({}, {}, {rt}));
  EXPECT_OK(Validate({}, {}, {rt, {"data-evolution.enabled", "true"}}));
  EXPECT_TRUE(HasError(
      Validate({}, {}, {rt, {"bucket", "2"}, {"bucket-key", "k"}}), StatusCode::kInvalidArgument,
      {"Cannot define bucket for row tracking table, it only support bucket = -1"}));
  EXPECT_TRUE(HasError(Validate({"k"}, {}, {rt, {"bucket", "-1"}}), StatusCode::kInvalidArgument,
                       {"Cannot define primary-key for row tracking table."}));
  EXPECT_TRUE(HasError(Validate({}, {}, {{"data-evolution.enabled", "true"}}),
                       StatusCode::kInvalidArgument,
                       {"Data evolution config must enabled with row-tracking.enabled"}));
  EXPECT_TRUE(HasError(
      Validate({}, {},
               {rt, {"data-evolution.enabled", "true"}, {"deletion-vectors.enabled", "true"}}),
      StatusCode::kInvalidArgument,
      {"Data evolution config must disabled with deletion-vectors.enabled"}));

  EXPECT_TRUE(HasError(Validate({"k"}, {}, {{"clustering.incremental", "true"}}),
                       StatusCode::kInvalidArgument,
                       {"Cannot define primary-key for incremental clustering table."}));
  EXPECT_TRUE(HasError(
      Validate({}, {}, {{"clustering.incremental", "true"}, {"bucket", "2"}, {"bucket-key", "k"}}),
      StatusCode::kInvalidArgument,
      {"bucket-append-ordered must be false for incremental clustering table."}));
  EXPECT_OK(Validate({}, {}, {{"clustering.incremental", "true"}}));

  const std::pair<std::string, std::string> pko{"pk-clustering-override", "true"};
  const std::pair<std::string, std::string> dv{"deletion-vectors.enabled", "true"};
  const std::pair<std::string, std::string> cols{"clustering.columns", "v"};
  EXPECT_OK(Validate({"k"}, {}, {pko, dv, cols}));
  EXPECT_TRUE(HasError(Validate({"k"}, {}, {pko, dv}), StatusCode::kInvalidArgument,
                       {"Cannot support 'pk-clustering-override' mode without "
                        "'clustering.columns'."}));
  EXPECT_TRUE(HasError(Validate({"k"}, {}, {pko, cols}), StatusCode::kInvalidArgument,
                       {"Cannot support deletion-vectors disabled in 'pk-clustering-override'"}));
  EXPECT_TRUE(HasError(Validate({"k"}, {}, {pko, dv, cols, {"merge-engine", "aggregation"}}),
                       StatusCode::kInvalidArgument,
                       {"Cannot support merge engine: aggregation in 'pk-clustering-override'"}));
  EXPECT_TRUE(HasError(Validate({"k"}, {}, {pko, dv, cols, {"changelog-producer", "lookup"}}),
                       StatusCode::kInvalidArgument,
                       {"Cannot support changelog producer: lookup in 'pk-clustering-override'"}));

  const std::pair<std::string, std::string> chain{"chain-table.enabled", "true"};
  const TableOptions chain_ok = {chain,
                                 {"bucket", "2"},
                                 {"partition.timestamp-pattern", "$p"},
                                 {"partition.timestamp-formatter", "yyyyMMdd"}};
  EXPECT_OK(Validate({"k", "p"}, {"p"}, chain_ok));
  EXPECT_TRUE(HasError(Validate({"k"}, {}, {chain, {"bucket", "2"}}), StatusCode::kInvalidArgument,
                       {"Chain table must be partition table."}));
  EXPECT_TRUE(HasError(Validate({"k", "p"}, {"p"}, {chain, {"bucket", "2"}}),
                       StatusCode::kInvalidArgument,
                       {"Partition timestamp pattern is required for chain table."}));
  TableOptions bad_keys = chain_ok;
  bad_keys.emplace_back("chain-table.chain-partition-keys", "k");
  EXPECT_TRUE(HasError(Validate({"k", "p"}, {"p"}, bad_keys), StatusCode::kInvalidArgument,
                       {"chain-table.chain-partition-keys must be a contiguous suffix",
                        "Partition keys: [p], chain partition keys: [k]."}));
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
  EXPECT_TRUE(HasError(
      ApplySchemaChanges(schema, {SchemaChange::SetOption("fields.zz.aggregate-function", "sum")},
                         false, 0),
      StatusCode::kInvalidArgument, {"Field zz can not be found in table schema"}));
  EXPECT_TRUE(
      HasError(ApplySchemaChanges(
                   schema, {SchemaChange::SetOption("snapshot.num-retained.min", "0")}, false, 0),
               StatusCode::kInvalidArgument, {"snapshot.num-retained.min should be at least 1"}));
  // A column named by a `fields.` option cannot be dropped while the option stays (as Java).
  ASSERT_OK_AND_ASSIGN(
      TableSchema with_option,
      ApplySchemaChanges(schema, {SchemaChange::SetOption("fields.v.ignore-retract", "true")},
                         false, 0));
  EXPECT_TRUE(HasError(ApplySchemaChanges(with_option, {SchemaChange::DropColumn({"v"})}, false, 0),
                       StatusCode::kInvalidArgument, {"Field v can not be found in table schema"}));
}

}  // namespace
}  // namespace sluice::test
