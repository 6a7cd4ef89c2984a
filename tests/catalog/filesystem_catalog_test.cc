// The filesystem catalog over the corpus: the folders tables/orc and tables/parquet are
// warehouses of `<name>.db/<name>` tables.
#include "sluice/catalog/filesystem_catalog.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "test_util.h"

namespace sluice {
namespace {

FilesystemCatalog OrcWarehouse() {
  return FilesystemCatalog(LocalFileIO(), test::CompatTablesDir() + "/orc");
}

TEST(FilesystemCatalogTest, ListsDatabasesAndTables) {
  auto databases = OrcWarehouse().ListDatabases();
  ASSERT_OK(databases);
  EXPECT_GT(databases->size(), 40u);
  EXPECT_TRUE(std::is_sorted(databases->begin(), databases->end()));
  EXPECT_TRUE(std::binary_search(databases->begin(), databases->end(), "pk_09"));
  auto tables = OrcWarehouse().ListTables("pk_09");
  ASSERT_OK(tables);
  EXPECT_EQ(*tables, std::vector<std::string>{"pk_09"});
}

TEST(FilesystemCatalogTest, LoadsByIdentifierAndFolder) {
  auto table = OrcWarehouse().LoadTable("pk_09.pk_09");
  ASSERT_OK(table);
  EXPECT_EQ((*table)->schema().primary_keys(), (std::vector<std::string>{"f0", "f1", "f2"}));
  EXPECT_EQ((*table)->branch(), "main");
  EXPECT_EQ((*table)->path(), OrcWarehouse().TablePath("pk_09", "pk_09"));

  auto branch =
      OrcWarehouse().LoadTable("append_table_with_rt_branch.append_table_with_rt_branch$branch_rt");
  ASSERT_OK(branch);
  EXPECT_EQ((*branch)->branch(), "rt");
  EXPECT_TRUE((*branch)->schema().is_primary_key_table());

  auto by_folder = LoadTableFromPath(LocalFileIO(), (*table)->path() + "/");
  ASSERT_OK(by_folder);
  EXPECT_EQ((*by_folder)->schema().id(), (*table)->schema().id());
}

TEST(FilesystemCatalogTest, ErrorsNameWhatIsMissing) {
  auto table = OrcWarehouse().LoadTable("pk_09.nope");
  ASSERT_FALSE(table.ok());
  EXPECT_TRUE(table.status().IsNotFound());
  EXPECT_NE(table.status().message().find("pk_09.nope"), std::string::npos);
  EXPECT_NE(table.status().message().find(OrcWarehouse().warehouse()), std::string::npos);

  auto malformed = OrcWarehouse().LoadTable("no_dot");
  ASSERT_FALSE(malformed.ok());
  EXPECT_NE(malformed.status().message().find("db.table"), std::string::npos);

  auto database = OrcWarehouse().ListTables("nope");
  ASSERT_FALSE(database.ok());
  EXPECT_NE(database.status().message().find("'nope'"), std::string::npos);

  FilesystemCatalog missing(LocalFileIO(), "/nonexistent/warehouse");
  auto databases = missing.ListDatabases();
  ASSERT_FALSE(databases.ok());
  EXPECT_NE(databases.status().message().find("/nonexistent/warehouse"), std::string::npos);

  auto branch = OrcWarehouse().LoadTable("pk_09.pk_09$branch_nope");
  ASSERT_FALSE(branch.ok());
  EXPECT_NE(branch.status().message().find("'nope'"), std::string::npos);

  auto folder = LoadTableFromPath(LocalFileIO(), test::CompatTablesDir());
  ASSERT_FALSE(folder.ok());
  EXPECT_TRUE(folder.status().IsNotFound());
}

}  // namespace
}  // namespace sluice
