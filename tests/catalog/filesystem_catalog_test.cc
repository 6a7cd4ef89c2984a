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
  EXPECT_TRUE(test::HasError(OrcWarehouse().LoadTable("pk_09.nope"), StatusCode::kNotFound,
                             {"pk_09.nope", OrcWarehouse().warehouse()}));

  EXPECT_TRUE(test::HasError(OrcWarehouse().LoadTable("no_dot"), StatusCode::kInvalidArgument,
                             {"table identifier 'no_dot' is not of the form db.table"}));

  EXPECT_TRUE(test::HasError(OrcWarehouse().ListTables("nope"), StatusCode::kNotFound,
                             {"database 'nope' does not exist in warehouse"}));

  FilesystemCatalog missing(LocalFileIO(), "/nonexistent/warehouse");
  EXPECT_TRUE(test::HasError(missing.ListDatabases(), StatusCode::kNotFound,
                             {"warehouse /nonexistent/warehouse does not exist"}));

  EXPECT_TRUE(test::HasError(OrcWarehouse().LoadTable("pk_09.pk_09$branch_nope"),
                             StatusCode::kNotFound, {"branch 'nope' does not exist in table"}));

  EXPECT_TRUE(test::HasError(LoadTableFromPath(LocalFileIO(), test::CompatTablesDir()),
                             StatusCode::kNotFound,
                             {"no table in folder " + test::CompatTablesDir()}));
}

}  // namespace
}  // namespace sluice
