#include "sluice/cdc/schema_evolution.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sluice/cdc/computed_column.h"
#include "sluice/meta/schema_generation.h"
#include "test_util.h"

namespace sluice {
namespace {

using test::HasError;

DataField Field(int32_t id, std::string name, DataTypePtr type,
                std::optional<std::string> description = std::nullopt) {
  return DataField{id, std::move(name), std::move(type), std::move(description), std::nullopt};
}

TableSchema Table(std::vector<DataField> fields, std::vector<std::string> primary_keys = {},
                  std::vector<std::string> partition_keys = {}) {
  const int32_t highest = static_cast<int32_t>(fields.size()) - 1;
  Result<TableSchema> schema =
      TableSchema::Make(TableSchema::kCurrentVersion, 0, std::move(fields), highest,
                        std::move(partition_keys), std::move(primary_keys), {}, std::nullopt, 0);
  EXPECT_TRUE(test::IsOk(schema));
  return std::move(schema).value();
}

CdcSchema Source(std::vector<DataField> fields, std::vector<std::string> primary_keys = {}) {
  CdcSchema schema;
  schema.fields = std::move(fields);
  schema.primary_keys = std::move(primary_keys);
  return schema;
}

TEST(CanConvertTest, JavaRules) {
  const TypeMapping none;
  auto can = [&](const DataTypePtr& a, const DataTypePtr& b, const TypeMapping& m = {}) {
    return CanConvert(*a, *b, m);
  };
  // UpdatedDataFieldsProcessFunctionBaseTest.testCanConvert* cases.
  EXPECT_EQ(can(DataType::Int(), DataType::BigInt()), ConvertAction::kConvert);
  EXPECT_EQ(can(DataType::BigInt(), DataType::Int()), ConvertAction::kIgnore);
  EXPECT_EQ(can(DataType::TinyInt(), DataType::SmallInt()), ConvertAction::kConvert);
  EXPECT_EQ(can(DataType::Float(), DataType::Double()), ConvertAction::kConvert);
  EXPECT_EQ(can(DataType::Double(), DataType::Float()), ConvertAction::kIgnore);
  EXPECT_EQ(can(DataType::VarChar(10), DataType::VarChar(20)), ConvertAction::kConvert);
  EXPECT_EQ(can(DataType::VarChar(20), DataType::Char(10)), ConvertAction::kIgnore);
  EXPECT_EQ(can(DataType::Binary(4), DataType::Bytes()), ConvertAction::kConvert);
  EXPECT_EQ(can(DataType::Decimal(10, 2), DataType::Decimal(12, 2)), ConvertAction::kConvert);
  EXPECT_EQ(can(DataType::Decimal(10, 2), DataType::Decimal(10, 3)), ConvertAction::kConvert);
  EXPECT_EQ(can(DataType::Decimal(12, 2), DataType::Decimal(10, 2)), ConvertAction::kIgnore);
  EXPECT_EQ(can(DataType::Timestamp(3), DataType::Timestamp(6)), ConvertAction::kConvert);
  EXPECT_EQ(can(DataType::Timestamp(6), DataType::Timestamp(3)), ConvertAction::kIgnore);
  EXPECT_EQ(can(DataType::Int(), DataType::String()), ConvertAction::kException);
  EXPECT_EQ(can(DataType::String(), DataType::Int()), ConvertAction::kException);
  EXPECT_EQ(can(DataType::Int(), DataType::Double()), ConvertAction::kException);
  EXPECT_EQ(can(DataType::Time(0), DataType::Time(3)), ConvertAction::kException);
  EXPECT_EQ(can(DataType::Int(), DataType::String(),
                TypeMapping().Add(TypeMappingMode::kAllowNonStringToString)),
            ConvertAction::kConvert);
  // Equal types: a nullable column cannot become NOT NULL.
  EXPECT_EQ(can(DataType::Int(false), DataType::Int()), ConvertAction::kConvert);
  EXPECT_EQ(can(DataType::Int(), DataType::Int(false)), ConvertAction::kException);
  // Nested.
  EXPECT_EQ(can(DataType::Array(DataType::Int()), DataType::Array(DataType::BigInt())),
            ConvertAction::kConvert);
  EXPECT_EQ(can(DataType::Array(DataType::Int()), DataType::Array(DataType::BigInt(), false)),
            ConvertAction::kException);
  EXPECT_EQ(can(DataType::Map(DataType::Int(), DataType::Int()),
                DataType::Map(DataType::BigInt(), DataType::Int())),
            ConvertAction::kException);
  EXPECT_EQ(can(DataType::Map(DataType::Int(), DataType::Int()),
                DataType::Map(DataType::Int(), DataType::BigInt())),
            ConvertAction::kConvert);
  const DataTypePtr row_ab =
      DataType::Row({Field(0, "a", DataType::Int()), Field(1, "b", DataType::String())});
  EXPECT_EQ(can(row_ab, DataType::Row({Field(0, "a", DataType::BigInt())})),
            ConvertAction::kConvert);
  EXPECT_EQ(can(row_ab, DataType::Row(
                            {Field(0, "a", DataType::Int()), Field(1, "c", DataType::Int(false))})),
            ConvertAction::kException);
  EXPECT_EQ(can(DataType::Row({Field(0, "a", DataType::Int(false))}),
                DataType::Row({Field(0, "b", DataType::Int())})),
            ConvertAction::kException);
  EXPECT_EQ(can(row_ab, DataType::Row({Field(0, "a", DataType::SmallInt())})),
            ConvertAction::kIgnore);
  (void)none;
}

TEST(SchemaChangesForTest, AddsNewColumnsAtTheEndNullable) {
  const TableSchema table =
      Table({Field(0, "id", DataType::Int(false)), Field(1, "name", DataType::String())}, {"id"});
  Result<std::vector<SchemaChange>> changes = SchemaChangesFor(
      "db.t", table,
      Source({Field(0, "id", DataType::Int()), Field(0, "age", DataType::Int(false), "years"),
              Field(0, "name", DataType::String())}),
      TypeMapping());
  ASSERT_TRUE(test::IsOk(changes));
  ASSERT_EQ(changes->size(), 1u);
  const SchemaChange& add = (*changes)[0];
  EXPECT_EQ(add.kind, SchemaChange::Kind::kAddColumn);
  EXPECT_EQ(add.field_names, std::vector<std::string>{"age"});
  EXPECT_TRUE(add.type->Equals(*DataType::Int()));
  EXPECT_EQ(add.comment, std::optional<std::string>("years"));
  EXPECT_FALSE(add.move.has_value());
  EXPECT_EQ(DescribeSchemaChanges(*changes), "add column age INT");
}

TEST(SchemaChangesForTest, MissingColumnsAndNullabilityDifferencesChangeNothing) {
  const TableSchema table =
      Table({Field(0, "id", DataType::Int(false)), Field(1, "v", DataType::String()),
             Field(2, "w", DataType::Double())},
            {"id"});
  Result<std::vector<SchemaChange>> changes = SchemaChangesFor(
      "db.t", table,
      Source({Field(0, "id", DataType::Int()), Field(0, "v", DataType::String(false))}),
      TypeMapping());
  ASSERT_TRUE(test::IsOk(changes));
  EXPECT_TRUE(changes->empty());
}

TEST(SchemaChangesForTest, WidensKeepingNullabilityAndIgnoresNarrowing) {
  const TableSchema table =
      Table({Field(0, "id", DataType::Int(false)), Field(1, "n", DataType::Int(false)),
             Field(2, "s", DataType::VarChar(10)), Field(3, "big", DataType::BigInt())},
            {"id"});
  Result<std::vector<SchemaChange>> changes = SchemaChangesFor(
      "db.t", table,
      Source({Field(0, "n", DataType::BigInt()), Field(0, "s", DataType::VarChar(20)),
              Field(0, "big", DataType::Int())}),
      TypeMapping());
  ASSERT_TRUE(test::IsOk(changes));
  ASSERT_EQ(changes->size(), 2u);
  EXPECT_EQ((*changes)[0].kind, SchemaChange::Kind::kUpdateColumnType);
  EXPECT_EQ((*changes)[0].field_names, std::vector<std::string>{"n"});
  EXPECT_TRUE((*changes)[0].type->Equals(*DataType::BigInt()));
  EXPECT_TRUE((*changes)[0].keep_nullability);
  EXPECT_TRUE((*changes)[1].type->Equals(*DataType::VarChar(20)));
  EXPECT_EQ(DescribeSchemaChanges(*changes),
            "update column n type BIGINT, update column s type VARCHAR(20)");
}

TEST(SchemaChangesForTest, IncompatibleTypeIsAnError) {
  const TableSchema table =
      Table({Field(0, "id", DataType::Int(false)), Field(1, "price", DataType::Double())}, {"id"});
  EXPECT_TRUE(
      HasError(SchemaChangesFor("db.t", table, Source({Field(0, "price", DataType::String())}),
                                TypeMapping()),
               StatusCode::kInvalidArgument, {"db.t", "price", "DOUBLE", "STRING"}));
  // allow-non-string-to-string lets it become STRING.
  Result<std::vector<SchemaChange>> changes =
      SchemaChangesFor("db.t", table, Source({Field(0, "price", DataType::String())}),
                       TypeMapping().Add(TypeMappingMode::kAllowNonStringToString));
  ASSERT_TRUE(test::IsOk(changes));
  ASSERT_EQ(changes->size(), 1u);
  EXPECT_TRUE((*changes)[0].type->Equals(*DataType::String()));
}

// Java NestedSchemaUtils: nested columns change through paths to their parts ("element" /
// "value" markers into ARRAY / MAP), new ROW fields are added where the record has them, a
// narrower part keeps the table's type; the table then reads as the changes say.
TEST(SchemaChangesForTest, NestedColumnsChangeThroughTheirParts) {
  const DataTypePtr old_row =
      DataType::Row({Field(4, "x", DataType::Int()), Field(5, "y", DataType::String())});
  TableSchema table =
      Table({Field(0, "a", DataType::Array(DataType::Int())),
             Field(1, "m", DataType::Map(DataType::String(false), DataType::Int())),
             Field(2, "r", old_row),
             Field(3, "rows", DataType::Array(DataType::Row({Field(6, "x", DataType::Int())})))});
  table = *TableSchema::Make(TableSchema::kCurrentVersion, 0, table.fields(), 6, {}, {}, {},
                             std::nullopt, 0);
  const CdcSchema source = Source(
      {Field(0, "a", DataType::Array(DataType::BigInt())),
       Field(0, "m", DataType::Map(DataType::String(false), DataType::BigInt())),
       Field(0, "r",
             DataType::Row({Field(0, "x", DataType::BigInt()), Field(0, "z", DataType::String()),
                            Field(0, "y", DataType::String())})),
       Field(0, "rows",
             DataType::Array(DataType::Row(
                 {Field(0, "x", DataType::SmallInt()), Field(0, "w", DataType::Int())})))});
  ASSERT_OK_AND_ASSIGN(std::vector<SchemaChange> changes,
                       SchemaChangesFor("db.t", table, source, TypeMapping()));
  EXPECT_EQ(DescribeSchemaChanges(changes),
            "update column a.element type BIGINT, update column m.value type BIGINT, update "
            "column r.x type BIGINT, add column r.z STRING, add column rows.element.w INT");
  ASSERT_OK_AND_ASSIGN(TableSchema evolved, ApplySchemaChanges(table, changes, true, 0));
  EXPECT_EQ(evolved.FieldByName("a")->type->ToString(), "ARRAY<BIGINT>");
  EXPECT_EQ(evolved.FieldByName("m")->type->ToString(), "MAP<STRING NOT NULL, BIGINT>");
  EXPECT_EQ(evolved.FieldByName("r")->type->ToString(), "ROW<`x` BIGINT, `z` STRING, `y` STRING>");
  EXPECT_EQ(evolved.FieldByName("rows")->type->ToString(), "ARRAY<ROW<`x` INT, `w` INT>>");
  // The table now holds what the record says: nothing more to change.
  ASSERT_OK_AND_ASSIGN(changes, SchemaChangesFor("db.t", evolved, source, TypeMapping()));
  EXPECT_EQ(DescribeSchemaChanges(changes), "");

  // A ROW whose fields changed their order, and an element that cannot convert.
  EXPECT_TRUE(HasError(
      SchemaChangesFor("db.t", table,
                       Source({Field(0, "r",
                                     DataType::Row({Field(0, "y", DataType::String()),
                                                    Field(0, "x", DataType::BigInt())}))}),
                       TypeMapping()),
      StatusCode::kInvalidArgument,
      {"Order of existing fields in column r of Paimon table db.t must be kept the same"}));
  EXPECT_TRUE(HasError(
      SchemaChangesFor("db.t", table, Source({Field(0, "a", DataType::Array(DataType::String()))}),
                       TypeMapping()),
      StatusCode::kInvalidArgument,
      {"Cannot convert field a from type ARRAY<INT> to ARRAY<STRING>", "db.t"}));
}

TEST(SchemaChangesForTest, KeyColumnsCannotChangeType) {
  const TableSchema table =
      Table({Field(0, "id", DataType::Int(false)), Field(1, "dt", DataType::VarChar(8)),
             Field(2, "v", DataType::Int())},
            {"id", "dt"}, {"dt"});
  EXPECT_TRUE(HasError(
      SchemaChangesFor("db.t", table, Source({Field(0, "id", DataType::BigInt())}), TypeMapping()),
      StatusCode::kInvalidArgument, {"db.t", "id", "INT NOT NULL", "BIGINT", "primary key"}));
}

TEST(SchemaChangesForTest, DecimalNoChangeAndComments) {
  const TableSchema table =
      Table({Field(0, "id", DataType::Int(false)), Field(1, "d", DataType::Decimal(10, 2)),
             Field(2, "c", DataType::String(), "old")},
            {"id"});
  CdcSchema source =
      Source({Field(0, "d", DataType::Decimal(20, 2)), Field(0, "c", DataType::String(), "new")});
  source.comment = "table comment";
  Result<std::vector<SchemaChange>> changes =
      SchemaChangesFor("db.t", table, source, TypeMapping().Add(TypeMappingMode::kDecimalNoChange));
  ASSERT_TRUE(test::IsOk(changes));
  ASSERT_EQ(changes->size(), 2u);
  EXPECT_EQ((*changes)[0].kind, SchemaChange::Kind::kUpdateColumnComment);
  EXPECT_EQ((*changes)[0].comment, std::optional<std::string>("new"));
  EXPECT_EQ((*changes)[1].kind, SchemaChange::Kind::kUpdateComment);
  changes = SchemaChangesFor("db.t", table, source, TypeMapping());
  ASSERT_TRUE(test::IsOk(changes));
  EXPECT_EQ((*changes)[0].kind, SchemaChange::Kind::kUpdateColumnType);
}

TEST(SchemaChangesForTest, CaseInsensitiveCatalogLowerCasesNames) {
  const TableSchema table = Table({Field(0, "id", DataType::Int(false))}, {"id"});
  Result<std::vector<SchemaChange>> changes = SchemaChangesFor(
      "db.t", table,
      Source({Field(0, "ID", DataType::Int()), Field(0, "Name", DataType::String())}),
      TypeMapping(), /*case_sensitive=*/false);
  ASSERT_TRUE(test::IsOk(changes));
  ASSERT_EQ(changes->size(), 1u);
  EXPECT_EQ((*changes)[0].field_names, std::vector<std::string>{"name"});
}

TEST(BuildNewTableSpecTest, ColumnsThenComputedThenMetadata) {
  Result<ComputedColumn> year = ComputedColumn::Parse("pt=year(ts)");
  ASSERT_TRUE(test::IsOk(year));
  NewTableRequest request;
  request.partition_keys = {"pt"};
  request.table_conf = {{"bucket", "4"}};
  request.computed_columns = {&*year};
  request.metadata_columns = {"topic", "offset"};
  Result<NewTableSpec> spec = BuildNewTableSpec(
      "db.t",
      Source({Field(0, "id", DataType::BigInt()), Field(0, "ts", DataType::String())}, {"id"}),
      request);
  ASSERT_TRUE(test::IsOk(spec));
  std::vector<std::string> names;
  for (const DataField& f : spec->columns) names.push_back(f.name + " " + f.type->ToString());
  EXPECT_EQ(names, (std::vector<std::string>{"id BIGINT NOT NULL", "ts STRING", "pt INT",
                                             "topic STRING", "offset BIGINT"}));
  EXPECT_EQ(spec->primary_keys, std::vector<std::string>{"id"});
  EXPECT_EQ(spec->partition_keys, std::vector<std::string>{"pt"});
  EXPECT_EQ(spec->options, (std::vector<std::pair<std::string, std::string>>{{"bucket", "4"}}));
}

TEST(BuildNewTableSpecTest, PrimaryKeysFromArgumentsWin) {
  NewTableRequest request;
  request.primary_keys = {"name"};
  Result<NewTableSpec> spec = BuildNewTableSpec(
      "db.t",
      Source({Field(0, "id", DataType::Int()), Field(0, "name", DataType::String())}, {"id"}),
      request);
  ASSERT_TRUE(test::IsOk(spec));
  EXPECT_EQ(spec->primary_keys, std::vector<std::string>{"name"});
  EXPECT_TRUE(spec->columns[0].type->nullable());
  EXPECT_FALSE(spec->columns[1].type->nullable());
}

TEST(BuildNewTableSpecTest, KeysNamingNoColumn) {
  NewTableRequest request;
  request.primary_keys = {"nope"};
  const CdcSchema source = Source({Field(0, "id", DataType::Int())}, {"id"});
  EXPECT_TRUE(HasError(BuildNewTableSpec("db.t", source, request), StatusCode::kInvalidArgument,
                       {"For sink table db.t", "primary keys '[nope]'", "[id]"}));
  request.primary_keys = {};
  request.partition_keys = {"dt"};
  EXPECT_TRUE(HasError(BuildNewTableSpec("db.t", source, request), StatusCode::kInvalidArgument,
                       {"partition keys '[dt]'"}));
  // Database sync: not strict, the record's primary keys are used instead.
  request.strictly_check_specified = false;
  request.primary_keys = {"nope"};
  Result<NewTableSpec> spec = BuildNewTableSpec("db.t", source, request);
  ASSERT_TRUE(test::IsOk(spec));
  EXPECT_EQ(spec->primary_keys, std::vector<std::string>{"id"});
  EXPECT_TRUE(spec->partition_keys.empty());
}

TEST(BuildNewTableSpecTest, RequiredPrimaryKeysAndDuplicates) {
  NewTableRequest request;
  request.require_primary_keys = true;
  EXPECT_TRUE(
      HasError(BuildNewTableSpec("db.t", Source({Field(0, "id", DataType::Int())}), request),
               StatusCode::kInvalidArgument, {"Failed to set specified primary keys"}));
  NewTableRequest case_insensitive;
  case_insensitive.case_sensitive = false;
  EXPECT_TRUE(HasError(
      BuildNewTableSpec("db.t",
                        Source({Field(0, "ID", DataType::Int()), Field(0, "id", DataType::Int())}),
                        case_insensitive),
      StatusCode::kInvalidArgument, {"duplicate columns", "[id]"}));
  NewTableRequest metadata;
  metadata.metadata_columns = {"headers"};
  EXPECT_TRUE(
      HasError(BuildNewTableSpec("db.t", Source({Field(0, "id", DataType::Int())}), metadata),
               StatusCode::kInvalidArgument, {"metadata column 'headers'"}));
}

TEST(BuildNewTableSpecTest, ToNullableAndLowerCase) {
  NewTableRequest request;
  request.type_mapping.Add(TypeMappingMode::kToNullable);
  request.case_sensitive = false;
  Result<NewTableSpec> spec = BuildNewTableSpec(
      "db.t",
      Source({Field(0, "ID", DataType::Int(false)), Field(0, "V", DataType::Int(false))}, {"ID"}),
      request);
  ASSERT_TRUE(test::IsOk(spec));
  EXPECT_EQ(spec->primary_keys, std::vector<std::string>{"id"});
  EXPECT_EQ(spec->columns[0].name, "id");
  EXPECT_FALSE(spec->columns[0].type->nullable());
  EXPECT_TRUE(spec->columns[1].type->nullable());
}

TEST(CheckSchemaCompatibleTest, TableMustHoldTheSourceColumns) {
  const TableSchema table = Table(
      {Field(0, "id", DataType::BigInt(false)), Field(1, "name", DataType::VarChar(20))}, {"id"});
  EXPECT_TRUE(test::IsOk(CheckSchemaCompatible(
      "db.t", table, {Field(0, "id", DataType::Int()), Field(0, "name", DataType::VarChar(10))})));
  EXPECT_TRUE(HasError(CheckSchemaCompatible("db.t", table, {Field(0, "age", DataType::Int())}),
                       StatusCode::kInvalidArgument, {"not compatible", "'age'"}));
  // Paimon 1.4.2 checks source -> table only: a wider source type does not fit.
  EXPECT_TRUE(HasError(CheckSchemaCompatible("db.t", table, {Field(0, "name", DataType::String())}),
                       StatusCode::kInvalidArgument, {"'name'", "STRING", "VARCHAR(20)"}));
}

}  // namespace
}  // namespace sluice
