// Exactly once across crashes, from a real database server: `sluice action
// <mysql|postgres>_sync_database` killed with SIGKILL at 20 random points while it copies the
// tables (the snapshot) and then follows the binlog / WAL, with inserts, updates and deletes
// arriving between the runs; restarted each time. At the end each primary-key table equals the
// source table, the append-only table (created before the sync, so the sync adds to it) holds
// each inserted row once, and `sluice check` finds nothing wrong.
#include <gtest/gtest.h>
#include <unistd.h>

#include <iterator>
#include <random>
#include <regex>

#include "kafka_sync_test_util.h"
#include "source_database.h"

namespace sluice {
namespace {

using nlohmann::json;
using test::CommandResult;
using test::CountSnapshots;
using test::ReadRows;
using test::RunSluice;
using test::RunUntil;
using test::SourceDatabase;
using test::TempDir;

constexpr int kKills = 20;

// A batch of random changes: orders upserted and deleted, stock levels set, events inserted
// (numbered on from `next_event`).
std::string Changes(const SourceDatabase& source, std::mt19937_64& rng, int* next_event,
                    int statements) {
  std::string sql;
  for (int i = 0; i < statements; ++i) {
    const int id = static_cast<int>(rng() % 3000);
    switch (rng() % 4) {
      case 0:
        sql += source.Upsert("orders", "id", {"id", "name", "qty"},
                             {std::to_string(id), "'n" + std::to_string(rng() % 1000) + "'",
                              std::to_string(rng() % 50)});
        break;
      case 1:
        sql += "DELETE FROM orders WHERE id = " + std::to_string(id) + ";\n";
        break;
      case 2:
        sql += "UPDATE stock SET level = " + std::to_string(rng() % 100000) +
               " WHERE sku = " + std::to_string(id % 500) + ";\n";
        break;
      default:
        sql += "INSERT INTO events VALUES (" + std::to_string((*next_event)++) + ", 'e" +
               std::to_string(rng() % 10) + "');\n";
        break;
    }
  }
  return sql;
}

class DbSyncKillTest : public ::testing::TestWithParam<const SourceDatabase*> {};

TEST_P(DbSyncKillTest, EveryChangeAppliedOnceAcrossKills) {
  const SourceDatabase& source = *GetParam();
  std::mt19937_64 rng(20261207);
  const std::string database = "kill_" + source.name + "_" + std::to_string(getpid());
  CommandResult r = source.CreateDatabase(database);
  ASSERT_EQ(r.exit_code, 0) << "is the server running (" << source.server_script << " start)? "
                            << r.out << r.err;
  // Tables large enough that a copy spans several messages, so that kills land inside copies.
  std::string setup =
      "CREATE TABLE orders (id INT PRIMARY KEY, name VARCHAR(16), qty INT);\n"
      "CREATE TABLE stock (sku INT PRIMARY KEY, level BIGINT);\n"
      "CREATE TABLE events (seq INT PRIMARY KEY, what VARCHAR(8));\n" +
      source.InsertSeries("orders", "n, CONCAT('o', n), n % 50", 0, 2999) + "\n" +
      source.InsertSeries("stock", "n, n * 10", 0, 499) + "\n";
  r = source.Sql(setup, database);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  int next_event = 0;
  r = source.Sql(Changes(source, rng, &next_event, 200), database);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;

  TempDir warehouse;
  // The append-only sink: the sync adds to an existing table as it finds it.
  r = RunSluice("create-database ods --warehouse '" + warehouse.path() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunSluice("create-table ods.events --warehouse '" + warehouse.path() +
                "' --column 'seq INT NOT NULL' --column 'what STRING'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  TempDir logs;
  const std::string log = logs.path() + "/sync.log";
  std::vector<std::string> args = {test::BinaryDir() + "/sluice",
                                   "action",
                                   source.action_prefix + "_sync_database",
                                   "--warehouse",
                                   warehouse.path(),
                                   "--database",
                                   "ods",
                                   "--commit_interval",
                                   "20 ms",
                                   "--stop_at_end",
                                   "true"};
  for (const std::string& arg : source.ConfArguments(database)) args.push_back(arg);
  args.push_back("--" + source.action_prefix + "_conf");
  args.push_back("scan.snapshot.fetch.size=100");
  int killed = 0;
  for (int k = 0; k < kKills; ++k) {
    const int kill_at = CountSnapshots(warehouse.path(), "ods") + 1 + static_cast<int>(rng() % 4);
    const int status = RunUntil(args, warehouse.path(), "ods", kill_at, log);
    if (status == -SIGKILL) {
      ++killed;
    } else {
      ASSERT_EQ(status, 0) << test::ReadFileOrFail(log);
    }
    r = source.Sql(Changes(source, rng, &next_event, 100), database);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  }
  ASSERT_EQ(RunUntil(args, warehouse.path(), "ods", -1, log), 0) << test::ReadFileOrFail(log);
  // Runs that resumed a snapshot an earlier run had begun: "snapshot of 2 tables (1 copied
  // before)" (both numbers above zero).
  const std::string text = test::ReadFileOrFail(log);
  const std::regex resumed(R"(snapshot of ([1-9]\d*) tables \(([1-9]\d*) copied before\))");
  const auto restarts_mid_snapshot = static_cast<size_t>(std::distance(
      std::sregex_iterator(text.begin(), text.end(), resumed), std::sregex_iterator()));
  std::printf(
      "%s sync kill: %d of %d runs killed, %d snapshots, %d events, %zu runs resumed a "
      "snapshot other runs had begun\n",
      source.name.c_str(), killed, kKills, CountSnapshots(warehouse.path(), "ods"), next_event,
      restarts_mid_snapshot);
  EXPECT_GE(killed, kKills / 2) << "most runs should be killed before they end";

  EXPECT_EQ(ReadRows(warehouse.path(), "ods.orders"),
            source.Rows(database, "orders", {"id", "name", "qty"}));
  EXPECT_EQ(ReadRows(warehouse.path(), "ods.stock"),
            source.Rows(database, "stock", {"sku", "level"}));
  const std::vector<json> events = ReadRows(warehouse.path(), "ods.events");
  // The sizes first: a duplicate or a lost row shows in them before the long lists.
  EXPECT_EQ(events.size(), static_cast<size_t>(next_event));
  EXPECT_EQ(events, source.Rows(database, "events", {"seq", "what"}));
  for (std::string_view table : {"ods.orders", "ods.stock", "ods.events"}) {
    CommandResult check =
        RunSluice("check " + std::string(table) + " --warehouse '" + warehouse.path() + "'");
    EXPECT_EQ(check.exit_code, 0) << table << ": " << check.out << check.err;
  }
  source.DropDatabase(database);
}

INSTANTIATE_TEST_SUITE_P(Source, DbSyncKillTest,
                         ::testing::Values(&test::MariaDbSource(), &test::PostgresSource()),
                         [](const ::testing::TestParamInfo<const SourceDatabase*>& info) {
                           return info.param->name;
                         });

}  // namespace
}  // namespace sluice
