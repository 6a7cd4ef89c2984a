// DDL through the public Catalog: databases and tables created, altered, renamed and dropped,
// with the errors the filesystem catalog gives (names in the messages).
#include "sluice/catalog.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_util.h"

namespace sluice {
namespace {

DataField Column(std::string name, DataTypePtr type) {
  return DataField{0, std::move(name), std::move(type), std::nullopt, std::nullopt};
}

TEST(CatalogDdlTest, CreateAlterRenameDrop) {
  test::TempDir dir;
  Catalog catalog = Catalog::Filesystem(dir.path() + "/warehouse");
  ASSERT_OK(catalog.CreateDatabase("shop"));
  EXPECT_TRUE(test::HasError(catalog.CreateDatabase("shop"), StatusCode::kAlreadyExists,
                             {"database 'shop' already exists"}));
  EXPECT_OK(catalog.CreateDatabase("shop", /*ignore_if_exists=*/true));

  NewTableSpec spec;
  spec.columns = {Column("id", DataType::BigInt(false)), Column("qty", DataType::Int())};
  spec.primary_keys = {"id"};
  spec.options = {{"bucket", "1"}};
  spec.comment = "orders";
  ASSERT_OK(catalog.CreateTable("shop.orders", spec));
  auto listed = catalog.ListTables("shop");
  ASSERT_OK(listed);
  EXPECT_EQ(*listed, std::vector<std::string>{"orders"});

  auto altered = catalog.AlterTable("shop.orders",
                                    {SchemaChange::AddColumn({"note"}, DataType::String()),
                                     SchemaChange::SetOption("snapshot.num-retained.min", "3")});
  ASSERT_OK(altered);
  EXPECT_EQ(altered->schema_id(), 1);
  ASSERT_EQ(altered->row_type()->num_fields(), 3);
  EXPECT_EQ(altered->row_type()->fields()[2].name, "note");
  EXPECT_EQ(altered->row_type()->fields()[2].id, 2);
  EXPECT_EQ(altered->primary_keys(), std::vector<std::string>{"id"});
  EXPECT_EQ(altered->comment(), std::optional<std::string>("orders"));
  bool has_option = false;
  for (const auto& [key, value] : altered->options()) {
    has_option = has_option || (key == "snapshot.num-retained.min" && value == "3");
  }
  EXPECT_TRUE(has_option);

  EXPECT_TRUE(test::HasError(catalog.AlterTable("shop.orders", {SchemaChange::DropColumn({"id"})}),
                             StatusCode::kNotSupported,
                             {"Cannot drop partition key or primary key: [id]"}));

  ASSERT_OK(catalog.RenameTable("shop.orders", "shop.sales"));
  EXPECT_TRUE(
      test::HasError(catalog.GetTable("shop.orders"), StatusCode::kNotFound, {"shop.orders"}));
  ASSERT_OK(catalog.GetTable("shop.sales"));
  EXPECT_TRUE(test::HasError(catalog.DropDatabase("shop"), StatusCode::kInvalidArgument,
                             {"database 'shop' is not empty (tables: sales)"}));
  ASSERT_OK(catalog.DropTable("shop.sales"));
  EXPECT_TRUE(test::HasError(catalog.DropTable("shop.sales"), StatusCode::kNotFound,
                             {"table shop.sales does not exist"}));
  ASSERT_OK(catalog.DropDatabase("shop"));
  auto databases = catalog.ListDatabases();
  ASSERT_OK(databases);
  EXPECT_TRUE(databases->empty());
}

}  // namespace
}  // namespace sluice
