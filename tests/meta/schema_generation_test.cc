// Schema creation and ALTER TABLE changes: Java's rules, Java's bytes (corpus schema files
// reproduced from their shape and from the changes their README describes), HashMap option
// order, and the atomic commit of the next schema id.
#include "sluice/meta/schema_generation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "sluice/meta/java_hash_map.h"
#include "sluice/meta/schema_manager.h"
#include "test_util.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

DataField Column(std::string name, DataTypePtr type) {
  return DataField{0, std::move(name), std::move(type), std::nullopt, std::nullopt};
}

TableSchema LoadCorpusSchema(const std::string& relative) {
  const std::string text = test::ReadFileOrFail(test::CompatTablesDir() + "/" + relative);
  auto schema = TableSchema::FromJson(text);
  EXPECT_OK(schema) << relative;
  return std::move(schema).value();
}

// The spec a user would give to create `schema` (its columns, keys, options, comment).
NewTableSpec SpecOf(const TableSchema& schema, bool sorted_options) {
  NewTableSpec spec;
  spec.columns = schema.fields();
  spec.partition_keys = schema.partition_keys();
  spec.primary_keys = schema.primary_keys();
  spec.options = schema.options();
  if (sorted_options) std::sort(spec.options.begin(), spec.options.end());
  spec.comment = schema.comment();
  return spec;
}

// Every version-3 schema-0 of the corpus whose ids are the Java builder's (columns in order,
// nested fields after their column) comes out byte for byte, whatever order the options are
// given in, unless two option keys share a HashMap bucket (then the given order decides).
TEST(SchemaChangeTest, CorpusInitialSchemasAreReproducedByteForByte) {
  int compared = 0, any_order = 0;
  for (const auto& entry : fs::recursive_directory_iterator(test::CompatTablesDir())) {
    if (entry.path().filename() != "schema-0") continue;
    std::string text = test::ReadFileOrFail(entry.path().string());
    // db_with_blob was written by paimon-cpp, which ends the file with a newline.
    if (text.ends_with("\n")) text.pop_back();
    auto schema = TableSchema::FromJson(text);
    ASSERT_OK(schema) << entry.path();
    if (schema->version() != TableSchema::kCurrentVersion) continue;
    auto created = MakeInitialSchema(SpecOf(*schema, false), schema->time_millis());
    if (!created.ok()) {
      ADD_FAILURE() << entry.path() << ": " << created.status().ToString();
      continue;
    }
    if (created->highest_field_id() != schema->highest_field_id()) continue;  // not builder ids
    EXPECT_EQ(created->ToJson(), text) << entry.path();
    ++compared;
    auto sorted = MakeInitialSchema(SpecOf(*schema, true), schema->time_millis());
    ASSERT_OK(sorted);
    if (sorted->ToJson() == text) ++any_order;
  }
  EXPECT_GT(compared, 80);
  // Keys sharing a bucket keep the order given, which the corpus does not record.
  EXPECT_GT(any_order, compared / 2);
  std::cout << compared << " corpus schema-0 files reproduced, " << any_order
            << " also from alphabetically ordered options\n";
}

TEST(SchemaChangeTest, JavaHashMapOrderFollowsBucketsAndCapacity) {
  // "bucket" and "file.format" hash to buckets 2 and 4 of an 8-bucket copy (corpus order).
  JavaHashMap m = JavaHashMap::FromPuts({{"file.format", "parquet"}, {"bucket", "2"}});
  JavaHashMap copy = JavaHashMap::CopyOf(m);
  auto order = copy.IterationOrder();
  ASSERT_EQ(order.size(), 2u);
  EXPECT_EQ(order[0].first, "bucket");
  EXPECT_EQ(order[1].first, "file.format");
  // A removed key is gone; re-putting appends it to its bucket.
  copy.Remove("bucket");
  EXPECT_EQ(copy.Get("bucket"), nullptr);
  copy.Put("bucket", "3");
  EXPECT_EQ(*copy.Get("bucket"), "3");
  EXPECT_EQ(copy.size(), 2u);
  // Many keys: a resize keeps every entry.
  JavaHashMap big;
  for (int i = 0; i < 100; ++i) big.Put("k" + std::to_string(i), std::to_string(i));
  EXPECT_EQ(big.IterationOrder().size(), 100u);
  EXPECT_EQ(*big.Get("k57"), "57");
}

TEST(SchemaChangeTest, CreateAssignsIdsAndNormalizesKeys) {
  NewTableSpec spec;
  spec.columns = {
      Column("id", DataType::BigInt()),
      Column("r", DataType::Row({Column("x", DataType::Int()),
                                 Column("y", DataType::Row({Column("z", DataType::Int())}))})),
      Column("dt", DataType::String())};
  spec.options = {{"primary-key", "id, dt"}, {"partition", "dt"}, {"bucket", "4"}};
  auto schema = MakeInitialSchema(spec, 1700000000000);
  ASSERT_OK(schema);
  EXPECT_EQ(schema->primary_keys(), (std::vector<std::string>{"id", "dt"}));
  EXPECT_EQ(schema->partition_keys(), (std::vector<std::string>{"dt"}));
  EXPECT_EQ(schema->FindOption("primary-key"), nullptr);
  EXPECT_FALSE(schema->FieldByName("id")->type->nullable());
  EXPECT_FALSE(schema->FieldByName("dt")->type->nullable());
  // id 0, r 1 (x 2, z 3 before y 4: Java numbers a nested field after its children), dt 5.
  const DataField* r = schema->FieldByName("r");
  EXPECT_EQ(r->id, 1);
  EXPECT_EQ(r->type->fields()[0].id, 2);
  EXPECT_EQ(r->type->fields()[1].type->fields()[0].id, 3);
  EXPECT_EQ(r->type->fields()[1].id, 4);
  EXPECT_EQ(schema->FieldByName("dt")->id, 5);
  EXPECT_EQ(schema->highest_field_id(), 5);
  EXPECT_EQ(schema->version(), 3);
  EXPECT_EQ(schema->id(), 0);
}

TEST(SchemaChangeTest, CreateRejectsWhatJavaRejects) {
  auto create = [](std::vector<std::string> pks, std::vector<std::string> partitions,
                   TableOptions options, std::vector<DataField> columns = {}) {
    NewTableSpec spec;
    spec.columns =
        columns.empty()
            ? std::vector<DataField>{Column("a", DataType::Int()), Column("b", DataType::String()),
                                     Column("m", DataType::Map(DataType::Int(), DataType::Int()))}
            : columns;
    spec.primary_keys = std::move(pks);
    spec.partition_keys = std::move(partitions);
    spec.options = std::move(options);
    return MakeInitialSchema(spec, 0).status();
  };
  auto expect_error = [](const Status& st, std::string_view words) {
    EXPECT_TRUE(test::HasError(st, StatusCode::kInvalidArgument, {words}));
  };
  EXPECT_OK(create({"a"}, {}, {}));
  EXPECT_OK(create({}, {}, {}));
  expect_error(create({"a"}, {"a"}, {}), "should not be same with partition fields");
  expect_error(create({"zz"}, {}, {}), "'zz' is not a column");
  expect_error(create({}, {}, {{"bucket", "4"}}), "define a 'bucket-key' for bucketed append");
  EXPECT_OK(create({}, {}, {{"bucket", "4"}, {"bucket-key", "a"}}));
  expect_error(create({"a", "b"}, {}, {{"bucket", "2"}, {"bucket-key", "zz"}}), "zz");
  expect_error(create({"a"}, {}, {{"bucket-key", "a"}}),
               "Cannot define 'bucket-key' with bucket = -1");
  expect_error(create({"a"}, {}, {{"bucket", "0"}}), "greater than 0");
  expect_error(create({"a"}, {}, {{"merge-engine", "newest"}}), "merge-engine");
  expect_error(create({}, {}, {{"changelog-producer", "input"}}), "without primary keys");
  expect_error(create({"a"}, {}, {{"sequence.field", "q"}}), "Sequence field: 'q'");
  expect_error(create({"m"}, {}, {}), "primary key field m is unsupported");
  expect_error(create({}, {"b", "b"}, {}), "duplicate");
  expect_error(create({}, {}, {}, {Column("_KEY_a", DataType::Int())}),
               "cannot start with [_KEY_]");
  expect_error(create({}, {}, {}, {Column("_SEQUENCE_NUMBER", DataType::Int())}),
               "cannot be exist");
  expect_error(create({}, {}, {}, {Column("a", DataType::Int()), Column("a", DataType::Int())}),
               "duplicate field name 'a'");
}

// parquet/append_table_with_alter_table: its README's schema evolution, replayed, gives
// schema-1 byte for byte.
TEST(SchemaChangeTest, CorpusAppendTableAlterIsReproduced) {
  const std::string dir = "parquet/append_table_with_alter_table.db/append_table_with_alter_table";
  TableSchema schema0 = LoadCorpusSchema(dir + "/schema/schema-0");
  TableSchema schema1 = LoadCorpusSchema(dir + "/schema/schema-1");
  std::vector<SchemaChange> changes = {
      SchemaChange::DropColumn({"a"}),
      SchemaChange::DropColumn({"c"}),
      SchemaChange::RenameColumn({"b"}, "c"),
      SchemaChange::RenameColumn({"d"}, "a"),
      SchemaChange::UpdateColumnPosition(ColumnMove::After("k", "key1")),
      SchemaChange::AddColumn({"d"}, DataType::Int(), "", ColumnMove::After("", "c")),
      SchemaChange::AddColumn({"e"}, DataType::Int()),
  };
  auto next = ApplySchemaChanges(schema0, changes, true, schema1.time_millis());
  ASSERT_OK(next);
  EXPECT_EQ(next->ToJson(), schema1.ToJson());
  EXPECT_EQ(next->ToJson(),
            test::ReadFileOrFail(test::CompatTablesDir() + "/" + dir + "/schema/schema-1"));
}

// parquet/pk_table_with_alter_table: a primary key renamed, key columns moved.
TEST(SchemaChangeTest, CorpusPrimaryKeyTableAlterIsReproduced) {
  const std::string dir = "parquet/pk_table_with_alter_table.db/pk_table_with_alter_table";
  TableSchema schema0 = LoadCorpusSchema(dir + "/schema/schema-0");
  std::vector<SchemaChange> changes = {
      SchemaChange::DropColumn({"a"}),
      SchemaChange::DropColumn({"c"}),
      SchemaChange::RenameColumn({"b"}, "c"),
      SchemaChange::RenameColumn({"d"}, "a"),
      SchemaChange::RenameColumn({"key2"}, "key_2"),
      SchemaChange::UpdateColumnPosition(ColumnMove::After("k", "key1")),
      SchemaChange::UpdateColumnPosition(ColumnMove::Last("key0")),
      SchemaChange::AddColumn({"d"}, DataType::Int(), "", ColumnMove::After("", "c")),
      SchemaChange::AddColumn({"e"}, DataType::Int()),
  };
  const std::string expected =
      test::ReadFileOrFail(test::CompatTablesDir() + "/" + dir + "/schema/schema-1");
  TableSchema schema1 = LoadCorpusSchema(dir + "/schema/schema-1");
  auto next = ApplySchemaChanges(schema0, changes, true, schema1.time_millis());
  ASSERT_OK(next);
  EXPECT_EQ(next->ToJson(), expected);
}

TableSchema PkTable(TableOptions options = {{"bucket", "2"}}) {
  NewTableSpec spec;
  spec.columns = {Column("id", DataType::BigInt()), Column("dt", DataType::String()),
                  Column("v", DataType::Int()), Column("s", DataType::VarChar(10)),
                  Column("r", DataType::Row({Column("x", DataType::Int())}))};
  spec.primary_keys = {"id", "dt"};
  spec.partition_keys = {"dt"};
  spec.options = std::move(options);
  auto schema = MakeInitialSchema(spec, 0);
  EXPECT_OK(schema);
  return std::move(schema).value();
}

Status Apply(const TableSchema& schema, SchemaChange change, bool has_snapshots = true) {
  return ApplySchemaChanges(schema, {std::move(change)}, has_snapshots, 0).status();
}

TEST(SchemaChangeTest, ColumnChangesFollowJavaRules) {
  TableSchema t = PkTable();
  // Added columns: nullable only, next id, positions.
  EXPECT_NE(Apply(t, SchemaChange::AddColumn({"n"}, DataType::Int(false)))
                .message()
                .find("cannot specify NOT NULL"),
            std::string::npos);
  auto added = ApplySchemaChanges(
      t, {SchemaChange::AddColumn({"n"}, DataType::Int(), std::nullopt, ColumnMove::First())}, true,
      0);
  ASSERT_OK(added);
  EXPECT_EQ(added->fields()[0].name, "n");
  EXPECT_EQ(added->fields()[0].id, t.highest_field_id() + 1);
  EXPECT_EQ(added->id(), t.id() + 1);
  EXPECT_TRUE(test::HasError(Apply(t, SchemaChange::AddColumn({"v"}, DataType::Int())),
                             StatusCode::kAlreadyExists, {"column 'v' already exists"}));
  EXPECT_TRUE(
      Apply(t, SchemaChange::AddColumn({"n"}, DataType::Int(), {}, ColumnMove::After("", "zz")))
          .IsNotFound());
  // Nested: a field inside the ROW column gets the next id.
  auto nested =
      ApplySchemaChanges(t, {SchemaChange::AddColumn({"r", "y"}, DataType::String())}, true, 0);
  ASSERT_OK(nested);
  const DataField* r = nested->FieldByName("r");
  ASSERT_EQ(r->type->num_fields(), 2);
  EXPECT_EQ(r->type->fields()[1].id, t.highest_field_id() + 1);
  // Rename: not partition keys; primary keys follow; name clash.
  EXPECT_TRUE(test::HasError(Apply(t, SchemaChange::RenameColumn({"dt"}, "day")),
                             StatusCode::kNotSupported, {"Cannot rename partition column: [dt]"}));
  auto renamed = ApplySchemaChanges(t, {SchemaChange::RenameColumn({"id"}, "key")}, true, 0);
  ASSERT_OK(renamed);
  EXPECT_EQ(renamed->primary_keys(), (std::vector<std::string>{"key", "dt"}));
  EXPECT_TRUE(test::HasError(Apply(t, SchemaChange::RenameColumn({"v"}, "s")),
                             StatusCode::kAlreadyExists, {"column 's' already exists"}));
  EXPECT_TRUE(test::HasError(Apply(t, SchemaChange::RenameColumn({"zz"}, "q")),
                             StatusCode::kNotFound, {"column 'zz' does not exist"}));
  // Drop: not keys.
  EXPECT_TRUE(test::HasError(Apply(t, SchemaChange::DropColumn({"id"})), StatusCode::kNotSupported,
                             {"Cannot drop partition key or primary key: [id]"}));
  EXPECT_TRUE(test::HasError(Apply(t, SchemaChange::DropColumn({"dt"})), StatusCode::kNotSupported,
                             {"Cannot drop partition key or primary key: [dt]"}));
  EXPECT_OK(Apply(t, SchemaChange::DropColumn({"v"})));
  EXPECT_TRUE(test::HasError(Apply(t, SchemaChange::DropColumn({"r", "x"})),
                             StatusCode::kInvalidArgument,
                             {"Cannot drop all fields in table"}));  // last field
  // Types: widening and Java's explicit casts; not keys; not ROW -> INT.
  EXPECT_OK(Apply(t, SchemaChange::UpdateColumnType({"v"}, DataType::BigInt())));
  EXPECT_OK(Apply(t, SchemaChange::UpdateColumnType({"v"}, DataType::String())));
  EXPECT_OK(Apply(t, SchemaChange::UpdateColumnType({"v"}, DataType::SmallInt())));
  EXPECT_OK(Apply(t, SchemaChange::UpdateColumnType({"s"}, DataType::VarChar(20))));
  EXPECT_TRUE(test::HasError(Apply(t, SchemaChange::UpdateColumnType({"v"}, DataType::Bytes())),
                             StatusCode::kInvalidArgument,
                             {"Column type v[", "cannot be converted to BYTES"}));
  EXPECT_TRUE(test::HasError(Apply(t, SchemaChange::UpdateColumnType({"r"}, DataType::Int())),
                             StatusCode::kInvalidArgument,
                             {"Column type r[", "cannot be converted to INT"}));
  EXPECT_TRUE(test::HasError(Apply(t, SchemaChange::UpdateColumnType({"id"}, DataType::String())),
                             StatusCode::kNotSupported, {"Cannot update primary key"}));
  EXPECT_TRUE(test::HasError(Apply(t, SchemaChange::UpdateColumnType({"dt"}, DataType::Int())),
                             StatusCode::kNotSupported, {"Cannot update partition column: [dt]"}));
  // Nullability: NOT NULL only when allowed; primary keys stay NOT NULL.
  EXPECT_TRUE(Apply(t, SchemaChange::UpdateColumnNullability({"v"}, false)).code() ==
              StatusCode::kNotSupported);
  TableSchema lax = PkTable({{"bucket", "2"}, {"alter-column-null-to-not-null.disabled", "false"}});
  EXPECT_OK(Apply(lax, SchemaChange::UpdateColumnNullability({"v"}, false)));
  EXPECT_TRUE(test::HasError(Apply(t, SchemaChange::UpdateColumnNullability({"id"}, true)),
                             StatusCode::kNotSupported,
                             {"Cannot change nullability of primary key"}));
  // With explicit casts disabled only widening remains.
  TableSchema strict = PkTable({{"bucket", "2"}, {"disable-explicit-type-casting", "true"}});
  EXPECT_OK(Apply(strict, SchemaChange::UpdateColumnType({"v"}, DataType::BigInt())));
  EXPECT_TRUE(test::HasError(
      Apply(strict, SchemaChange::UpdateColumnType({"v"}, DataType::SmallInt())),
      StatusCode::kInvalidArgument, {"Column type v[", "cannot be converted to SMALLINT"}));
  // Comments and moves.
  auto commented = ApplySchemaChanges(
      t, {SchemaChange::UpdateColumnComment({"v"}, "value"), SchemaChange::UpdateComment("t")},
      true, 0);
  ASSERT_OK(commented);
  EXPECT_EQ(commented->FieldByName("v")->description, "value");
  EXPECT_EQ(commented->comment(), "t");
  EXPECT_TRUE(Apply(t, SchemaChange::UpdateColumnPosition(ColumnMove::First("id"))).code() ==
              StatusCode::kNotSupported);
  EXPECT_OK(Apply(t, SchemaChange::UpdateColumnPosition(ColumnMove::Before("s", "id"))));
}

// Java SchemaManager's paths into ARRAY / MAP columns: "element" / "value" markers reach the
// ROW inside (a field added there gets the next id) or the atomic type inside (its type and
// nullability change, the ARRAY / MAP around it stays).
TEST(SchemaChangeTest, PathsReachIntoArraysAndMaps) {
  NewTableSpec spec;
  spec.columns = {
      Column("id", DataType::Int(false)), Column("a", DataType::Array(DataType::Int())),
      Column("m", DataType::Map(DataType::String(false), DataType::Array(DataType::Int()))),
      Column("rows", DataType::Array(DataType::Row({Column("x", DataType::Int())})))};
  ASSERT_OK_AND_ASSIGN(TableSchema t, MakeInitialSchema(spec, 0));
  ASSERT_OK_AND_ASSIGN(
      TableSchema widened,
      ApplySchemaChanges(
          t,
          {SchemaChange::UpdateColumnType({"a", "element"}, DataType::BigInt(), false),
           SchemaChange::UpdateColumnType({"m", "value", "element"}, DataType::BigInt(), false),
           SchemaChange::AddColumn({"rows", "element", "y"}, DataType::String()),
           SchemaChange::UpdateColumnType({"rows", "element", "x"}, DataType::BigInt(), false)},
          true, 0));
  EXPECT_EQ(widened.FieldByName("a")->type->ToString(), "ARRAY<BIGINT>");
  EXPECT_EQ(widened.FieldByName("m")->type->ToString(), "MAP<STRING NOT NULL, ARRAY<BIGINT>>");
  const DataType& rows = *widened.FieldByName("rows")->type;
  EXPECT_EQ(rows.ToString(), "ARRAY<ROW<`x` BIGINT, `y` STRING>>");
  EXPECT_EQ(rows.element()->fields()[1].id, t.highest_field_id() + 1);
  EXPECT_EQ(widened.highest_field_id(), t.highest_field_id() + 1);
  // The element's nullability, not the column's.
  TableSchema lax = *ApplySchemaChanges(
      t, {SchemaChange::SetOption("alter-column-null-to-not-null.disabled", "false")}, true, 0);
  ASSERT_OK_AND_ASSIGN(
      TableSchema not_null,
      ApplySchemaChanges(lax, {SchemaChange::UpdateColumnNullability({"a", "element"}, false)},
                         true, 0));
  EXPECT_EQ(not_null.FieldByName("a")->type->ToString(), "ARRAY<INT NOT NULL>");
  // What the element cannot become, and paths that lead nowhere.
  EXPECT_TRUE(test::HasError(
      ApplySchemaChanges(
          t, {SchemaChange::UpdateColumnType({"a", "element"}, DataType::Bytes(), false)}, true, 0),
      StatusCode::kInvalidArgument, {"Column type a[INT] cannot be converted to BYTES"}));
  EXPECT_TRUE(test::HasError(
      ApplySchemaChanges(t, {SchemaChange::AddColumn({"id", "z"}, DataType::String())}, true, 0),
      StatusCode::kNotSupported, {"column 'id.z'", "holds no ROW"}));
  EXPECT_TRUE(test::HasError(
      ApplySchemaChanges(t, {SchemaChange::AddColumn({"rows", "element", "x"}, DataType::String())},
                         true, 0),
      StatusCode::kAlreadyExists, {"column 'rows.element.x' already exists"}));
}

// SchemaValidation asks the file format first (FileFormat.validateDataFields), at create and at
// alter: a table whose every write would fail is never made.
TEST(SchemaChangeTest, FileFormatMustHoldEveryColumn) {
  auto create = [](TableOptions options, std::vector<DataField> columns) {
    NewTableSpec spec;
    spec.columns = std::move(columns);
    spec.options = std::move(options);
    return MakeInitialSchema(spec, 0);
  };
  auto expect_unstorable = [](const Status& st, std::string_view column, std::string_view type,
                              std::string_view format) {
    EXPECT_EQ(st.code(), StatusCode::kNotSupported) << st.ToString();
    for (std::string_view word : {column, type, format}) {
      EXPECT_NE(st.message().find(word), std::string::npos) << word << ": " << st.ToString();
    }
  };
  const DataField ts9 = Column("ts", DataType::Timestamp(9));
  expect_unstorable(
      create({{"file.format", "avro"}}, {Column("id", DataType::Int()), ts9}).status(), "'ts'",
      "TIMESTAMP(9)", "avro");
  expect_unstorable(
      create({{"file.format", "AVRO"}}, {Column("t", DataType::TimestampLtz(7))}).status(), "'t'",
      "TIMESTAMP(7) WITH LOCAL TIME ZONE", "avro");
  expect_unstorable(create({{"file.format", "avro"}}, {Column("t", DataType::Time(6))}).status(),
                    "'t'", "TIME(6)", "avro");
  expect_unstorable(create({{"file.format", "avro"}}, {Column("v", DataType::Variant())}).status(),
                    "'v'", "VARIANT", "avro");
  expect_unstorable(
      create({{"file.format", "orc"}},
             {Column("id", DataType::Int()), Column("v", DataType::Array(DataType::Variant()))})
          .status(),
      "'v'", "ARRAY<VARIANT>", "orc");
  expect_unstorable(
      create({{"file.format", "orc"}},
             {Column("id", DataType::Int()), Column("e", DataType::Vector(DataType::Float(), 3))})
          .status(),
      "'e'", "VECTOR<FLOAT, 3>", "orc");
  EXPECT_OK(create({{"file.format", "avro"}}, {Column("ts", DataType::Timestamp(6))}));
  EXPECT_OK(create({}, {ts9, Column("v", DataType::Variant())}));  // parquet
  EXPECT_OK(create({{"file.format", "orc"}}, {ts9}));
  // Avro levels of file.format.per.level hold no timestamp above precision 6.
  Status per_level =
      create({{"file.format.per.level", "0:avro,3:parquet"}}, {Column("id", DataType::Int()), ts9})
          .status();
  EXPECT_EQ(per_level.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(per_level.message().find("'0:avro' is incompatible with column 'ts'"),
            std::string::npos)
      << per_level.ToString();

  // ALTER: adding such a column, retyping to it, or switching the format is refused.
  auto avro = create({{"file.format", "avro"}},
                     {Column("id", DataType::Int()), Column("ts", DataType::Timestamp(3))});
  ASSERT_OK(avro);
  expect_unstorable(Apply(*avro, SchemaChange::AddColumn({"n"}, DataType::Timestamp(9)), false),
                    "'n'", "TIMESTAMP(9)", "avro");
  expect_unstorable(
      Apply(*avro, SchemaChange::UpdateColumnType({"ts"}, DataType::Timestamp(9)), false), "'ts'",
      "TIMESTAMP(9)", "avro");
  auto parquet = create({}, {Column("id", DataType::Int()), ts9});
  ASSERT_OK(parquet);
  expect_unstorable(Apply(*parquet, SchemaChange::SetOption("file.format", "avro"), false), "'ts'",
                    "TIMESTAMP(9)", "avro");
}

// Java SchemaManager: DataTypeCasts.supportsCast && CastExecutors.resolve != null, with or
// without data. TIMESTAMP converts to INT and BIGINT only (TimestampToNumericPrimitiveCastRule).
TEST(SchemaChangeTest, TypeChangesNeedAJavaCastRule) {
  NewTableSpec spec;
  spec.columns = {Column("ts", DataType::Timestamp(3)), Column("d", DataType::Date()),
                  Column("t", DataType::Time(0)), Column("b", DataType::Boolean())};
  auto created = MakeInitialSchema(spec, 0);
  ASSERT_OK(created);
  const TableSchema& t = *created;
  for (bool has_snapshots : {false, true}) {
    for (const DataTypePtr& refused : {DataType::TinyInt(), DataType::SmallInt(), DataType::Float(),
                                       DataType::Double(), DataType::Decimal(20, 0)}) {
      EXPECT_TRUE(test::HasError(
          Apply(t, SchemaChange::UpdateColumnType({"ts"}, refused), has_snapshots),
          StatusCode::kInvalidArgument,
          {"Column type ts[TIMESTAMP(3)] cannot be converted to " + refused->ToString()}));
    }
    EXPECT_OK(Apply(t, SchemaChange::UpdateColumnType({"ts"}, DataType::Int()), has_snapshots));
    EXPECT_OK(Apply(t, SchemaChange::UpdateColumnType({"ts"}, DataType::BigInt()), has_snapshots));
    EXPECT_OK(Apply(t, SchemaChange::UpdateColumnType({"ts"}, DataType::Time(0)), has_snapshots));
    // DATE / TIME / TIMESTAMP reach text as STRING only, and TIME keeps its precision.
    EXPECT_OK(Apply(t, SchemaChange::UpdateColumnType({"d"}, DataType::String()), has_snapshots));
    EXPECT_TRUE(test::HasError(
        Apply(t, SchemaChange::UpdateColumnType({"d"}, DataType::VarChar(10)), has_snapshots),
        StatusCode::kInvalidArgument, {"Column type d[DATE] cannot be converted to VARCHAR(10)"}));
    EXPECT_OK(Apply(t, SchemaChange::UpdateColumnType({"t"}, DataType::String()), has_snapshots));
    EXPECT_TRUE(test::HasError(
        Apply(t, SchemaChange::UpdateColumnType({"t"}, DataType::Time(3)), has_snapshots),
        StatusCode::kInvalidArgument, {"Column type t[TIME", "cannot be converted to TIME(3)"}));
    EXPECT_OK(
        Apply(t, SchemaChange::UpdateColumnType({"b"}, DataType::Decimal(3, 1)), has_snapshots));
  }
}

TEST(SchemaChangeTest, OptionChangesFollowJavaRules) {
  TableSchema t = PkTable();
  EXPECT_OK(Apply(t, SchemaChange::SetOption("bucket", "4")));
  EXPECT_TRUE(test::HasError(Apply(t, SchemaChange::SetOption("bucket", "-1")),
                             StatusCode::kNotSupported, {"Cannot change bucket to -1."}));
  EXPECT_TRUE(test::HasError(Apply(t, SchemaChange::RemoveOption("bucket")),
                             StatusCode::kNotSupported, {"Cannot reset bucket."}));
  EXPECT_TRUE(test::HasError(Apply(t, SchemaChange::SetOption("merge-engine", "first-row")),
                             StatusCode::kNotSupported,
                             {"Change 'merge-engine' is not supported yet."}));
  EXPECT_OK(Apply(t, SchemaChange::SetOption("merge-engine", "first-row"), false));
  EXPECT_TRUE(Apply(t, SchemaChange::SetOption("type", "format-table"), false).code() ==
              StatusCode::kNotSupported);
  EXPECT_TRUE(Apply(t, SchemaChange::SetOption("deletion-vectors.enabled", "true")).code() ==
              StatusCode::kNotSupported);
  EXPECT_TRUE(Apply(t, SchemaChange::SetOption("merge-engine", "bogus"), false).code() ==
              StatusCode::kInvalidArgument);
  auto set = ApplySchemaChanges(t,
                                {SchemaChange::SetOption("snapshot.num-retained.max", "50"),
                                 SchemaChange::RemoveOption("absent")},
                                true, 0);
  ASSERT_OK(set);
  EXPECT_EQ(*set->FindOption("snapshot.num-retained.max"), "50");
  // A rename carries into options naming the column.
  TableSchema agg = PkTable({{"bucket", "2"},
                             {"merge-engine", "aggregation"},
                             {"fields.v.aggregate-function", "sum"},
                             {"sequence.field", "s"}});
  auto renamed = ApplySchemaChanges(
      agg, {SchemaChange::RenameColumn({"v"}, "w"), SchemaChange::RenameColumn({"s"}, "t")}, true,
      0);
  ASSERT_OK(renamed);
  EXPECT_EQ(renamed->FindOption("fields.v.aggregate-function"), nullptr);
  EXPECT_EQ(*renamed->FindOption("fields.w.aggregate-function"), "sum");
  EXPECT_EQ(*renamed->FindOption("sequence.field"), "t");
}

TEST(SchemaChangeTest, CommitsClaimTheNextIdAtomically) {
  test::TempDir dir;
  SchemaManager manager(LocalFileIO(), dir.path() + "/t");
  NewTableSpec spec;
  spec.columns = {Column("a", DataType::Int()), Column("b", DataType::String())};
  auto created = manager.CreateTable(spec);
  ASSERT_OK(created);
  EXPECT_TRUE(
      test::HasError(manager.CreateTable(spec), StatusCode::kAlreadyExists,
                     {"Schema in filesystem exists, creation is not allowed: ", dir.path()}));
  // A schema id already taken is refused, never overwritten.
  EXPECT_TRUE(test::HasError(manager.CommitSchema(*created), StatusCode::kAlreadyExists,
                             {"schema 0 already exists: " + dir.path()}));
  // Concurrent changes: every one lands on its own id.
  constexpr int kWriters = 4;
  std::vector<std::thread> writers;
  std::vector<Status> results(kWriters);
  for (int i = 0; i < kWriters; ++i) {
    writers.emplace_back([&, i] {
      results[i] =
          manager
              .CommitChanges({SchemaChange::AddColumn({"c" + std::to_string(i)}, DataType::Int())})
              .status();
    });
  }
  for (auto& w : writers) w.join();
  for (const Status& st : results) EXPECT_OK(st);
  auto ids = manager.ListSchemaIds();
  ASSERT_OK(ids);
  EXPECT_EQ(ids->size(), static_cast<size_t>(kWriters + 1));
  auto latest = manager.LatestSchema();
  ASSERT_OK(latest);
  ASSERT_TRUE(latest->has_value());
  EXPECT_EQ((*latest)->fields().size(), 2u + kWriters);
  EXPECT_EQ((*latest)->highest_field_id(), 1 + kWriters);
  // A change that breaks a rule commits nothing.
  EXPECT_TRUE(test::HasError(manager.CommitChanges({SchemaChange::DropColumn({"zz"})}),
                             StatusCode::kNotFound, {"column 'zz' does not exist"}));
  EXPECT_EQ(manager.ListSchemaIds()->size(), static_cast<size_t>(kWriters + 1));
  SchemaManager missing(LocalFileIO(), dir.path() + "/none");
  EXPECT_TRUE(test::HasError(missing.CommitChanges({SchemaChange::SetOption("a", "b")}),
                             StatusCode::kNotFound, {"no table in " + dir.path() + "/none"}));
}

}  // namespace
}  // namespace sluice
