// What the database CDC benchmarks (cdc_mysql_bench: MariaDB's binlog, cdc_postgres_bench:
// PostgreSQL's logical replication) share: the workload, the sync phases run as children, the
// check of the synced tables, the Debezium peer, the end-to-end latency run and the summary.
// Each benchmark keeps what is its server's: starting it, the SQL of the tables and changes,
// the sync command and Debezium's connector arguments.
//
// The workload: kSourceTables tables t0..t9 (id BIGINT primary key, name VARCHAR(64), qty INT,
// price DECIMAL(10,2), version INT, updated_at a microsecond timestamp, stamp BIGINT); changes
// are statements of a few rows each over the tables in turn, per 10 statements 6 inserts, 3
// updates (every column but the key), 1 delete, each statement its own transaction.
//
// Thread safety: thread-compatible.
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "cdc_bench_util.h"

namespace sluice::bench {

inline constexpr int kSourceTables = 10;

// Runs `script start --port <port>` (scripts/mariadb.sh, scripts/postgres.sh) unless its server
// is running. A server started here is stopped by StopServer, or at exit (a Die too), so that
// a failed run leaves none behind; a running one is reused and left running.
void StartServer(const std::string& script, int port);
void StopServer();

// "t<t>", the name of table t.
std::string TableName(int t);

enum class ChangeKind { kInsert, kUpdate, kDelete };

// One statement of the workload: rows [first_id, last_id] of table t<table>.
struct PlannedChange {
  int table = 0;
  ChangeKind kind = ChangeKind::kInsert;
  int64_t first_id = 0;
  int64_t last_id = 0;
};

// The changes over kSourceTables tables whose live ids are [lo, hi] each (1..rows_per_table at
// the start): statement s goes to table s % kSourceTables, its kind from the 10-statement mix by
// (s / kSourceTables) % 10 (an insert where the table has fewer live rows than the statement
// changes). Inserts append ids after hi, deletes take the lowest ids, updates a random run of
// live ids (a fixed seed: the same changes every run).
class ChangeWorkload {
 public:
  explicit ChangeWorkload(int64_t rows_per_table);

  // Statement `s`, changing `rows` rows.
  PlannedChange Next(int64_t s, int64_t rows);

 private:
  std::mt19937_64 rng_;
  std::vector<int64_t> lo_;
  std::vector<int64_t> hi_;
};

// "<warehouse>/<database>.db/<table>".
std::string TablePath(const std::string& warehouse, const std::string& database,
                      const std::string& table);

// Runs the sync command `argv` (stderr to `log`) until it exits; dies when it fails.
ChildUsage RunSyncToEnd(const std::vector<std::string>& argv, const std::string& log);

// Prints "<what>: N rows in .. s wall (../s), .. s CPU (...), max RSS .. MB".
void PrintChildUsage(const char* what, const ChildUsage& usage, int64_t rows);

// Every Sluice table database.t0..t9 of `warehouse` holds `source_rows(t)` rows (the server's
// count of table t); dies naming the first that does not.
void VerifyTables(const std::string& warehouse, const std::string& database,
                  const std::function<int64_t(int)>& source_rows);

// ---- Debezium (bench/debezium, built by bench/run.sh).

// What the decoder's "DEBEZIUM records=N cpu_s=.. cpu_engine_s=.. cpu_stream_s=..
// wall_stream_s=.." line says (CPU from the JVM's start, from the engine's start, from the
// first change event to the last; the wall time of the latter), and wait4's view.
struct DebeziumResult {
  double cpu_engine_s = 0;
  double cpu_stream_s = 0;
  double cpu_total_s = 0;
  double wall_stream_s = 0;
  ChildUsage usage;
};

// Runs `java -cp <debezium_dir>/sluice-bench-debezium-1.jar:<debezium_dir>/lib/* <main_class>
// <args> --records <changes>` (its output to `log`) and prints its DEBEZIUM line and a summary;
// dies when it fails or counts other than `changes` events.
DebeziumResult RunDebezium(const std::string& debezium_dir, const std::string& main_class,
                           const std::vector<std::string>& args, const std::string& log,
                           int64_t changes);

// ---- End to end.

struct LiveOptions {
  std::string sluice;                  // the binary, for the followers
  std::vector<std::string> sync_argv;  // the running sync of `database`, without --stop_at_end
  std::string warehouse;
  std::string database;  // the Paimon database; its tables t0..t9
  std::string dir;       // for the logs
  int64_t rate = 5000;   // row changes per second
  int64_t seconds = 20;
};

// Starts the sync and waits for its tables, starts a follower per table (`sluice read
// database.tN --follow`, stamps from field `stamp`, retractions left out), then every
// millisecond calls `commit(txn, changes)`: commit transaction number `txn` (from 1) holding
// the `changes` row changes due by then, each written row stamped `txn`, returning how many rows
// it inserted or updated; notes when it returned. Once the followers print nothing new for 3 s,
// stops the sync (SIGTERM) and the followers and returns each printed row's latency in ms
// (arrival - its transaction's commit returned).
std::vector<double> RunLive(const LiveOptions& options,
                            const std::function<int64_t(int64_t txn, int64_t changes)>& commit);

// Prints the comparison and the RESULT line: "RESULT snapshot_rows_per_s=..
// <stream>_rows_per_s=.. vs_debezium=.. e2e_p99_ms=.. rss_mb=.. e2e_p50_ms=..
// sluice_<stream>_cpu_s=.. debezium_cpu_s=.."; vs_debezium is Debezium's CPU from its engine's
// start to the last event / the stream phase's CPU, rss_mb the larger peak of the two phases.
void PrintResult(const std::string& stream, int64_t rows, int64_t changes,
                 const ChildUsage& snapshot, const ChildUsage& streamed,
                 const DebeziumResult& debezium, std::vector<double>* latency_ms);

}  // namespace sluice::bench
