// cdc_mysql_bench: `sluice action mysql_sync_database` from a real MariaDB server (issue 32).
// What it shares with cdc_postgres_bench (the workload, the phases, Debezium, the latency run)
// is in cdc_database_bench.h.
//
//   cdc_mysql_bench [--rows N] [--dir DIR]
//
// The server is scripts/mariadb.sh's on port 13596 (started when not running, then stopped at
// the end, also of a failed run; a running one is reused and left running), with a 512 MB buffer
// pool and innodb_flush_log_at_trx_commit=2 set for the run. Database `bench` holds 10 tables
// t0..t9 (id BIGINT primary key, name VARCHAR(64), qty INT, price DECIMAL(10,2), version INT,
// updated_at DATETIME(6), stamp BIGINT), N rows in all (default 1,000,000), loaded with SQL from
// the sequence engine (not measured).
//
// Snapshot: `sluice action mysql_sync_database ... --commit_interval '1 s' --stop_at_end true`
// (the release binary, a child process) copies the tables in a consistent snapshot and reads
// the binlog to its end: snapshot_rows_per_s = N / the child's wall time.
//
// Binlog: then N row changes, 60% inserts, 30% updates (every column but the key), 10% deletes,
// in single-statement transactions of 10 rows over the tables in turn (not measured); the same
// command again resumes from the committed binlog position and applies them:
// binlog_rows_per_s = N / the child's wall time; its CPU (user + system, wait4) is Sluice's
// cost of the changes (decode + write + commit, process start and the final commit included).
// Every table is checked against the server's row count after each phase.
//
// Debezium: bench/debezium's DebeziumDecode (Debezium 3.5.0.Final embedded, its MariaDB
// connector, JsonConverter without schemas) decodes the same binlog from the position where the
// changes began until it has seen N change events; vs_debezium = Debezium's CPU from its
// engine's start to the last event (connector start, schema recovery, decoding, JSON) / Sluice's
// binlog-phase CPU. Its CPU over the events alone (first to last) is printed too.
//
// End to end: database `live` (10 tables of 1,000 rows) synced by a running
// `mysql_sync_database --commit_interval '1 s'`; one follower `sluice read live.tN --follow`
// per table; a client commits 5,000 row changes/s (the same mix, one transaction per
// millisecond holding the changes due) for 20 s, each changed row stamped with its
// transaction's number; latency = when the follower's line arrives - when the transaction's
// COMMIT returned, over every inserted or updated row printed (a deleted row prints its older
// image, so deletes are applied but not timed).
//
// rss_mb is the larger peak resident set of the snapshot and binlog children. The last line is
// "RESULT snapshot_rows_per_s=.. binlog_rows_per_s=.. vs_debezium=.. e2e_p99_ms=.. rss_mb=..
// e2e_p50_ms=.. sluice_binlog_cpu_s=.. debezium_cpu_s=..".
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "bench_common.h"
#include "cdc_bench_util.h"
#include "cdc_database_bench.h"
#include "sluice/cdc/mysql/mysql_connection.h"
#include "stream_workload.h"

namespace sluice::bench {
namespace {

constexpr int kPort = 13596;
constexpr int64_t kRowsPerStatement = 10;
constexpr int64_t kLiveRowsPerTable = 1000;

const std::string kSluice = SLUICE_BENCH_SLUICE;
const std::string kMariaDbSh = SLUICE_BENCH_MARIADB_SH;
const std::string kDebeziumDir = SLUICE_BENCH_DEBEZIUM_DIR;

std::unique_ptr<MySqlConnection> Connect() {
  MySqlConnectOptions options;
  options.port = kPort;
  options.user = "sluice";
  options.password = "sluice";
  auto connection = MySqlConnection::Connect(options);
  if (!connection.ok()) Die(connection.status().ToString());
  return std::move(*connection);
}

void Execute(MySqlConnection& db, const std::string& sql) {
  Status st = db.Execute(sql);
  if (!st.ok()) Die(st.ToString());
}

std::vector<MySqlRow> Query(MySqlConnection& db, const std::string& sql) {
  auto rows = db.Query(sql);
  if (!rows.ok()) Die(rows.status().ToString());
  return std::move(*rows);
}

int64_t QueryInt(MySqlConnection& db, const std::string& sql) {
  std::vector<MySqlRow> rows = Query(db, sql);
  if (rows.size() != 1 || rows[0].empty() || !rows[0][0]) Die("no value: " + sql);
  return std::atoll(rows[0][0]->c_str());
}

std::string Table(const std::string& database, int t) { return database + "." + TableName(t); }

// Creates `database` with kSourceTables tables of `rows_per_table` rows (ids 1..rows_per_table).
void CreateTables(MySqlConnection& db, const std::string& database, int64_t rows_per_table) {
  Execute(db, "DROP DATABASE IF EXISTS " + database);
  Execute(db, "CREATE DATABASE " + database);
  for (int t = 0; t < kSourceTables; ++t) {
    Execute(db, "CREATE TABLE " + Table(database, t) +
                    " (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(64) NOT NULL, qty INT NOT "
                    "NULL, price DECIMAL(10,2) NOT NULL, version INT NOT NULL, updated_at "
                    "DATETIME(6) NOT NULL, stamp BIGINT NOT NULL)");
    for (int64_t from = 1; from <= rows_per_table; from += 100000) {
      const int64_t to = std::min(rows_per_table, from + 99999);
      Execute(db, "INSERT INTO " + Table(database, t) +
                      " SELECT seq, CONCAT('customer-', seq), seq % 100, (seq % 100000) / 100, 0,"
                      " TIMESTAMP'2024-01-01 00:00:00' + INTERVAL seq SECOND, 0 FROM " +
                      database + ".seq_" + std::to_string(from) + "_to_" + std::to_string(to));
    }
  }
}

// The SQL of `change` in `database`, its rows stamped `stamp` (rows from the sequence engine).
std::string ChangeSql(const std::string& database, const PlannedChange& change, int64_t stamp) {
  const std::string table = Table(database, change.table);
  const std::string first = std::to_string(change.first_id);
  const std::string last = std::to_string(change.last_id);
  switch (change.kind) {
    case ChangeKind::kInsert:
      return "INSERT INTO " + table +
             " SELECT seq, CONCAT('customer-', seq), seq % 100, (seq % 100000) / 100, 0, "
             "NOW(6), " +
             std::to_string(stamp) + " FROM " + database + ".seq_" + first + "_to_" + last;
    case ChangeKind::kUpdate:
      return "UPDATE " + table +
             " SET qty = qty + 1, price = price + 0.01, version = version + 1, name = "
             "CONCAT('customer-', id, '-', version), updated_at = NOW(6), stamp = " +
             std::to_string(stamp) + " WHERE id BETWEEN " + first + " AND " + last;
    case ChangeKind::kDelete:
      return "DELETE FROM " + table + " WHERE id BETWEEN " + first + " AND " + last;
  }
  return "";
}

std::vector<std::string> SyncCommand(const std::string& warehouse, const std::string& database,
                                     bool stop_at_end) {
  std::vector<std::string> argv = {kSluice,
                                   "action",
                                   "mysql_sync_database",
                                   "--warehouse",
                                   warehouse,
                                   "--database",
                                   database,
                                   "--commit_interval",
                                   "1 s",
                                   "--mysql_conf",
                                   "hostname=127.0.0.1",
                                   "--mysql_conf",
                                   "port=" + std::to_string(kPort),
                                   "--mysql_conf",
                                   "username=sluice",
                                   "--mysql_conf",
                                   "password=sluice",
                                   "--mysql_conf",
                                   "database-name=" + database};
  if (stop_at_end) {
    argv.push_back("--stop_at_end");
    argv.push_back("true");
  }
  return argv;
}

// Every Sluice table holds as many rows as its source table.
void Verify(MySqlConnection& db, const std::string& warehouse, const std::string& database) {
  VerifyTables(warehouse, database,
               [&](int t) { return QueryInt(db, "SELECT COUNT(*) FROM " + Table(database, t)); });
}

struct BinlogStart {
  std::string file;
  int64_t position = 0;
  std::string gtids;
};

BinlogStart MasterPosition(MySqlConnection& db) {
  std::vector<MySqlRow> rows = Query(db, "SHOW MASTER STATUS");
  if (rows.size() != 1 || rows[0].size() < 2 || !rows[0][0] || !rows[0][1]) {
    Die("SHOW MASTER STATUS: no binlog");
  }
  BinlogStart start{*rows[0][0], std::atoll(rows[0][1]->c_str()), ""};
  rows = Query(
      db, "SELECT BINLOG_GTID_POS('" + start.file + "', " + std::to_string(start.position) + ")");
  if (rows.size() == 1 && !rows[0].empty() && rows[0][0]) start.gtids = *rows[0][0];
  return start;
}

DebeziumResult RunDebeziumFrom(const Args& args, const BinlogStart& start, int64_t changes) {
  return RunDebezium(
      kDebeziumDir, "org.sluice.bench.DebeziumDecode",
      {"--db-port", std::to_string(kPort), "--db-user", "sluice", "--db-password", "sluice",
       "--database", "bench", "--server-id", "5401", "--binlog-file", start.file, "--binlog-pos",
       std::to_string(start.position), "--gtids", start.gtids},
      args.dir + "/debezium.log", changes);
}

std::vector<double> RunLatency(const Args& args, MySqlConnection& db) {
  LiveOptions options;
  options.sluice = kSluice;
  options.warehouse = args.dir + "/live";
  options.database = "live";
  options.dir = args.dir;
  options.sync_argv = SyncCommand(options.warehouse, "live", /*stop_at_end=*/false);
  CreateTables(db, "live", kLiveRowsPerTable);
  ChangeWorkload workload(kLiveRowsPerTable);
  std::vector<double> latency_ms = RunLive(options, [&](int64_t txn, int64_t changes) {
    const PlannedChange change = workload.Next(txn - 1, changes);
    Execute(db, ChangeSql("live", change, txn));
    return change.kind == ChangeKind::kDelete ? 0 : changes;
  });
  Verify(db, options.warehouse, "live");
  return latency_ms;
}

}  // namespace
}  // namespace sluice::bench

int main(int argc, char** argv) {
  using namespace sluice::bench;
  const Args args = ParseArgs(argc, argv, "cdc_mysql_bench", 1000000);
  std::filesystem::remove_all(args.dir);
  std::filesystem::create_directories(args.dir);
  StartServer(kMariaDbSh, kPort);
  auto db = Connect();
  Execute(*db, "SET GLOBAL innodb_buffer_pool_size = 536870912");
  Execute(*db, "SET GLOBAL innodb_flush_log_at_trx_commit = 2");

  const int64_t rows_per_table = (args.rows + kSourceTables - 1) / kSourceTables;
  const int64_t rows = rows_per_table * kSourceTables;
  {
    const Clock load = Now();
    CreateTables(*db, "bench", rows_per_table);
    std::printf("loaded %lld rows into bench.t0..t%d in %.1f s\n", static_cast<long long>(rows),
                kSourceTables - 1, Since(load).wall);
    std::fflush(stdout);
  }
  const std::string warehouse = args.dir + "/warehouse";
  const ChildUsage snapshot = RunSyncToEnd(SyncCommand(warehouse, "bench", /*stop_at_end=*/true),
                                           args.dir + "/sync_snapshot.log");
  PrintChildUsage("snapshot", snapshot, rows);
  Verify(*db, warehouse, "bench");

  const BinlogStart binlog_start = MasterPosition(*db);
  const int64_t changes = rows;
  {
    const Clock change = Now();
    ChangeWorkload workload(rows_per_table);
    for (int64_t s = 0, done = 0; done < changes; ++s) {
      const int64_t n = std::min(kRowsPerStatement, changes - done);
      Execute(*db, ChangeSql("bench", workload.Next(s, n), s + 1));
      done += n;
    }
    std::printf("committed %lld row changes from %s:%lld (GTID %s) in %.1f s\n",
                static_cast<long long>(changes), binlog_start.file.c_str(),
                static_cast<long long>(binlog_start.position), binlog_start.gtids.c_str(),
                Since(change).wall);
    std::fflush(stdout);
  }
  const ChildUsage binlog = RunSyncToEnd(SyncCommand(warehouse, "bench", /*stop_at_end=*/true),
                                         args.dir + "/sync_binlog.log");
  PrintChildUsage("binlog", binlog, changes);
  Verify(*db, warehouse, "bench");

  const DebeziumResult debezium = RunDebeziumFrom(args, binlog_start, changes);

  std::vector<double> latency_ms = RunLatency(args, *db);
  db.reset();
  StopServer();
  PrintResult("binlog", rows, changes, snapshot, binlog, debezium, &latency_ms);
  return 0;
}
