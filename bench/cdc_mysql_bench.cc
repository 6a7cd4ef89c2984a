// cdc_mysql_bench: `sluice action mysql_sync_database` from a real MariaDB server (issue 32).
//
//   cdc_mysql_bench [--rows N] [--dir DIR]
//
// The server is scripts/mariadb.sh's on port 13596 (started when not running, then stopped at
// the end; a running one is reused and left running), with a 512 MB buffer pool and
// innodb_flush_log_at_trx_commit=2 set for the run. Database `bench` holds 10 tables t0..t9
// (id BIGINT primary key, name VARCHAR(64), qty INT, price DECIMAL(10,2), version INT,
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
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bench_common.h"
#include "cdc_bench_util.h"
#include "sluice/cdc/mysql/mysql_connection.h"
#include "stream_workload.h"

namespace sluice::bench {
namespace {

constexpr int kTables = 10;
constexpr int kPort = 13596;
constexpr int64_t kRowsPerStatement = 10;
constexpr int64_t kLiveRate = 5000;  // row changes per second
constexpr int64_t kLiveSeconds = 20;
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

std::string Table(const std::string& database, int t) {
  return database + ".t" + std::to_string(t);
}

// Creates `database` with kTables tables of `rows_per_table` rows (ids 1..rows_per_table).
void CreateTables(MySqlConnection& db, const std::string& database, int64_t rows_per_table) {
  Execute(db, "DROP DATABASE IF EXISTS " + database);
  Execute(db, "CREATE DATABASE " + database);
  for (int t = 0; t < kTables; ++t) {
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

// The change mix: per 10 statements 6 inserts, 3 updates, 1 delete.
enum class Change { kInsert, kUpdate, kDelete };
constexpr Change kCycle[10] = {Change::kInsert, Change::kUpdate, Change::kInsert, Change::kUpdate,
                               Change::kInsert, Change::kDelete, Change::kInsert, Change::kUpdate,
                               Change::kInsert, Change::kInsert};

// The changes over kTables tables whose live ids are [lo, hi] each: statement s goes to table
// s % kTables, its kind from kCycle[(s / kTables) % 10].
class ChangeWorkload {
 public:
  ChangeWorkload(std::string database, int64_t rows_per_table)
      : database_(std::move(database)), rng_(32) {
    for (int t = 0; t < kTables; ++t) {
      lo_[t] = 1;
      hi_[t] = rows_per_table;
    }
  }

  // The SQL of statement `s`, changing `rows` rows, each stamped `stamp`; *inserted_or_updated
  // gets how many rows the statement writes (not deletes).
  std::string Next(int64_t s, int64_t rows, int64_t stamp, int64_t* inserted_or_updated) {
    const int t = static_cast<int>(s % kTables);
    Change kind = kCycle[(s / kTables) % 10];
    if (kind != Change::kInsert && hi_[t] - lo_[t] + 1 < rows) kind = Change::kInsert;
    const std::string table = Table(database_, t);
    const std::string stamp_text = std::to_string(stamp);
    *inserted_or_updated = kind == Change::kDelete ? 0 : rows;
    switch (kind) {
      case Change::kInsert: {
        const int64_t from = hi_[t] + 1;
        hi_[t] += rows;
        return "INSERT INTO " + table +
               " SELECT seq, CONCAT('customer-', seq), seq % 100, (seq % 100000) / 100, 0, "
               "NOW(6), " +
               stamp_text + " FROM " + database_ + ".seq_" + std::to_string(from) + "_to_" +
               std::to_string(hi_[t]);
      }
      case Change::kUpdate: {
        const int64_t span = hi_[t] - lo_[t] + 2 - rows;
        const int64_t from = lo_[t] + static_cast<int64_t>(rng_() % static_cast<uint64_t>(span));
        return "UPDATE " + table +
               " SET qty = qty + 1, price = price + 0.01, version = version + 1, name = "
               "CONCAT('customer-', id, '-', version), updated_at = NOW(6), stamp = " +
               stamp_text + " WHERE id BETWEEN " + std::to_string(from) + " AND " +
               std::to_string(from + rows - 1);
      }
      case Change::kDelete: {
        const int64_t from = lo_[t];
        lo_[t] += rows;
        return "DELETE FROM " + table + " WHERE id BETWEEN " + std::to_string(from) + " AND " +
               std::to_string(lo_[t] - 1);
      }
    }
    return "";
  }

  int64_t Rows(int t) const { return hi_[t] - lo_[t] + 1; }

 private:
  std::string database_;
  std::mt19937_64 rng_;
  int64_t lo_[kTables];
  int64_t hi_[kTables];
};

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

std::string TablePath(const std::string& warehouse, const std::string& database, int t) {
  return warehouse + "/" + database + ".db/t" + std::to_string(t);
}

// Runs the sync of `database` to the binlog's end; dies when it fails.
ChildUsage RunSyncToEnd(const std::string& warehouse, const std::string& database,
                        const std::string& log) {
  const double start = SteadySeconds();
  const pid_t sync = Spawn(SyncCommand(warehouse, database, /*stop_at_end=*/true), log);
  const ChildUsage usage = WaitChild(sync, start);
  if (!WIFEXITED(usage.status) || WEXITSTATUS(usage.status) != 0) {
    DieWithLog("the sync failed", log);
  }
  return usage;
}

// Every Sluice table holds as many rows as its source table.
void Verify(MySqlConnection& db, const std::string& warehouse, const std::string& database) {
  int64_t total = 0;
  for (int t = 0; t < kTables; ++t) {
    const int64_t expected = QueryInt(db, "SELECT COUNT(*) FROM " + Table(database, t));
    const int64_t rows = ReadLatestRows(TablePath(warehouse, database, t));
    if (rows != expected) {
      Die("table " + Table(database, t) + " has " + std::to_string(rows) +
          " rows in Sluice, the server has " + std::to_string(expected));
    }
    total += rows;
  }
  std::printf("verified: %d tables, %lld rows, as the server has them\n", kTables,
              static_cast<long long>(total));
}

void PrintUsage(const char* what, const ChildUsage& usage, int64_t rows) {
  std::printf(
      "%s: %lld rows in %.2f s wall (%.0f/s), %.2f s CPU (user %.2f, system %.2f; %.0f/s), "
      "max RSS %lld MB\n",
      what, static_cast<long long>(rows), usage.wall_s, static_cast<double>(rows) / usage.wall_s,
      usage.cpu_s(), usage.user_s, usage.system_s, static_cast<double>(rows) / usage.cpu_s(),
      static_cast<long long>(usage.max_rss_mb));
  std::fflush(stdout);
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

// ---- Debezium.

struct DebeziumResult {
  double cpu_engine_s = 0;
  double cpu_stream_s = 0;
  double cpu_total_s = 0;
  double wall_stream_s = 0;
  ChildUsage usage;
};

double Key(const std::string& line, const std::string& key) {
  const size_t at = line.find(" " + key + "=");
  if (at == std::string::npos) Die("no " + key + " in: " + line);
  return std::atof(line.c_str() + at + key.size() + 2);
}

DebeziumResult RunDebezium(const Args& args, const BinlogStart& start, int64_t changes) {
  const std::string log = args.dir + "/debezium.log";
  const double wall = SteadySeconds();
  const pid_t java =
      Spawn({"/usr/bin/env",
             "java",
             "-cp",
             kDebeziumDir + "/sluice-bench-debezium-1.jar:" + kDebeziumDir + "/lib/*",
             "org.sluice.bench.DebeziumDecode",
             "--db-port",
             std::to_string(kPort),
             "--db-user",
             "sluice",
             "--db-password",
             "sluice",
             "--database",
             "bench",
             "--server-id",
             "5401",
             "--binlog-file",
             start.file,
             "--binlog-pos",
             std::to_string(start.position),
             "--gtids",
             start.gtids,
             "--records",
             std::to_string(changes)},
            log);
  DebeziumResult result;
  result.usage = WaitChild(java, wall);
  if (!WIFEXITED(result.usage.status) || WEXITSTATUS(result.usage.status) != 0) {
    DieWithLog("Debezium failed", log);
  }
  std::ifstream in(log);
  std::string line, last;
  while (std::getline(in, line)) {
    if (line.rfind("DEBEZIUM ", 0) == 0) last = line;
  }
  if (last.empty()) DieWithLog("no DEBEZIUM line", log);
  std::printf("%s\n", last.c_str());
  result.cpu_engine_s = Key(last, "cpu_engine_s");
  result.cpu_stream_s = Key(last, "cpu_stream_s");
  result.cpu_total_s = Key(last, "cpu_s");
  result.wall_stream_s = Key(last, "wall_stream_s");
  if (Key(last, "records") != static_cast<double>(changes)) Die("Debezium's count: " + last);
  return result;
}

// ---- End to end.

std::vector<double> RunLive(const Args& args, MySqlConnection& db) {
  const std::string warehouse = args.dir + "/live";
  CreateTables(db, "live", kLiveRowsPerTable);
  const std::string sync_log = args.dir + "/sync_live.log";
  const double sync_start = SteadySeconds();
  const pid_t sync = Spawn(SyncCommand(warehouse, "live", /*stop_at_end=*/false), sync_log);
  for (int t = 0; t < kTables; ++t) {
    while (!std::filesystem::exists(TablePath(warehouse, "live", t) + "/snapshot/LATEST")) {
      if (SteadySeconds() - sync_start > 120) DieWithLog("no tables after 120 s", sync_log);
      if (::waitpid(sync, nullptr, WNOHANG) == sync) DieWithLog("the live sync exited", sync_log);
      ::usleep(50000);
    }
  }
  // Transaction numbers from 1 (the loaded rows hold 0) and when each one's COMMIT returned.
  const int64_t total = kLiveRate * kLiveSeconds;
  std::vector<int64_t> committed_us(static_cast<size_t>(total) + 2, 0);
  std::vector<Follower> followers(kTables);
  std::atomic<int64_t> rows{0};
  for (int t = 0; t < kTables; ++t) {
    StartFollower(kSluice, warehouse, "live.t" + std::to_string(t),
                  args.dir + "/follow_t" + std::to_string(t) + ".log",
                  FollowOptions{"stamp", 1, /*skip_retractions=*/true}, &rows, &followers[t]);
  }
  // The followers plan their first (empty) snapshot before the workload starts.
  std::this_thread::sleep_for(std::chrono::seconds(2));
  std::printf("committing %lld row changes/s for %lld s into live\n",
              static_cast<long long>(kLiveRate), static_cast<long long>(kLiveSeconds));
  std::fflush(stdout);
  ChangeWorkload workload("live", kLiveRowsPerTable);
  const auto start = std::chrono::steady_clock::now();
  int64_t sent = 0, txn = 0, written = 0, late_ticks = 0;
  // Every millisecond, one transaction holding the changes due by then.
  for (auto tick = start; sent < total; tick += std::chrono::milliseconds(1)) {
    std::this_thread::sleep_until(tick);
    const auto now = std::chrono::steady_clock::now();
    if (now - tick > std::chrono::milliseconds(5)) ++late_ticks;
    const auto elapsed = std::chrono::duration_cast<std::chrono::microseconds>(now - start);
    const int64_t due = std::min(total, kLiveRate * elapsed.count() / 1000000);
    if (due <= sent) continue;
    ++txn;
    int64_t writes = 0;
    Execute(db, workload.Next(txn - 1, due - sent, txn, &writes));
    committed_us[static_cast<size_t>(txn)] = WallMicros();
    written += writes;
    sent = due;
  }
  const double send_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Done when the followers have printed nothing new for 3 s.
  WaitQuiet(rows, 3, 60);
  ::kill(sync, SIGTERM);
  const ChildUsage usage = WaitChild(sync, sync_start);
  if (!WIFEXITED(usage.status) || WEXITSTATUS(usage.status) != 0) {
    DieWithLog("the live sync failed", sync_log);
  }
  std::vector<double> latency_ms;
  for (Follower& f : followers) {
    StopFollower(&f);
    for (const Follower::Arrival& a : f.arrivals) {
      if (a.stamp > txn) Die("a follower printed stamp " + std::to_string(a.stamp));
      latency_ms.push_back(
          static_cast<double>(a.arrival_us - committed_us[static_cast<size_t>(a.stamp)]) / 1000);
    }
  }
  std::printf(
      "live: %lld changes in %lld transactions over %.1f s (%lld ticks > 5 ms late); %lld rows "
      "inserted or updated, followers printed %zu of them; sync CPU %.2f s, max RSS %lld MB\n",
      static_cast<long long>(sent), static_cast<long long>(txn), send_s,
      static_cast<long long>(late_ticks), static_cast<long long>(written), latency_ms.size(),
      usage.cpu_s(), static_cast<long long>(usage.max_rss_mb));
  Verify(db, warehouse, "live");
  if (latency_ms.empty()) Die("the followers printed no rows");
  return latency_ms;
}

}  // namespace
}  // namespace sluice::bench

int main(int argc, char** argv) {
  using namespace sluice::bench;
  const Args args = ParseArgs(argc, argv, "cdc_mysql_bench", 1000000);
  std::filesystem::remove_all(args.dir);
  std::filesystem::create_directories(args.dir);
  const std::string port = " --port " + std::to_string(kPort);
  const bool started = std::system((kMariaDbSh + " status" + port + " >/dev/null").c_str()) != 0;
  if (started) Shell(kMariaDbSh + " start" + port + " >/dev/null");
  auto db = Connect();
  Execute(*db, "SET GLOBAL innodb_buffer_pool_size = 536870912");
  Execute(*db, "SET GLOBAL innodb_flush_log_at_trx_commit = 2");

  const int64_t rows_per_table = (args.rows + kTables - 1) / kTables;
  const int64_t rows = rows_per_table * kTables;
  {
    const Clock load = Now();
    CreateTables(*db, "bench", rows_per_table);
    std::printf("loaded %lld rows into bench.t0..t%d in %.1f s\n", static_cast<long long>(rows),
                kTables - 1, Since(load).wall);
    std::fflush(stdout);
  }
  const std::string warehouse = args.dir + "/warehouse";
  const ChildUsage snapshot = RunSyncToEnd(warehouse, "bench", args.dir + "/sync_snapshot.log");
  PrintUsage("snapshot", snapshot, rows);
  Verify(*db, warehouse, "bench");

  const BinlogStart binlog_start = MasterPosition(*db);
  const int64_t changes = rows;
  {
    const Clock change = Now();
    ChangeWorkload workload("bench", rows_per_table);
    int64_t writes = 0;
    for (int64_t s = 0, done = 0; done < changes; ++s) {
      const int64_t n = std::min(kRowsPerStatement, changes - done);
      Execute(*db, workload.Next(s, n, s + 1, &writes));
      done += n;
    }
    std::printf("committed %lld row changes from %s:%lld (GTID %s) in %.1f s\n",
                static_cast<long long>(changes), binlog_start.file.c_str(),
                static_cast<long long>(binlog_start.position), binlog_start.gtids.c_str(),
                Since(change).wall);
    std::fflush(stdout);
  }
  const ChildUsage binlog = RunSyncToEnd(warehouse, "bench", args.dir + "/sync_binlog.log");
  PrintUsage("binlog", binlog, changes);
  Verify(*db, warehouse, "bench");

  const DebeziumResult debezium = RunDebezium(args, binlog_start, changes);
  std::printf(
      "debezium: %lld changes, CPU %.2f s from the engine's start (%.2f s first to last event, "
      "%.0f/s of CPU; %.2f s with the JVM's start; wait4 %.2f s), %.2f s wall first to last\n",
      static_cast<long long>(changes), debezium.cpu_engine_s, debezium.cpu_stream_s,
      static_cast<double>(changes) / debezium.cpu_stream_s, debezium.cpu_total_s,
      debezium.usage.cpu_s(), debezium.wall_stream_s);

  std::vector<double> latency_ms = RunLive(args, *db);
  db.reset();
  if (started) Shell(kMariaDbSh + " stop" + port + " >/dev/null");

  const double vs_debezium = debezium.cpu_engine_s / binlog.cpu_s();
  const double p50 = Quantile(&latency_ms, 0.50);
  const double p99 = Quantile(&latency_ms, 0.99);
  std::printf(
      "vs Debezium: %.2f (engine start to last event) / %.2f (first to last event), Sluice "
      "binlog CPU %.2f s\n",
      vs_debezium, debezium.cpu_stream_s / binlog.cpu_s(), binlog.cpu_s());
  std::printf("e2e: %zu rows, p50 %.0f ms, p99 %.0f ms, max %.0f ms\n", latency_ms.size(), p50, p99,
              Quantile(&latency_ms, 1.0));
  std::printf(
      "RESULT snapshot_rows_per_s=%.0f binlog_rows_per_s=%.0f vs_debezium=%.2f e2e_p99_ms=%.0f "
      "rss_mb=%lld e2e_p50_ms=%.0f sluice_binlog_cpu_s=%.2f debezium_cpu_s=%.2f\n",
      static_cast<double>(rows) / snapshot.wall_s, static_cast<double>(changes) / binlog.wall_s,
      vs_debezium, p99, static_cast<long long>(std::max(snapshot.max_rss_mb, binlog.max_rss_mb)),
      p50, binlog.cpu_s(), debezium.cpu_engine_s);
  return 0;
}
