// Exactly once across crashes: `sluice action kafka_sync_database` killed with SIGKILL at 20
// random points while it syncs a topic of inserts, updates and deletes into two primary-key
// tables and an append table, restarted each time; at the end every table equals the model of
// every message applied once, and `sluice check` finds nothing wrong. A second run of the
// scenario starts with a job that would run forever, ended by SIGTERM: it must commit and
// exit 0.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <random>
#include <thread>

#include "kafka_sync_test_util.h"

extern char** environ;

namespace sluice {
namespace {

using nlohmann::json;
using test::CanalMessage;
using test::CommandResult;
using test::CreateTopic;
using test::KafkaMessage;
using test::KafkaTestMessage;
using test::Produce;
using test::ReadRows;
using test::RunSluice;
using test::Sorted;
using test::TempDir;
using test::UniqueTopicName;

constexpr int kKills = 20;
constexpr int kMessages = 3000;
// The longest one run may take before the test gives up on it.
constexpr auto kRunDeadline = std::chrono::seconds(300);

// The snapshots of every table of `database`: what a run has committed so far.
int CountSnapshots(const std::string& warehouse, const std::string& database) {
  int count = 0;
  std::error_code ec;
  std::filesystem::path db = std::filesystem::path(warehouse) / (database + ".db");
  for (const auto& table : std::filesystem::directory_iterator(db, ec)) {
    std::filesystem::path snapshots = table.path() / "snapshot";
    for (const auto& file : std::filesystem::directory_iterator(snapshots, ec)) {
      if (file.path().filename().string().rfind("snapshot-", 0) == 0) ++count;
    }
  }
  return count;
}

// Runs the sync; sends it `signal` once the tables hold `kill_at` snapshots (unless it ends
// first), and waits for it. Returns the exit status (-N when signal N ended it).
int RunUntil(const std::vector<std::string>& args, const std::string& warehouse, int kill_at,
             const std::string& log, int signal = SIGKILL) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(),
                                   O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  std::vector<std::string> argv_text = args;
  std::vector<char*> argv;
  for (std::string& arg : argv_text) argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  EXPECT_EQ(posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&actions);
  auto deadline = std::chrono::steady_clock::now() + kRunDeadline;
  while (true) {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
    }
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      ADD_FAILURE() << "the sync did not end within the deadline";
      return -SIGKILL;
    }
    if (kill_at >= 0 && CountSnapshots(warehouse, "ods") >= kill_at) {
      ::kill(pid, signal);
      kill_at = -1;
      // A SIGTERM'd job commits and exits by itself; a SIGKILL'd one is reaped below.
      continue;
    }
    // Polls the table folders for the kill point (a condition, not a wait for time).
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

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
    ASSERT_EQ(RunUntil(continuous, warehouse.path(), 1, log, SIGTERM), 0)
        << test::ReadFileOrFail(log);
  }
  int killed = 0;
  for (int k = 0; k < kKills; ++k) {
    int kill_at = CountSnapshots(warehouse.path(), "ods") + 1 + static_cast<int>(rng() % 6);
    int status = RunUntil(args, warehouse.path(), kill_at, log);
    if (status == -SIGKILL) {
      ++killed;
    } else {
      ASSERT_EQ(status, 0) << test::ReadFileOrFail(log);
    }
  }
  int status = RunUntil(args, warehouse.path(), -1, log);
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
