// Exactly once across crashes, from a real MariaDB server: `sluice action mysql_sync_database`
// killed with SIGKILL at 20 random points while it copies the tables (the snapshot) and then
// follows the binlog, with inserts, updates and deletes arriving between the runs; restarted each
// time. At the end each primary-key table equals MariaDB's table, the append-only table (created
// before the sync, so the sync adds to it) holds each inserted row once, and `sluice check`
// finds nothing wrong.
#include <gtest/gtest.h>
#include <unistd.h>

#include <random>

#include "kafka_sync_test_util.h"
#include "mariadb_test_util.h"

namespace sluice {
namespace {

using nlohmann::json;
using test::CommandResult;
using test::CountSnapshots;
using test::MariaDb;
using test::MariaDbPort;
using test::ReadRows;
using test::RunSluice;
using test::RunUntil;
using test::Sorted;
using test::TempDir;

constexpr int kKills = 20;

// MariaDB's rows of `table` as JSON objects, numbers as numbers.
std::vector<json> SourceRows(const std::string& database, const std::string& table,
                             const std::vector<std::string>& columns) {
  std::string select = "SELECT JSON_OBJECT(";
  for (size_t i = 0; i < columns.size(); ++i) {
    select += (i > 0 ? ", '" : "'") + columns[i] + "', " + columns[i];
  }
  CommandResult r = MariaDb(select + ") FROM " + table, database);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<json> rows;
  std::istringstream lines(r.out);
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.empty()) rows.push_back(json::parse(line));
  }
  return Sorted(std::move(rows));
}

// A batch of random changes: orders upserted and deleted, stock levels set, events inserted
// (numbered on from `next_event`).
std::string Changes(std::mt19937_64& rng, int* next_event, int statements) {
  std::string sql;
  for (int i = 0; i < statements; ++i) {
    const int id = static_cast<int>(rng() % 3000);
    switch (rng() % 4) {
      case 0:
        sql += "REPLACE INTO orders VALUES (" + std::to_string(id) + ", 'n" +
               std::to_string(rng() % 1000) + "', " + std::to_string(rng() % 50) + ");\n";
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

TEST(MySqlSyncKillTest, EveryChangeAppliedOnceAcrossKills) {
  std::mt19937_64 rng(20261207);
  const std::string database = "mkill_" + std::to_string(getpid());
  CommandResult r =
      MariaDb("DROP DATABASE IF EXISTS " + database + "; CREATE DATABASE " + database + ";");
  ASSERT_EQ(r.exit_code, 0) << "is MariaDB running (scripts/mariadb.sh start)? " << r.err;
  // Tables large enough that a copy spans several messages, so that kills land inside copies.
  std::string setup =
      "CREATE TABLE orders (id INT PRIMARY KEY, name VARCHAR(16), qty INT);\n"
      "CREATE TABLE stock (sku INT PRIMARY KEY, level BIGINT);\n"
      "CREATE TABLE events (seq INT PRIMARY KEY, what VARCHAR(8));\n"
      "INSERT INTO orders SELECT seq, CONCAT('o', seq), seq % 50 FROM seq_0_to_2999;\n"
      "INSERT INTO stock SELECT seq, seq * 10 FROM seq_0_to_499;\n";
  r = MariaDb(setup, database);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  int next_event = 0;
  r = MariaDb(Changes(rng, &next_event, 200), database);
  ASSERT_EQ(r.exit_code, 0) << r.err;

  TempDir warehouse;
  // The append-only sink: the sync adds to an existing table as it finds it.
  r = RunSluice("create-database ods --warehouse '" + warehouse.path() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunSluice("create-table ods.events --warehouse '" + warehouse.path() +
                "' --column 'seq INT NOT NULL' --column 'what STRING'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  TempDir logs;
  const std::string log = logs.path() + "/sync.log";
  const std::vector<std::string> args = {test::BinaryDir() + "/sluice",
                                         "action",
                                         "mysql_sync_database",
                                         "--warehouse",
                                         warehouse.path(),
                                         "--database",
                                         "ods",
                                         "--mysql_conf",
                                         "hostname=127.0.0.1",
                                         "--mysql_conf",
                                         "port=" + MariaDbPort(),
                                         "--mysql_conf",
                                         "username=sluice",
                                         "--mysql_conf",
                                         "password=sluice",
                                         "--mysql_conf",
                                         "database-name=" + database,
                                         "--mysql_conf",
                                         "scan.snapshot.fetch.size=100",
                                         "--commit_interval",
                                         "20 ms",
                                         "--stop_at_end",
                                         "true"};
  int killed = 0;
  for (int k = 0; k < kKills; ++k) {
    const int kill_at = CountSnapshots(warehouse.path(), "ods") + 1 + static_cast<int>(rng() % 4);
    const int status = RunUntil(args, warehouse.path(), "ods", kill_at, log);
    if (status == -SIGKILL) {
      ++killed;
    } else {
      ASSERT_EQ(status, 0) << test::ReadFileOrFail(log);
    }
    r = MariaDb(Changes(rng, &next_event, 100), database);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  ASSERT_EQ(RunUntil(args, warehouse.path(), "ods", -1, log), 0) << test::ReadFileOrFail(log);
  std::printf("mysql sync kill: %d of %d runs killed, %d snapshots, %d events\n", killed, kKills,
              CountSnapshots(warehouse.path(), "ods"), next_event);
  EXPECT_GE(killed, kKills / 2) << "most runs should be killed before they end";

  EXPECT_EQ(ReadRows(warehouse.path(), "ods.orders"),
            SourceRows(database, "orders", {"id", "name", "qty"}));
  EXPECT_EQ(ReadRows(warehouse.path(), "ods.stock"),
            SourceRows(database, "stock", {"sku", "level"}));
  const std::vector<json> events = ReadRows(warehouse.path(), "ods.events");
  // The sizes first: a duplicate or a lost row shows in them before the long lists.
  EXPECT_EQ(events.size(), static_cast<size_t>(next_event));
  EXPECT_EQ(events, SourceRows(database, "events", {"seq", "what"}));
  for (std::string_view table : {"ods.orders", "ods.stock", "ods.events"}) {
    CommandResult check =
        RunSluice("check " + std::string(table) + " --warehouse '" + warehouse.path() + "'");
    EXPECT_EQ(check.exit_code, 0) << table << ": " << check.out << check.err;
  }
  MariaDb("DROP DATABASE IF EXISTS " + database);
}

}  // namespace
}  // namespace sluice
