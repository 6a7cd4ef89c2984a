// cdc_postgres_bench: `sluice action postgres_sync_database` from a real PostgreSQL server
// (issue 32), the workload and measurement of cdc_mysql_bench (cdc_database_bench.h).
//
//   cdc_postgres_bench [--rows N] [--dir DIR]
//
// The server is scripts/postgres.sh's on port 15596 (started when not running, then stopped at
// the end, also of a failed run; a running one is reused and left running, the benchmark's slots
// dropped). Database `bench` holds 10 tables public.t0..t9 (id BIGINT primary key, name
// VARCHAR(64), qty INT, price NUMERIC(10,2), version INT, updated_at TIMESTAMP(6), stamp BIGINT,
// all NOT NULL), N rows in all (default 1,000,000), loaded with INSERT ... SELECT FROM
// generate_series (not measured). The tables have REPLICA IDENTITY FULL: updates and deletes carry
// the whole old row, as cdc_mysql_bench's binlog rows do (binlog_row_image=FULL). With the default
// identity, a delete carries only the key, and the sync fails on it: "Cannot write null to non-null
// column(name)".
//
// Snapshot: `sluice action postgres_sync_database ... --postgres_conf slot.name=sluice_bench
// --commit_interval '1 s' --stop_at_end true` (the release binary, a child process) creates its
// slot, copies the tables under the slot's exported snapshot and reads the WAL to its end:
// snapshot_rows_per_s = N / the child's wall time.
//
// WAL: Debezium's slot (sluice_bench_debezium, pgoutput, with a publication of its own FOR ALL
// TABLES) is created here, then N row changes are committed, 60% inserts, 30% updates (every
// column but the key), 10% deletes, in single-statement transactions of 10 rows over the tables
// in turn (synchronous_commit off for this client; not measured); the same command again resumes
// from its committed LSN and applies them: wal_rows_per_s = N / the child's wall time; its CPU
// (user + system, wait4) is Sluice's cost of the changes (decode + write + commit, process start
// and the final commit included). Every table is checked against the server's row count after
// each phase. The walsenders' pgoutput encoding runs in the server for both sides and is
// counted for neither.
//
// Debezium: bench/debezium's DebeziumPostgresDecode (Debezium 3.5.0.Final embedded, its
// PostgreSQL connector with plugin.name=pgoutput and snapshot.mode=no_data, JsonConverter
// without schemas) streams its slot from where it was created until it has seen N change
// events; vs_debezium = Debezium's CPU from its engine's start to the last event (connector
// start, type registry, decoding, JSON) / Sluice's WAL-phase CPU. Its CPU over the events alone
// (first to last) is printed too.
//
// End to end: database `live` (10 tables of 1,000 rows) synced by a running
// `postgres_sync_database --commit_interval '1 s'`; one follower `sluice read live.tN --follow`
// per table; a client commits 5,000 row changes/s (the same mix, one transaction per
// millisecond holding the changes due; synchronous_commit on, the server's default, as the
// walsender sends only flushed WAL) for 20 s, each changed row stamped with its transaction's
// number; latency = when the follower's line arrives - when the transaction's COMMIT returned,
// over every inserted or updated row printed.
//
// rss_mb is the larger peak resident set of the snapshot and WAL children. The last line is
// "RESULT snapshot_rows_per_s=.. wal_rows_per_s=.. vs_debezium=.. e2e_p99_ms=.. rss_mb=..
// e2e_p50_ms=.. sluice_wal_cpu_s=.. debezium_cpu_s=..".
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
#include "sluice/cdc/postgres/postgres_connection.h"

namespace sluice::bench {
namespace {

constexpr int kPort = 15596;
constexpr int64_t kRowsPerStatement = 10;
constexpr int64_t kLiveRowsPerTable = 1000;
constexpr const char* kDebeziumSlot = "sluice_bench_debezium";

const std::string kSluice = SLUICE_BENCH_SLUICE;
const std::string kPostgresSh = SLUICE_BENCH_POSTGRES_SH;
const std::string kDebeziumDir = SLUICE_BENCH_DEBEZIUM_DIR;

std::unique_ptr<PostgresConnection> Connect(const std::string& database) {
  PostgresConnectOptions options;
  options.port = kPort;
  options.user = "sluice";
  options.password = "sluice";
  options.database = database;
  auto connection = PostgresConnection::Connect(options);
  if (!connection.ok()) Die(connection.status().ToString());
  return std::move(*connection);
}

std::vector<PostgresRow> Query(PostgresConnection& db, const std::string& sql) {
  auto rows = db.Query(sql);
  if (!rows.ok()) Die(rows.status().ToString());
  return std::move(*rows);
}

void Execute(PostgresConnection& db, const std::string& sql) { Query(db, sql); }

std::string QueryText(PostgresConnection& db, const std::string& sql) {
  std::vector<PostgresRow> rows = Query(db, sql);
  if (rows.size() != 1 || rows[0].empty() || !rows[0][0]) Die("no value: " + sql);
  return *rows[0][0];
}

// The slots of the benchmark's databases, left by an earlier run on a reused server.
void DropSlots(PostgresConnection& admin, const std::string& database) {
  Execute(admin,
          "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE database "
          "= " +
              admin.QuoteLiteral(database));
}

// Creates `database` afresh with kSourceTables tables of `rows_per_table` rows (ids
// 1..rows_per_table); returns a connection to it.
std::unique_ptr<PostgresConnection> CreateTables(PostgresConnection& admin,
                                                 const std::string& database,
                                                 int64_t rows_per_table) {
  DropSlots(admin, database);
  Execute(admin, "DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
  Execute(admin, "CREATE DATABASE " + database);
  auto db = Connect(database);
  for (int t = 0; t < kSourceTables; ++t) {
    Execute(*db, "CREATE TABLE " + TableName(t) +
                     " (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(64) NOT NULL, qty INT NOT "
                     "NULL, price NUMERIC(10,2) NOT NULL, version INT NOT NULL, updated_at "
                     "TIMESTAMP(6) NOT NULL, stamp BIGINT NOT NULL)");
    Execute(*db, "INSERT INTO " + TableName(t) +
                     " SELECT g, 'customer-' || g, g % 100, (g % 100000) / 100.0, 0, TIMESTAMP "
                     "'2024-01-01 00:00:00' + g * INTERVAL '1 second', 0 FROM generate_series(1, " +
                     std::to_string(rows_per_table) + ") g");
    Execute(*db, "ALTER TABLE " + TableName(t) + " REPLICA IDENTITY FULL");
  }
  Execute(*db, "CHECKPOINT");
  return db;
}

// The SQL of `change`, its rows stamped `stamp`.
std::string ChangeSql(const PlannedChange& change, int64_t stamp) {
  const std::string table = TableName(change.table);
  const std::string first = std::to_string(change.first_id);
  const std::string last = std::to_string(change.last_id);
  switch (change.kind) {
    case ChangeKind::kInsert:
      return "INSERT INTO " + table +
             " SELECT g, 'customer-' || g, g % 100, (g % 100000) / 100.0, 0, LOCALTIMESTAMP, " +
             std::to_string(stamp) + " FROM generate_series(" + first + ", " + last + ") g";
    case ChangeKind::kUpdate:
      return "UPDATE " + table +
             " SET qty = qty + 1, price = price + 0.01, version = version + 1, name = "
             "'customer-' || id || '-' || version, updated_at = LOCALTIMESTAMP, stamp = " +
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
                                   "postgres_sync_database",
                                   "--warehouse",
                                   warehouse,
                                   "--database",
                                   database,
                                   "--commit_interval",
                                   "1 s",
                                   "--postgres_conf",
                                   "hostname=127.0.0.1",
                                   "--postgres_conf",
                                   "port=" + std::to_string(kPort),
                                   "--postgres_conf",
                                   "username=sluice",
                                   "--postgres_conf",
                                   "password=sluice",
                                   "--postgres_conf",
                                   "database-name=" + database,
                                   "--postgres_conf",
                                   "schema-name=public",
                                   "--postgres_conf",
                                   "slot.name=sluice_" + database,
                                   "--postgres_conf",
                                   "decoding.plugin.name=pgoutput"};
  if (stop_at_end) {
    argv.push_back("--stop_at_end");
    argv.push_back("true");
  }
  return argv;
}

// Every Sluice table holds as many rows as its source table.
void Verify(PostgresConnection& db, const std::string& warehouse, const std::string& database) {
  VerifyTables(warehouse, database, [&](int t) {
    return std::atoll(QueryText(db, "SELECT count(*) FROM " + TableName(t)).c_str());
  });
}

std::vector<double> RunLatency(const Args& args, PostgresConnection& admin) {
  LiveOptions options;
  options.sluice = kSluice;
  options.warehouse = args.dir + "/live";
  options.database = "live";
  options.dir = args.dir;
  options.sync_argv = SyncCommand(options.warehouse, "live", /*stop_at_end=*/false);
  auto db = CreateTables(admin, "live", kLiveRowsPerTable);
  ChangeWorkload workload(kLiveRowsPerTable);
  std::vector<double> latency_ms = RunLive(options, [&](int64_t txn, int64_t changes) {
    const PlannedChange change = workload.Next(txn - 1, changes);
    Execute(*db, ChangeSql(change, txn));
    return change.kind == ChangeKind::kDelete ? 0 : changes;
  });
  Verify(*db, options.warehouse, "live");
  return latency_ms;
}

}  // namespace
}  // namespace sluice::bench

int main(int argc, char** argv) {
  using namespace sluice::bench;
  const Args args = ParseArgs(argc, argv, "cdc_postgres_bench", 1000000);
  std::filesystem::remove_all(args.dir);
  std::filesystem::create_directories(args.dir);
  StartServer(kPostgresSh, kPort);
  auto admin = Connect("sluice");
  // Not the NOTICEs of DROP ... IF EXISTS.
  Execute(*admin, "SET client_min_messages = warning");

  const int64_t rows_per_table = (args.rows + kSourceTables - 1) / kSourceTables;
  const int64_t rows = rows_per_table * kSourceTables;
  std::unique_ptr<sluice::PostgresConnection> db;
  {
    const Clock load = Now();
    db = CreateTables(*admin, "bench", rows_per_table);
    std::printf("loaded %lld rows into bench.public.t0..t%d in %.1f s\n",
                static_cast<long long>(rows), kSourceTables - 1, Since(load).wall);
    std::fflush(stdout);
  }
  const std::string warehouse = args.dir + "/warehouse";
  const ChildUsage snapshot = RunSyncToEnd(SyncCommand(warehouse, "bench", /*stop_at_end=*/true),
                                           args.dir + "/sync_snapshot.log");
  PrintChildUsage("snapshot", snapshot, rows);
  Verify(*db, warehouse, "bench");

  // Debezium's own publication and slot, at the position where the changes begin.
  Execute(*db, std::string("CREATE PUBLICATION ") + kDebeziumSlot + " FOR ALL TABLES");
  const std::string wal_start =
      QueryText(*db, std::string("SELECT lsn FROM pg_create_logical_replication_slot('") +
                         kDebeziumSlot + "', 'pgoutput')");
  const int64_t changes = rows;
  {
    const Clock change = Now();
    Execute(*db, "SET synchronous_commit = off");
    ChangeWorkload workload(rows_per_table);
    for (int64_t s = 0, done = 0; done < changes; ++s) {
      const int64_t n = std::min(kRowsPerStatement, changes - done);
      Execute(*db, ChangeSql(workload.Next(s, n), s + 1));
      done += n;
    }
    Execute(*db, "SET synchronous_commit = on");
    std::printf("committed %lld row changes from LSN %s in %.1f s (WAL up to %s)\n",
                static_cast<long long>(changes), wal_start.c_str(), Since(change).wall,
                QueryText(*db, "SELECT pg_current_wal_lsn()").c_str());
    std::fflush(stdout);
  }
  const ChildUsage wal = RunSyncToEnd(SyncCommand(warehouse, "bench", /*stop_at_end=*/true),
                                      args.dir + "/sync_wal.log");
  PrintChildUsage("wal", wal, changes);
  Verify(*db, warehouse, "bench");

  const DebeziumResult debezium = RunDebezium(
      kDebeziumDir, "org.sluice.bench.DebeziumPostgresDecode",
      {"--db-port", std::to_string(kPort), "--db-user", "sluice", "--db-password", "sluice",
       "--database", "bench", "--slot", kDebeziumSlot, "--publication", kDebeziumSlot},
      args.dir + "/debezium.log", changes);
  db.reset();

  std::vector<double> latency_ms = RunLatency(args, *admin);
  // The slots keep WAL on a server left running.
  DropSlots(*admin, "bench");
  DropSlots(*admin, "live");
  admin.reset();
  StopServer();
  PrintResult("wal", rows, changes, snapshot, wal, debezium, &latency_ms);
  return 0;
}
