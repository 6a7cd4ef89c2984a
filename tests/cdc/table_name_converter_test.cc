#include "sluice/cdc/table_name_converter.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace sluice {
namespace {

using test::HasError;

TEST(TableNameConverterTest, SyncTableSendsEveryRecordToItsTable) {
  TableNameConverter converter = TableNameConverter::ForTable("orders");
  EXPECT_EQ(converter.Convert("shop", "anything"), "orders");
  EXPECT_EQ(converter.Convert("", ""), "orders");
}

// Java TableNameConverter.convert: the mapping first, then the database's prefix / suffix, then
// the job's; mapping and database keys are matched ignoring case, the table keeps its case.
TEST(TableNameConverterTest, MappingThenDatabaseAffixesThenTheJobsAffixes) {
  TableNameRules rules;
  rules.table_prefix = "ods_";
  rules.table_suffix = "_v1";
  rules.database_prefixes = {{"Shop", "shop_"}};
  rules.database_suffixes = {{"crm", "_crm"}};
  rules.table_mapping = {{"Orders", "all_orders"}};
  ASSERT_OK_AND_ASSIGN(TableNameConverter converter, TableNameConverter::ForDatabase(rules));
  EXPECT_EQ(converter.Convert("shop", "orders"), "all_orders");
  EXPECT_EQ(converter.Convert("crm", "ORDERS"), "all_orders");
  EXPECT_EQ(converter.Convert("SHOP", "Items"), "shop_Items_v1");
  EXPECT_EQ(converter.Convert("crm", "users"), "ods_users_crm");
  EXPECT_EQ(converter.Convert("other", "users"), "ods_users_v1");
  // Tables of one name in several databases go into one table (Java's merge-shards default).
  EXPECT_EQ(converter.Convert("other", "users"), converter.Convert("", "users"));
}

// Java RichCdcMultiplexRecordEventParser: whole-name matches of the database, then of the
// table; a record naming no database passes the database filter.
TEST(TableNameConverterTest, DatabaseAndTablePatternsSelectWholeNames) {
  TableNameRules rules;
  rules.including_tables = "orders|users";
  rules.excluding_tables = "users";
  rules.including_dbs = "shop.*";
  rules.excluding_dbs = "shop_test";
  ASSERT_OK_AND_ASSIGN(TableNameConverter converter, TableNameConverter::ForDatabase(rules));
  EXPECT_EQ(converter.Convert("shop", "orders"), "orders");
  EXPECT_EQ(converter.Convert("shop_eu", "orders"), "orders");
  EXPECT_EQ(converter.Convert("", "orders"), "orders");
  EXPECT_EQ(converter.Convert("shop_test", "orders"), std::nullopt);
  EXPECT_EQ(converter.Convert("myshop", "orders"), std::nullopt);
  EXPECT_EQ(converter.Convert("shop", "users"), std::nullopt);
  EXPECT_EQ(converter.Convert("shop", "orders_history"), std::nullopt);
  // A record that names no table is routed to no name: the job refuses it.
  EXPECT_EQ(converter.Convert("shop", ""), "");
}

TEST(TableNameConverterTest, BadPatternIsNamed) {
  TableNameRules rules;
  rules.excluding_dbs = "shop(";
  EXPECT_TRUE(HasError(TableNameConverter::ForDatabase(rules), StatusCode::kInvalidArgument,
                       {"--excluding_dbs 'shop('", "is not a valid pattern"}));
}

}  // namespace
}  // namespace sluice
