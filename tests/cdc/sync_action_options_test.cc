#include "sluice/cdc/sync_action_options.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace sluice {
namespace {

using test::HasError;

Result<SyncJobOptions> Read(bool sync_table, const std::vector<std::string>& args) {
  SLUICE_ASSIGN_OR_RETURN(ActionArguments arguments, ActionArguments::Parse(args));
  SyncActionShape shape;
  shape.sync_table = sync_table;
  shape.own_keys = {"kafka_conf"};
  shape.source_identity = "topic";
  return ReadSyncJobOptions(sync_table ? "kafka_sync_table" : "kafka_sync_database", arguments,
                            shape);
}

// A Java user's kafka_sync_database command line with every routing argument of Java's
// SyncDatabaseActionFactoryBase, read as Java reads it (`k=v` values trimmed, a list per table).
TEST(SyncActionOptionsTest, DatabaseRoutingArgumentsAsJavaReadsThem) {
  ASSERT_OK_AND_ASSIGN(SyncJobOptions options,
                       Read(false, {"--warehouse",
                                    "/w",
                                    "--database",
                                    "ods",
                                    "--table_prefix",
                                    "p_",
                                    "--table_suffix",
                                    "_s",
                                    "--table_prefix_db",
                                    "shop = s_",
                                    "--table_prefix_db",
                                    "crm=c_",
                                    "--table_suffix_db",
                                    "crm=_x",
                                    "--table_mapping",
                                    "orders=all_orders",
                                    "--including_tables",
                                    "orders|users",
                                    "--excluding_tables",
                                    "tmp.*",
                                    "--including_dbs",
                                    "shop|crm",
                                    "--excluding_dbs",
                                    "crm_test",
                                    "--multiple_table_partition_keys",
                                    "orders=dt,hh",
                                    "--multiple_table_partition_keys",
                                    "users=region",
                                    "--partition_keys",
                                    "dt",
                                    "--sync_primary_keys_from_source_schema",
                                    "FALSE"}));
  const TableNameRules& names = options.table_names;
  EXPECT_EQ(names.table_prefix, "p_");
  EXPECT_EQ(names.table_suffix, "_s");
  EXPECT_EQ(names.database_prefixes,
            (std::map<std::string, std::string>{{"crm", "c_"}, {"shop", "s_"}}));
  EXPECT_EQ(names.database_suffixes, (std::map<std::string, std::string>{{"crm", "_x"}}));
  EXPECT_EQ(names.table_mapping, (std::map<std::string, std::string>{{"orders", "all_orders"}}));
  EXPECT_EQ(names.including_tables, "orders|users");
  EXPECT_EQ(names.excluding_tables, "tmp.*");
  EXPECT_EQ(names.including_dbs, "shop|crm");
  EXPECT_EQ(names.excluding_dbs, "crm_test");
  EXPECT_EQ(options.partition_keys_by_table, (std::map<std::string, std::vector<std::string>>{
                                                 {"orders", {"dt", "hh"}}, {"users", {"region"}}}));
  EXPECT_EQ(options.partition_keys, std::vector<std::string>{"dt"});
  EXPECT_FALSE(options.sync_primary_keys_from_source);
}

TEST(SyncActionOptionsTest, DefaultsAreJavas) {
  ASSERT_OK_AND_ASSIGN(SyncJobOptions options,
                       Read(false, {"--warehouse", "/w", "--database", "ods"}));
  EXPECT_EQ(options.table_names.including_tables, ".*");
  EXPECT_EQ(options.table_names.including_dbs, ".*");
  EXPECT_EQ(options.table_names.excluding_tables, std::nullopt);
  EXPECT_EQ(options.table_names.excluding_dbs, std::nullopt);
  EXPECT_TRUE(options.sync_primary_keys_from_source);
  EXPECT_EQ(options.commit_user, "sluice-kafka_sync_database-ods-topic");
}

TEST(SyncActionOptionsTest, SyncTableTakesThePrimaryKeyFlagButNoRouting) {
  ASSERT_OK_AND_ASSIGN(SyncJobOptions options,
                       Read(true, {"--warehouse", "/w", "--database", "ods", "--table", "t",
                                   "--sync_primary_keys_from_source_schema", "false"}));
  EXPECT_FALSE(options.sync_primary_keys_from_source);
  EXPECT_TRUE(HasError(Read(true, {"--warehouse", "/w", "--database", "ods", "--table", "t",
                                   "--table_mapping", "a=b", "--including_dbs", "x"}),
                       StatusCode::kInvalidArgument,
                       {"kafka_sync_table does not take --table_mapping, --including_dbs"}));
}

TEST(SyncActionOptionsTest, KeyValueWithoutEqualsIsNamed) {
  EXPECT_TRUE(HasError(
      Read(false,
           {"--warehouse", "/w", "--database", "ods", "--multiple_table_partition_keys", "orders"}),
      StatusCode::kInvalidArgument, {"--multiple_table_partition_keys", "orders"}));
}

}  // namespace
}  // namespace sluice
