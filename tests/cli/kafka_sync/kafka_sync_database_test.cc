// `sluice action kafka_sync_database` / `kafka_sync_table` against a real Kafka broker: tables
// created from canal-json records, routing by prefix / suffix / including / excluding, a table
// and a column that appear mid-stream, a restart that resumes, malformed messages.
#include <gtest/gtest.h>

#include "kafka_sync_test_util.h"

namespace sluice {
namespace {

using nlohmann::json;
using test::CanalMessage;
using test::CommandResult;
using test::CreateTopic;
using test::HasError;
using test::KafkaMessage;
using test::LatestSchema;
using test::Produce;
using test::ReadRows;
using test::RunSluice;
using test::RunSync;
using test::Sorted;
using test::TempDir;
using test::UniqueTopicName;

const json kOrderTypes = {{"id", "bigint(20)"}, {"name", "varchar(32)"}};

std::string Order(const std::string& type, int64_t id, const std::string& name,
                  const std::string& table = "orders") {
  return CanalMessage("shop", table, type, {{"id", std::to_string(id)}, {"name", name}},
                      kOrderTypes, {"id"});
}

TEST(KafkaSyncDatabaseTest, RoutesTablesAndFollowsNewTablesAndColumns) {
  std::string topic = UniqueTopicName("syncdb");
  ASSERT_OK(CreateTopic(topic, 1));
  ASSERT_OK(Produce(
      topic,
      {KafkaMessage("1", Order("INSERT", 1, "pen")), KafkaMessage("2", Order("INSERT", 2, "ink")),
       KafkaMessage("x", Order("INSERT", 9, "skip", "audit_log")),
       KafkaMessage("1", Order("UPDATE", 1, "red pen")),
       // A table that appears mid-stream.
       KafkaMessage("u", CanalMessage("shop", "users", "INSERT", {{"uid", "7"}, {"email", "a@b"}},
                                      {{"uid", "int(11)"}, {"email", "varchar(64)"}}, {"uid"})),
       KafkaMessage("2", Order("DELETE", 2, "ink")),
       // A column that appears mid-stream.
       KafkaMessage(
           "3",
           CanalMessage("shop", "orders", "INSERT", {{"id", "3"}, {"name", "cup"}, {"qty", "5"}},
                        {{"id", "bigint(20)"}, {"name", "varchar(32)"}, {"qty", "int(11)"}},
                        {"id"}))}));
  TempDir warehouse;
  CommandResult r = RunSync("kafka_sync_database", warehouse.path(), topic, "canal-json",
                            "--database ods --table_prefix p_ --table_suffix _s "
                            "--excluding_tables 'audit.*'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("table ods.p_users_s created"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("qty"), std::string::npos) << "a log line per schema change: " << r.err;

  EXPECT_EQ(ReadRows(warehouse.path(), "ods.p_orders_s"),
            Sorted({json{{"id", 1}, {"name", "red pen"}, {"qty", nullptr}},
                    json{{"id", 3}, {"name", "cup"}, {"qty", 5}}}));
  EXPECT_EQ(ReadRows(warehouse.path(), "ods.p_users_s"),
            Sorted({json{{"uid", 7}, {"email", "a@b"}}}));
  CommandResult tables = RunSluice("list ods --warehouse '" + warehouse.path() + "'");
  EXPECT_EQ(tables.out.find("audit"), std::string::npos) << tables.out;

  // A restart resumes after what it committed: only the new message is applied.
  ASSERT_OK(Produce(topic, {KafkaMessage("4", Order("INSERT", 4, "pad"))}));
  r = RunSync("kafka_sync_database", warehouse.path(), topic, "canal-json",
              "--database ods --table_prefix p_ --table_suffix _s --excluding_tables 'audit.*'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadRows(warehouse.path(), "ods.p_orders_s"),
            Sorted({json{{"id", 1}, {"name", "red pen"}, {"qty", nullptr}},
                    json{{"id", 3}, {"name", "cup"}, {"qty", 5}},
                    json{{"id", 4}, {"name", "pad"}, {"qty", nullptr}}}));
}

TEST(KafkaSyncDatabaseTest, IncludingTablesSelectsByWholeName) {
  std::string topic = UniqueTopicName("include");
  ASSERT_OK(CreateTopic(topic, 2));
  ASSERT_OK(Produce(topic, {KafkaMessage("1", Order("INSERT", 1, "a", "orders"), 0),
                            KafkaMessage("2", Order("INSERT", 2, "b", "orders_history"), 1),
                            KafkaMessage("3", Order("INSERT", 3, "c", "refunds"), 1)}));
  TempDir warehouse;
  CommandResult r = RunSync("kafka_sync_database", warehouse.path(), topic, "canal-json",
                            "--database ods --including_tables 'orders|refunds'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  CommandResult tables = RunSluice("list ods --warehouse '" + warehouse.path() + "'");
  EXPECT_NE(tables.out.find("orders"), std::string::npos) << tables.out;
  EXPECT_NE(tables.out.find("refunds"), std::string::npos) << tables.out;
  EXPECT_EQ(tables.out.find("orders_history"), std::string::npos) << tables.out;
}

// Java SyncDatabaseActionFactoryBase's routing arguments on records of several source
// databases: the databases selected by --including_dbs / --excluding_dbs, a table mapped by
// --table_mapping (from two databases into one table), the affixes of a database
// (--table_prefix_db / --table_suffix_db) before the job's, a table's own partition keys
// (--multiple_table_partition_keys) and no keys taken from the records
// (--sync_primary_keys_from_source_schema false: append tables).
TEST(KafkaSyncDatabaseTest, JavasRoutingArgumentsOverSeveralDatabases) {
  std::string topic = UniqueTopicName("routing");
  ASSERT_OK(CreateTopic(topic, 1));
  const json user_types = {{"uid", "int(11)"}, {"email", "varchar(64)"}};
  auto message = [&](const std::string& database, const std::string& table, int64_t id,
                     const std::string& name) {
    return KafkaMessage(
        std::to_string(id),
        CanalMessage(database, table, "INSERT", {{"id", std::to_string(id)}, {"name", name}},
                     kOrderTypes, {"id"}));
  };
  ASSERT_OK(Produce(
      topic,
      {message("shop", "orders", 1, "pen"), message("crm_eu", "Orders", 2, "ink"),
       message("shop", "items", 3, "cup"), message("shop", "items", 4, "mug"),
       KafkaMessage("u", CanalMessage("crm_eu", "users", "INSERT", {{"uid", "7"}, {"email", "a@b"}},
                                      user_types, {"uid"})),
       message("audit", "orders", 5, "not synced: database not included"),
       message("crm_test", "orders", 6, "not synced: database excluded"),
       message("shop", "refunds", 8, "ok")}));
  TempDir warehouse;
  CommandResult r = RunSync(
      "kafka_sync_database", warehouse.path(), topic, "canal-json",
      "--database ods --table_prefix p_ --including_dbs 'shop|crm.*' --excluding_dbs crm_test "
      "--table_mapping orders=all_orders --table_prefix_db shop=s_ --table_suffix_db "
      "CRM_EU=_eu --multiple_table_partition_keys items=name --partition_keys id "
      "--sync_primary_keys_from_source_schema false");
  ASSERT_EQ(r.exit_code, 0) << r.err;

  CommandResult tables = RunSluice("list ods --warehouse '" + warehouse.path() + "'");
  EXPECT_EQ(tables.out, "all_orders\np_users_eu\ns_items\ns_refunds\n") << tables.out;
  EXPECT_EQ(ReadRows(warehouse.path(), "ods.all_orders"),
            Sorted({json{{"id", 1}, {"name", "pen"}}, json{{"id", 2}, {"name", "ink"}}}));
  EXPECT_EQ(ReadRows(warehouse.path(), "ods.s_items"),
            Sorted({json{{"id", 3}, {"name", "cup"}}, json{{"id", 4}, {"name", "mug"}}}));
  EXPECT_EQ(ReadRows(warehouse.path(), "ods.p_users_eu"),
            Sorted({json{{"uid", 7}, {"email", "a@b"}}}));
  json items = LatestSchema(warehouse.path(), "ods.s_items");
  EXPECT_EQ(items["partitionKeys"], json::array({"name"})) << items.dump();
  EXPECT_EQ(items["primaryKeys"], json::array()) << items.dump();
  // Tables without their own partition keys take --partition_keys.
  EXPECT_EQ(LatestSchema(warehouse.path(), "ods.s_refunds")["partitionKeys"], json::array({"id"}));
  // The users records name no `id`: --partition_keys is dropped there, as Java does.
  EXPECT_EQ(LatestSchema(warehouse.path(), "ods.p_users_eu")["partitionKeys"], json::array());
}

TEST(KafkaSyncTableTest, EveryRecordGoesIntoTheTableWithKeysFromArguments) {
  std::string topic = UniqueTopicName("synctable");
  ASSERT_OK(CreateTopic(topic, 1));
  ASSERT_OK(Produce(topic, {KafkaMessage("1", Order("INSERT", 1, "pen", "orders_1")),
                            KafkaMessage("2", Order("INSERT", 2, "ink", "orders_2")),
                            KafkaMessage("1", Order("UPDATE", 1, "cap", "orders_1"))}));
  TempDir warehouse;
  CommandResult r = RunSync("kafka_sync_table", warehouse.path(), topic, "canal-json",
                            "--database ods --table orders --primary_keys id "
                            "--metadata_column table_name,offset");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadRows(warehouse.path(), "ods.orders"),
            Sorted({json{{"id", 1}, {"name", "cap"}, {"table_name", "orders_1"}, {"offset", 2}},
                    json{{"id", 2}, {"name", "ink"}, {"table_name", "orders_2"}, {"offset", 1}}}));
}

// Java's PrefixedMetadataConverter: `--metadata_column_prefix` names the metadata columns, so a
// source column `offset` and the Kafka offset both fit in the table.
TEST(KafkaSyncTableTest, MetadataColumnPrefixNamesTheMetadataColumns) {
  std::string topic = UniqueTopicName("metaprefix");
  ASSERT_OK(CreateTopic(topic, 1));
  ASSERT_OK(Produce(topic, {KafkaMessage("1", Order("INSERT", 1, "pen", "orders_1")),
                            KafkaMessage("2", Order("INSERT", 2, "ink", "orders_2"))}));
  TempDir warehouse;
  CommandResult r = RunSync("kafka_sync_table", warehouse.path(), topic, "canal-json",
                            "--database ods --table orders --primary_keys id "
                            "--metadata_column table_name --metadata_column offset "
                            "--metadata_column_prefix __kafka_");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadRows(warehouse.path(), "ods.orders"),
            Sorted({json{{"id", 1},
                         {"name", "pen"},
                         {"__kafka_table_name", "orders_1"},
                         {"__kafka_offset", 0}},
                    json{{"id", 2},
                         {"name", "ink"},
                         {"__kafka_table_name", "orders_2"},
                         {"__kafka_offset", 1}}}));
}

TEST(KafkaSyncTableTest, MalformedMessageStopsTheJobNamingWhereItIs) {
  std::string topic = UniqueTopicName("malformed");
  ASSERT_OK(CreateTopic(topic, 1));
  ASSERT_OK(Produce(topic, {KafkaMessage("1", Order("INSERT", 1, "pen")),
                            KafkaMessage("2", std::string("{not json")),
                            KafkaMessage("3", Order("INSERT", 3, "cup"))}));
  TempDir warehouse;
  CommandResult r = RunSync("kafka_sync_table", warehouse.path(), topic, "canal-json",
                            "--database ods --table orders");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("topic " + topic + " partition 0 offset 1"), std::string::npos) << r.err;
  // What came before the bad message is committed.
  EXPECT_EQ(ReadRows(warehouse.path(), "ods.orders"), Sorted({json{{"id", 1}, {"name", "pen"}}}));

  // With a dead-letter table the message lands there and the job goes on.
  r = RunSync("kafka_sync_table", warehouse.path(), topic, "canal-json",
              "--database ods --table orders --dead_letter_table ods.dead_letters");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadRows(warehouse.path(), "ods.orders"),
            Sorted({json{{"id", 1}, {"name", "pen"}}, json{{"id", 3}, {"name", "cup"}}}));
  std::vector<json> letters = ReadRows(warehouse.path(), "ods.dead_letters");
  ASSERT_EQ(letters.size(), 1u);
  EXPECT_EQ(letters[0]["topic"], topic);
  EXPECT_EQ(letters[0]["offset"], 1);
  EXPECT_NE(letters[0]["error"].get<std::string>().find("JSON"), std::string::npos)
      << letters[0].dump();
}

TEST(KafkaSyncTableTest, BadArgumentsAreNamed) {
  TempDir warehouse;
  CommandResult r = RunSluice("action kafka_sync_table --warehouse '" + warehouse.path() +
                              "' --database ods --kafka_conf value.format=canal-json "
                              "--kafka_conf properties.sasl.password=hunter2 --tabel t");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--tabel"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("hunter2"), std::string::npos) << r.err;
  r = RunSluice("action no_such_action --warehouse w");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("unknown action 'no_such_action'"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace sluice
