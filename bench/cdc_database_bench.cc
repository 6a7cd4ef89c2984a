#include "cdc_database_bench.h"

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
#include <thread>

#include "bench_common.h"
#include "stream_workload.h"

namespace sluice::bench {

namespace {

// The 10-statement mix: 6 inserts, 3 updates, 1 delete.
constexpr ChangeKind kCycle[10] = {ChangeKind::kInsert, ChangeKind::kUpdate, ChangeKind::kInsert,
                                   ChangeKind::kUpdate, ChangeKind::kInsert, ChangeKind::kDelete,
                                   ChangeKind::kInsert, ChangeKind::kUpdate, ChangeKind::kInsert,
                                   ChangeKind::kInsert};

// The number after " key=" in `line`.
double Key(const std::string& line, const std::string& key) {
  const size_t at = line.find(" " + key + "=");
  if (at == std::string::npos) Die("no " + key + " in: " + line);
  return std::atof(line.c_str() + at + key.size() + 2);
}

// The server StartServer started ("" when none): the script's stop command.
std::string server_stop;

}  // namespace

void StartServer(const std::string& script, int port) {
  const std::string port_option = " --port " + std::to_string(port);
  if (std::system((script + " status" + port_option + " >/dev/null").c_str()) == 0) return;
  server_stop = script + " stop" + port_option + " >/dev/null";
  std::atexit(StopServer);
  Shell(script + " start" + port_option + " >/dev/null");
}

void StopServer() {
  if (server_stop.empty()) return;
  const std::string command = std::move(server_stop);
  server_stop.clear();
  if (std::system(command.c_str()) != 0) std::fprintf(stderr, "failed: %s\n", command.c_str());
}

std::string TableName(int t) {
  std::string name = "t";
  name += std::to_string(t);
  return name;
}

ChangeWorkload::ChangeWorkload(int64_t rows_per_table)
    : rng_(32), lo_(kSourceTables, 1), hi_(kSourceTables, rows_per_table) {}

PlannedChange ChangeWorkload::Next(int64_t s, int64_t rows) {
  PlannedChange change;
  const int t = static_cast<int>(s % kSourceTables);
  change.table = t;
  change.kind = kCycle[(s / kSourceTables) % 10];
  if (change.kind != ChangeKind::kInsert && hi_[t] - lo_[t] + 1 < rows) {
    change.kind = ChangeKind::kInsert;
  }
  switch (change.kind) {
    case ChangeKind::kInsert:
      change.first_id = hi_[t] + 1;
      hi_[t] += rows;
      break;
    case ChangeKind::kUpdate: {
      const int64_t span = hi_[t] - lo_[t] + 2 - rows;
      change.first_id = lo_[t] + static_cast<int64_t>(rng_() % static_cast<uint64_t>(span));
      break;
    }
    case ChangeKind::kDelete:
      change.first_id = lo_[t];
      lo_[t] += rows;
      break;
  }
  change.last_id = change.first_id + rows - 1;
  return change;
}

std::string TablePath(const std::string& warehouse, const std::string& database,
                      const std::string& table) {
  return warehouse + "/" + database + ".db/" + table;
}

ChildUsage RunSyncToEnd(const std::vector<std::string>& argv, const std::string& log) {
  const double start = SteadySeconds();
  const pid_t sync = Spawn(argv, log);
  const ChildUsage usage = WaitChild(sync, start);
  if (!WIFEXITED(usage.status) || WEXITSTATUS(usage.status) != 0) {
    DieWithLog("the sync failed", log);
  }
  return usage;
}

void PrintChildUsage(const char* what, const ChildUsage& usage, int64_t rows) {
  std::printf(
      "%s: %lld rows in %.2f s wall (%.0f/s), %.2f s CPU (user %.2f, system %.2f; %.0f/s), "
      "max RSS %lld MB\n",
      what, static_cast<long long>(rows), usage.wall_s, static_cast<double>(rows) / usage.wall_s,
      usage.cpu_s(), usage.user_s, usage.system_s, static_cast<double>(rows) / usage.cpu_s(),
      static_cast<long long>(usage.max_rss_mb));
  std::fflush(stdout);
}

void VerifyTables(const std::string& warehouse, const std::string& database,
                  const std::function<int64_t(int)>& source_rows) {
  int64_t total = 0;
  for (int t = 0; t < kSourceTables; ++t) {
    const std::string table = TableName(t);
    const int64_t expected = source_rows(t);
    const int64_t rows = ReadLatestRows(TablePath(warehouse, database, table));
    if (rows != expected) {
      Die("table " + database + "." + table + " has " + std::to_string(rows) +
          " rows in Sluice, the server has " + std::to_string(expected));
    }
    total += rows;
  }
  std::printf("verified: %d tables, %lld rows, as the server has them\n", kSourceTables,
              static_cast<long long>(total));
  std::fflush(stdout);
}

DebeziumResult RunDebezium(const std::string& debezium_dir, const std::string& main_class,
                           const std::vector<std::string>& args, const std::string& log,
                           int64_t changes) {
  std::vector<std::string> argv = {
      "/usr/bin/env", "java", "-cp",
      debezium_dir + "/sluice-bench-debezium-1.jar:" + debezium_dir + "/lib/*", main_class};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.push_back("--records");
  argv.push_back(std::to_string(changes));
  const double wall = SteadySeconds();
  const pid_t java = Spawn(argv, log);
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
  std::printf(
      "debezium: %lld changes, CPU %.2f s from the engine's start (%.2f s first to last event, "
      "%.0f/s of CPU; %.2f s with the JVM's start; wait4 %.2f s), %.2f s wall first to last\n",
      static_cast<long long>(changes), result.cpu_engine_s, result.cpu_stream_s,
      static_cast<double>(changes) / result.cpu_stream_s, result.cpu_total_s, result.usage.cpu_s(),
      result.wall_stream_s);
  std::fflush(stdout);
  return result;
}

std::vector<double> RunLive(const LiveOptions& options,
                            const std::function<int64_t(int64_t txn, int64_t changes)>& commit) {
  const std::string sync_log = options.dir + "/sync_" + options.database + ".log";
  const double sync_start = SteadySeconds();
  const pid_t sync = Spawn(options.sync_argv, sync_log);
  for (int t = 0; t < kSourceTables; ++t) {
    const std::string latest =
        TablePath(options.warehouse, options.database, TableName(t)) + "/snapshot/LATEST";
    while (!std::filesystem::exists(latest)) {
      if (SteadySeconds() - sync_start > 120) DieWithLog("no tables after 120 s", sync_log);
      if (::waitpid(sync, nullptr, WNOHANG) == sync) DieWithLog("the live sync exited", sync_log);
      ::usleep(50000);
    }
  }
  // Transaction numbers from 1 (the loaded rows hold 0) and when each one's commit returned.
  const int64_t total = options.rate * options.seconds;
  std::vector<int64_t> committed_us(static_cast<size_t>(total) + 2, 0);
  std::vector<Follower> followers(kSourceTables);
  std::atomic<int64_t> rows{0};
  for (int t = 0; t < kSourceTables; ++t) {
    StartFollower(options.sluice, options.warehouse, options.database + "." + TableName(t),
                  options.dir + "/follow_" + TableName(t) + ".log",
                  FollowOptions{"stamp", 1, /*skip_retractions=*/true}, &rows, &followers[t]);
  }
  // The followers plan their first (empty) snapshot before the workload starts.
  std::this_thread::sleep_for(std::chrono::seconds(2));
  std::printf("committing %lld row changes/s for %lld s into %s\n",
              static_cast<long long>(options.rate), static_cast<long long>(options.seconds),
              options.database.c_str());
  std::fflush(stdout);
  const auto start = std::chrono::steady_clock::now();
  int64_t sent = 0, txn = 0, written = 0, late_ticks = 0;
  // Every millisecond, one transaction holding the changes due by then.
  for (auto tick = start; sent < total; tick += std::chrono::milliseconds(1)) {
    std::this_thread::sleep_until(tick);
    const auto now = std::chrono::steady_clock::now();
    if (now - tick > std::chrono::milliseconds(5)) ++late_ticks;
    const auto elapsed = std::chrono::duration_cast<std::chrono::microseconds>(now - start);
    const int64_t due = std::min(total, options.rate * elapsed.count() / 1000000);
    if (due <= sent) continue;
    ++txn;
    written += commit(txn, due - sent);
    committed_us[static_cast<size_t>(txn)] = WallMicros();
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
  std::fflush(stdout);
  if (latency_ms.empty()) Die("the followers printed no rows");
  return latency_ms;
}

void PrintResult(const std::string& stream, int64_t rows, int64_t changes,
                 const ChildUsage& snapshot, const ChildUsage& streamed,
                 const DebeziumResult& debezium, std::vector<double>* latency_ms) {
  const double vs_debezium = debezium.cpu_engine_s / streamed.cpu_s();
  const double p50 = Quantile(latency_ms, 0.50);
  const double p99 = Quantile(latency_ms, 0.99);
  std::printf(
      "vs Debezium: %.2f (engine start to last event) / %.2f (first to last event), Sluice "
      "%s CPU %.2f s\n",
      vs_debezium, debezium.cpu_stream_s / streamed.cpu_s(), stream.c_str(), streamed.cpu_s());
  std::printf("e2e: %zu rows, p50 %.0f ms, p99 %.0f ms, max %.0f ms\n", latency_ms->size(), p50,
              p99, Quantile(latency_ms, 1.0));
  std::printf(
      "RESULT snapshot_rows_per_s=%.0f %s_rows_per_s=%.0f vs_debezium=%.2f e2e_p99_ms=%.0f "
      "rss_mb=%lld e2e_p50_ms=%.0f sluice_%s_cpu_s=%.2f debezium_cpu_s=%.2f\n",
      static_cast<double>(rows) / snapshot.wall_s, stream.c_str(),
      static_cast<double>(changes) / streamed.wall_s, vs_debezium, p99,
      static_cast<long long>(std::max(snapshot.max_rss_mb, streamed.max_rss_mb)), p50,
      stream.c_str(), streamed.cpu_s(), debezium.cpu_engine_s);
  std::fflush(stdout);
}

}  // namespace sluice::bench
