// The filesystem catalog's writes on a scratch warehouse: databases, tables, ALTER TABLE,
// renames and drops, with Java's errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "sluice/catalog/filesystem_catalog.h"
#include "sluice/meta/schema_manager.h"
#include "test_util.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

DataField Column(std::string name, DataTypePtr type) {
  return DataField{0, std::move(name), std::move(type), std::nullopt, std::nullopt};
}

NewTableSpec OrdersSpec() {
  NewTableSpec spec;
  spec.columns = {Column("id", DataType::BigInt()), Column("dt", DataType::String()),
                  Column("amount", DataType::Int()), Column("note", DataType::String())};
  spec.primary_keys = {"id", "dt"};
  spec.partition_keys = {"dt"};
  spec.options = {{"bucket", "2"}, {"merge-engine", "partial-update"}};
  spec.comment = "orders";
  return spec;
}

class CatalogWriteTest : public ::testing::Test {
 protected:
  std::string warehouse() const { return temp_.path() + "/wh"; }
  FilesystemCatalog catalog() const { return FilesystemCatalog(LocalFileIO(), warehouse()); }

  test::TempDir temp_;
};

TEST_F(CatalogWriteTest, DatabasesAreCreatedListedAndDropped) {
  FilesystemCatalog c = catalog();
  ASSERT_OK(c.CreateDatabase("sales"));
  EXPECT_TRUE(fs::is_directory(warehouse() + "/sales.db"));
  EXPECT_TRUE(test::HasError(c.CreateDatabase("sales"), StatusCode::kAlreadyExists,
                             {"database 'sales' already exists in warehouse " + warehouse()}));
  EXPECT_OK(c.CreateDatabase("sales", /*ignore_if_exists=*/true));
  EXPECT_TRUE(test::HasError(c.CreateDatabase("sys"), StatusCode::kInvalidArgument,
                             {"Cannot create the system database 'sys'"}));
  EXPECT_TRUE(test::HasError(c.CreateDatabase("a/b"), StatusCode::kInvalidArgument,
                             {"database name 'a/b' is empty or contains '/'"}));
  ASSERT_OK(c.CreateDatabase("hr"));
  EXPECT_EQ(*c.ListDatabases(), (std::vector<std::string>{"hr", "sales"}));

  ASSERT_OK(c.CreateTable("sales.orders", OrdersSpec()));
  EXPECT_TRUE(test::HasError(c.DropDatabase("sales"), StatusCode::kInvalidArgument,
                             {"database 'sales' is not empty (tables: orders)"}));
  EXPECT_OK(c.DropDatabase("sales", false, /*cascade=*/true));
  EXPECT_TRUE(test::HasError(c.DropDatabase("sales"), StatusCode::kNotFound,
                             {"database 'sales' does not exist"}));
  EXPECT_OK(c.DropDatabase("sales", /*ignore_if_not_exists=*/true));
  EXPECT_EQ(*c.ListDatabases(), (std::vector<std::string>{"hr"}));
}

TEST_F(CatalogWriteTest, CreateTableWritesSchemaZeroThatLoads) {
  FilesystemCatalog c = catalog();
  EXPECT_TRUE(test::HasError(c.CreateTable("sales.orders", OrdersSpec()), StatusCode::kNotFound,
                             {"database 'sales' does not exist in warehouse " + warehouse()}));
  ASSERT_OK(c.CreateDatabase("sales"));
  ASSERT_OK(c.CreateTable("sales.orders", OrdersSpec()));
  EXPECT_TRUE(test::HasError(c.CreateTable("sales.orders", OrdersSpec()),
                             StatusCode::kAlreadyExists,
                             {"table sales.orders already exists in warehouse " + warehouse()}));
  EXPECT_OK(c.CreateTable("sales.orders", OrdersSpec(), /*ignore_if_exists=*/true));
  EXPECT_EQ(*c.ListTables("sales"), std::vector<std::string>{"orders"});

  auto table = c.LoadTable("sales.orders");
  ASSERT_OK(table);
  const TableSchema& schema = (*table)->schema();
  EXPECT_EQ(schema.id(), 0);
  EXPECT_EQ(schema.primary_keys(), (std::vector<std::string>{"id", "dt"}));
  EXPECT_FALSE(schema.FieldByName("id")->type->nullable());
  EXPECT_EQ(schema.comment(), "orders");
  EXPECT_EQ((*table)->options().bucket(), 2);
  // The file is exactly what TableSchema writes (Java's bytes).
  const std::string text = test::ReadFileOrFail(warehouse() + "/sales.db/orders/schema/schema-0");
  EXPECT_EQ(text, schema.ToJson());

  // Bad specs fail naming what is wrong, and leave nothing behind.
  NewTableSpec bad = OrdersSpec();
  bad.options.emplace_back("bucket-key", "nope");
  EXPECT_TRUE(
      test::HasError(c.CreateTable("sales.bad", bad), StatusCode::kInvalidArgument, {"nope"}));
  NewTableSpec bad_value = OrdersSpec();
  bad_value.options.emplace_back("write-buffer-size", "lots");
  EXPECT_TRUE(test::HasError(c.CreateTable("sales.bad", bad_value), StatusCode::kInvalidArgument,
                             {"option 'write-buffer-size': cannot parse 'lots'"}));
  EXPECT_FALSE(fs::exists(warehouse() + "/sales.db/bad/schema/schema-0"));
  EXPECT_TRUE(test::HasError(c.CreateTable("sales.orders$branch_b", OrdersSpec()),
                             StatusCode::kInvalidArgument,
                             {"for system table or branch 'sales.orders$branch_b'"}));
  EXPECT_TRUE(test::HasError(c.CreateTable("orders", OrdersSpec()), StatusCode::kInvalidArgument,
                             {"table identifier 'orders' is not of the form db.table"}));
}

TEST_F(CatalogWriteTest, AlterTableCommitsTheNextSchema) {
  FilesystemCatalog c = catalog();
  ASSERT_OK(c.CreateDatabase("sales"));
  ASSERT_OK(c.CreateTable("sales.orders", OrdersSpec()));
  auto altered = c.AlterTable(
      "sales.orders",
      {SchemaChange::AddColumn({"qty"}, DataType::Int(), std::nullopt, ColumnMove::After("", "id")),
       SchemaChange::UpdateColumnType({"amount"}, DataType::BigInt()),
       SchemaChange::RenameColumn({"note"}, "remark"),
       SchemaChange::SetOption("snapshot.num-retained.max", "10"),
       SchemaChange::RemoveOption("merge-engine")});
  ASSERT_OK(altered);
  EXPECT_EQ(altered->id(), 1);
  EXPECT_EQ(altered->FieldNames(),
            (std::vector<std::string>{"id", "qty", "dt", "amount", "remark"}));
  EXPECT_EQ(altered->FieldByName("qty")->id, 4);
  auto table = c.LoadTable("sales.orders");
  ASSERT_OK(table);
  EXPECT_EQ((*table)->schema().id(), 1);
  EXPECT_EQ((*table)->schema().FieldByName("amount")->type->root(), TypeRoot::kBigInt);
  EXPECT_EQ((*table)->schema().FindOption("merge-engine"), nullptr);

  // Refusals commit nothing.
  EXPECT_TRUE(test::HasError(c.AlterTable("sales.orders", {SchemaChange::DropColumn({"id"})}),
                             StatusCode::kNotSupported,
                             {"Cannot drop partition key or primary key: [id]"}));
  EXPECT_TRUE(test::HasError(c.AlterTable("sales.orders", {SchemaChange::SetOption("bucket", "x")}),
                             StatusCode::kInvalidArgument, {"bucket", "'x'"}));
  EXPECT_TRUE(test::HasError(
      c.AlterTable("sales.orders", {SchemaChange::AddColumn({"z"}, DataType::Int(false))}),
      StatusCode::kInvalidArgument, {"Column z", "cannot specify NOT NULL"}));
  EXPECT_TRUE(
      c.AlterTable("sales.nope", {SchemaChange::SetOption("a", "b")}).status().IsNotFound());
  EXPECT_EQ(*SchemaManager(LocalFileIO(), c.TablePath("sales", "orders")).ListSchemaIds(),
            (std::vector<int64_t>{0, 1}));
}

// Java builds the merge function at CREATE and ALTER TABLE (SchemaValidation
// .validateMergeFunction / validateMergeFunctionFactory): an unknown aggregate function or a
// sequence group naming a missing column is refused then, not at the first write.
TEST_F(CatalogWriteTest, MergeFunctionIsCheckedAtCreateAndAlter) {
  FilesystemCatalog c = catalog();
  ASSERT_OK(c.CreateDatabase("sales"));
  NewTableSpec summ = OrdersSpec();
  summ.options = {{"bucket", "2"},
                  {"merge-engine", "aggregation"},
                  {"fields.amount.aggregate-function", "summ"}};
  EXPECT_TRUE(test::HasError(
      c.CreateTable("sales.agg", summ), StatusCode::kInvalidArgument,
      {"identifier 'summ'", "'fields.amount.aggregate-function' = 'summ'", "column 'amount'"}));
  EXPECT_FALSE(fs::exists(warehouse() + "/sales.db/agg/schema/schema-0"));

  NewTableSpec group = OrdersSpec();
  group.options.emplace_back("fields.amount.sequence-group", "nope");
  EXPECT_TRUE(test::HasError(c.CreateTable("sales.pu", group), StatusCode::kInvalidArgument,
                             {"Field nope can not be found in table schema"}));

  ASSERT_OK(c.CreateTable("sales.orders", OrdersSpec()));
  EXPECT_TRUE(test::HasError(
      c.AlterTable("sales.orders",
                   {SchemaChange::SetOption("merge-engine", "aggregation"),
                    SchemaChange::SetOption("fields.default-aggregate-function", "summ")}),
      StatusCode::kInvalidArgument,
      {"identifier 'summ'", "'fields.default-aggregate-function' = 'summ'"}));
  EXPECT_TRUE(test::HasError(
      c.AlterTable("sales.orders",
                   {SchemaChange::SetOption("fields.amount.aggregate-function", "sum")}),
      StatusCode::kInvalidArgument,
      {"Must use sequence group for aggregation functions but not found for field amount."}));
  EXPECT_EQ(*SchemaManager(LocalFileIO(), c.TablePath("sales", "orders")).ListSchemaIds(),
            (std::vector<int64_t>{0}));
  // A known function is accepted.
  summ.options.back().second = "sum";
  EXPECT_OK(c.CreateTable("sales.agg", summ));
}

TEST_F(CatalogWriteTest, ConcurrentAltersEachLandOnTheirOwnSchema) {
  FilesystemCatalog c = catalog();
  ASSERT_OK(c.CreateDatabase("db"));
  ASSERT_OK(c.CreateTable("db.t", OrdersSpec()));
  constexpr int kWriters = 6;
  std::vector<std::thread> threads;
  std::vector<Status> results(kWriters);
  for (int i = 0; i < kWriters; ++i) {
    threads.emplace_back([&, i] {
      results[i] =
          c.AlterTable("db.t",
                       {SchemaChange::AddColumn({"c" + std::to_string(i)}, DataType::Int())})
              .status();
    });
  }
  for (auto& t : threads) t.join();
  for (const Status& st : results) EXPECT_OK(st);
  auto table = c.LoadTable("db.t");
  ASSERT_OK(table);
  EXPECT_EQ((*table)->schema().id(), kWriters);
  EXPECT_EQ((*table)->schema().fields().size(), 4u + kWriters);
}

TEST_F(CatalogWriteTest, RenameAndDropTables) {
  FilesystemCatalog c = catalog();
  ASSERT_OK(c.CreateDatabase("a"));
  ASSERT_OK(c.CreateDatabase("b"));
  ASSERT_OK(c.CreateTable("a.t1", OrdersSpec()));
  ASSERT_OK(c.CreateTable("a.t2", OrdersSpec()));
  EXPECT_TRUE(test::HasError(c.RenameTable("a.t1", "a.t2"), StatusCode::kAlreadyExists,
                             {"table a.t2 already exists in warehouse"}));
  EXPECT_TRUE(test::HasError(c.RenameTable("a.nope", "a.t3"), StatusCode::kNotFound,
                             {"table a.nope does not exist in warehouse"}));
  EXPECT_OK(c.RenameTable("a.nope", "a.t3", /*ignore_if_not_exists=*/true));
  EXPECT_TRUE(test::HasError(c.RenameTable("a.t1", "zz.t1"), StatusCode::kNotFound,
                             {"database 'zz' does not exist in warehouse"}));
  ASSERT_OK(c.RenameTable("a.t1", "b.moved"));
  EXPECT_EQ(*c.ListTables("a"), std::vector<std::string>{"t2"});
  EXPECT_EQ(*c.ListTables("b"), std::vector<std::string>{"moved"});
  EXPECT_OK(c.LoadTable("b.moved"));

  ASSERT_OK(c.DropTable("b.moved"));
  EXPECT_FALSE(fs::exists(warehouse() + "/b.db/moved"));
  EXPECT_TRUE(test::HasError(c.DropTable("b.moved"), StatusCode::kNotFound,
                             {"table b.moved does not exist in warehouse"}));
  EXPECT_OK(c.DropTable("b.moved", /*ignore_if_not_exists=*/true));
  EXPECT_TRUE(c.ListTables("b")->empty());
}

// A table holding data files (a corpus copy): type changes must stay readable for the files
// written before them.
TEST_F(CatalogWriteTest, AlterTableWithDataKeepsOldFilesReadable) {
  FilesystemCatalog c = catalog();
  ASSERT_OK(c.CreateDatabase("db"));
  fs::copy(test::CompatTablesDir() + "/parquet/pk_table_nested_type.db/pk_table_nested_type",
           warehouse() + "/db.db/nested", fs::copy_options::recursive);
  Status nested =
      c.AlterTable("db.nested", {SchemaChange::AddColumn({"col1", "f9"}, DataType::Int())})
          .status();
  EXPECT_TRUE(test::HasError(nested, StatusCode::kNotSupported,
                             {"table db.nested holds files written under schema 0", "col1"}));
  // Options that cannot change once there is data.
  EXPECT_EQ(c.AlterTable("db.nested", {SchemaChange::SetOption("merge-engine", "first-row")})
                .status()
                .code(),
            StatusCode::kNotSupported);
  auto widened =
      c.AlterTable("db.nested", {SchemaChange::UpdateColumnType({"col0"}, DataType::BigInt())});
  ASSERT_OK(widened);
  EXPECT_EQ(widened->id(), 1);
  auto table = c.LoadTable("db.nested");
  ASSERT_OK(table);
  EXPECT_EQ((*table)->schema().FieldByName("col0")->type->root(), TypeRoot::kBigInt);
}

}  // namespace
}  // namespace sluice
