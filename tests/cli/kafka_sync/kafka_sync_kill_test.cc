// Exactly once across crashes: `sluice action kafka_sync_database` killed with SIGKILL at 20
// random points while it syncs a topic of inserts, updates and deletes into two primary-key
// tables and an append table, restarted each time; at the end every table equals the model of
// every message applied once, and `sluice check` finds nothing wrong. A second run of the
// scenario starts with a job that would run forever, ended by SIGTERM: it must commit and
// exit 0.
#include <gtest/gtest.h>
#include <signal.h>

#include <map>
#include <random>

#include "kafka_sync_test_util.h"

namespace sluice {
namespace {

using nlohmann::json;
using test::CanalMessage;
using test::CommandResult;
using test::CountSnapshots;
using test::CreateTopic;
using test::KafkaMessage;
using test::KafkaTestMessage;
using test::Produce;
using test::ReadRows;
using test::RunSluice;
using test::RunUntil;
using test::Sorted;
using test::TempDir;
using test::UniqueTopicName;

constexpr int kKills = 20;
constexpr int kMessages = 3000;
// The parameter: whether the first run is a continuous one ended by SIGTERM.
class KafkaSyncKillTest : public ::testing::TestWithParam<bool> {};

TEST_P(KafkaSyncKillTest, EveryMessageAppliedOnceAcrossKills) {
  std::mt19937_64 rng(20261207);
  std::string topic = UniqueTopicName("kill");
  ASSERT_OK(CreateTopic(topic, 2));

  // The model: primary-key tables by key, the append table as a list.
  std::map<int, json> orders;
  std::map<int, json> stock;
  std::vector<json> events;
  const json order_types = {{"id", "int(11)"}, {"name", "varchar(32)"}, {"qty", "int(11)"}};
  const json stock_types = {{"sku", "int(11)"}, {"level", "bigint(20)"}};
  const json event_types = {{"seq", "int(11)"}, {"what", "varchar(16)"}};
  std::vector<KafkaTestMessage> messages;
  for (int i = 0; i < kMessages; ++i) {
    int pick = static_cast<int>(rng() % 3);
    if (pick == 0) {
      int id = static_cast<int>(rng() % 200);
      json row = {{"id", std::to_string(id)},
                  {"name", "n" + std::to_string(rng() % 1000)},
                  {"qty", std::to_string(rng() % 50)}};
      std::string type = orders.count(id) ? (rng() % 4 == 0 ? "DELETE" : "UPDATE") : "INSERT";
      if (type == "DELETE") {
        row = {{"id", std::to_string(id)},
               {"name", orders[id]["name"].get<std::string>()},
               {"qty", std::to_string(orders[id]["qty"].get<int>())}};
        orders.erase(id);
      } else {
        orders[id] = {
            {"id", id}, {"name", row["name"]}, {"qty", std::stoi(row["qty"].get<std::string>())}};
      }
      // One key, one partition: its changes stay in order.
      messages.push_back(
          KafkaMessage("o" + std::to_string(id),
                       CanalMessage("shop", "orders", type, row, order_types, {"id"}), id % 2));
    } else if (pick == 1) {
      int sku = static_cast<int>(rng() % 50);
      int64_t level = static_cast<int64_t>(rng() % 100000);
      std::string type = stock.count(sku) ? "UPDATE" : "INSERT";
      stock[sku] = {{"sku", sku}, {"level", level}};
      messages.push_back(KafkaMessage(
          "s" + std::to_string(sku),
          CanalMessage("shop", "stock", type,
                       {{"sku", std::to_string(sku)}, {"level", std::to_string(level)}},
                       stock_types, {"sku"}),
          sku % 2));
    } else {
      std::string what = "e" + std::to_string(rng() % 10);
      events.push_back({{"seq", i}, {"what", what}});
      messages.push_back(
          KafkaMessage("e",
                       CanalMessage("shop", "events", "INSERT",
                                    {{"seq", std::to_string(i)}, {"what", what}}, event_types, {}),
                       static_cast<int>(rng() % 2)));
    }
  }
  ASSERT_OK(Produce(topic, messages));

  TempDir warehouse;
  TempDir logs;
  const std::string log = logs.path() + "/sync.log";
  // Small buffers and a short interval: many commit rounds, so the kills land between and
  // inside them.
  std::vector<std::string> args = {test::BinaryDir() + "/sluice",
                                   "action",
                                   "kafka_sync_database",
                                   "--warehouse",
                                   warehouse.path(),
                                   "--database",
                                   "ods",
                                   "--kafka_conf",
                                   "properties.bootstrap.servers=" + test::KafkaBootstrap(),
                                   "--kafka_conf",
                                   "topic=" + topic,
                                   "--kafka_conf",
                                   "value.format=canal-json",
                                   "--kafka_conf",
                                   "scan.startup.mode=earliest-offset",
                                   "--commit_interval",
                                   "20 ms",
                                   "--max_buffered_bytes",
                                   "8 kb",
                                   "--stop_at_end",
                                   "true"};
  if (GetParam()) {
    // A job that does not stop at the end runs until a signal: SIGTERM commits what it read
    // and exits 0; the runs below go on from there.
    std::vector<std::string> continuous(args.begin(), args.end() - 2);
    ASSERT_EQ(RunUntil(continuous, warehouse.path(), "ods", 1, log, SIGTERM), 0)
        << test::ReadFileOrFail(log);
  }
  int killed = 0;
  for (int k = 0; k < kKills; ++k) {
    int kill_at = CountSnapshots(warehouse.path(), "ods") + 1 + static_cast<int>(rng() % 6);
    int status = RunUntil(args, warehouse.path(), "ods", kill_at, log);
    if (status == -SIGKILL) {
      ++killed;
    } else {
      ASSERT_EQ(status, 0) << test::ReadFileOrFail(log);
    }
  }
  int status = RunUntil(args, warehouse.path(), "ods", -1, log);
  ASSERT_EQ(status, 0) << test::ReadFileOrFail(log);
  std::printf("kafka sync kill: %d of %d runs killed, %d snapshots\n", killed, kKills,
              CountSnapshots(warehouse.path(), "ods"));
  EXPECT_GE(killed, kKills / 2) << "most runs should be killed before they end";

  std::vector<json> expected_orders;
  for (const auto& [id, row] : orders) expected_orders.push_back(row);
  std::vector<json> expected_stock;
  for (const auto& [sku, row] : stock) expected_stock.push_back(row);
  EXPECT_EQ(ReadRows(warehouse.path(), "ods.orders"), Sorted(expected_orders));
  EXPECT_EQ(ReadRows(warehouse.path(), "ods.stock"), Sorted(expected_stock));
  std::vector<json> read_events = ReadRows(warehouse.path(), "ods.events");
  // The sizes first: a duplicate or a lost row shows in them before the long lists.
  EXPECT_EQ(read_events.size(), events.size());
  EXPECT_EQ(read_events, Sorted(events));
  for (std::string_view table : {"ods.orders", "ods.stock", "ods.events"}) {
    CommandResult check =
        RunSluice("check " + std::string(table) + " --warehouse '" + warehouse.path() + "'");
    EXPECT_EQ(check.exit_code, 0) << table << ": " << check.out << check.err;
  }
}

INSTANTIATE_TEST_SUITE_P(FirstRun, KafkaSyncKillTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "SigtermFirst" : "KillsOnly";
                         });

}  // namespace
}  // namespace sluice
