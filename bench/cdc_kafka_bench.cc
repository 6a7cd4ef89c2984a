// cdc_kafka_bench: `sluice action kafka_sync_database` from a real Kafka broker (issue 31).
//
//   cdc_kafka_bench [--rows N] [--dir DIR] [--tables T]
//
// Throughput: N (default 2,000,000) debezium-json change messages (no schema envelope; the
// key {"id": ...}) over 10 tables of database `shop`, 60% inserts, 30% updates, 10% deletes, are
// produced to a one-partition topic beforehand (not measured); then the sync runs as a child
// process (`--stop_at_end true`) and its CPU time (user + system, wait4) gives
// cdc_records_per_s = messages / CPU seconds. The sync is single-threaded (librdkafka's
// background threads included in its CPU time), so this is one core's rate. The tables' row
// counts are checked against the workload's model.
//
// Many tables (--tables T, T > 10): the throughput phase alone, its messages over T tables,
// half of them to a hot subset (t0..t9) and half spread over all T round-robin, to show the
// sync's memory with hundreds of tables against the 10-table run (cdc_max_rss_mb; a table's
// writer closes after 10 commits without records, its buffers must not stay).
//
// Freshness: a second sync of another topic into database `live` runs continuously with
// `--commit_interval '1 s'` while a producer thread sends the same mix at 20,000 messages/s for
// 20 s, paced by the clock, each row image carrying its send time (`sent_ms`). One follower
// `sluice read live.tN --follow --format jsonl` per table (all 10) prints the changes; this
// process stamps each row when the follower's output arrives: e2e latency = arrival - sent_ms,
// p50 / p99 over every row printed (a key changed twice in one commit prints once).
//
// The broker is scripts/kafka.sh's on port 19592, started when not running (and then stopped
// at the end). The last line is "RESULT cdc_records_per_s=.. cdc_cpu_s=.. cdc_max_rss_mb=..
// e2e_p50_ms=.. e2e_p99_ms=..", with T tables "RESULT cdc_tables=T cdc_records_per_s=..
// cdc_cpu_s=.. cdc_max_rss_mb=..".
#include <fcntl.h>
#include <librdkafka/rdkafka.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bench_common.h"
#include "cdc_bench_util.h"
#include "stream_workload.h"

namespace sluice::bench {
namespace {

// The tables of the default run, and the hot subset of a run with more.
constexpr int kTables = 10;
constexpr int kBrokerPort = 19592;
constexpr int64_t kLiveRate = 20000;  // messages per second
constexpr std::chrono::seconds kLiveDuration{20};

const std::string kSluice = SLUICE_BENCH_SLUICE;
const std::string kKafkaSh = SLUICE_BENCH_KAFKA_SH;
const std::string kBootstrap = "127.0.0.1:" + std::to_string(kBrokerPort);

std::vector<std::string> SyncCommand(const std::string& warehouse, const std::string& database,
                                     const std::string& topic, bool stop_at_end) {
  std::vector<std::string> argv = {kSluice,
                                   "action",
                                   "kafka_sync_database",
                                   "--warehouse",
                                   warehouse,
                                   "--database",
                                   database,
                                   "--commit_interval",
                                   "1 s",
                                   "--kafka_conf",
                                   "properties.bootstrap.servers=" + kBootstrap,
                                   "--kafka_conf",
                                   "topic=" + topic,
                                   "--kafka_conf",
                                   "value.format=debezium-json",
                                   "--kafka_conf",
                                   "scan.startup.mode=earliest-offset"};
  if (stop_at_end) {
    argv.push_back("--stop_at_end");
    argv.push_back("true");
  }
  return argv;
}

// ---- The workload: debezium-json messages over its tables with a model of their rows.

class Workload {
 public:
  Workload(std::string database, int tables)
      : database_(std::move(database)), rng_(31), live_(tables), next_id_(tables, 0) {}

  // The table of message `i`: round-robin over kTables; with more tables, even messages over
  // the hot kTables and odd ones over all.
  int TableOf(int64_t i) const {
    const auto tables = static_cast<int64_t>(live_.size());
    if (tables == kTables) return static_cast<int>(i % kTables);
    return static_cast<int>(i % 2 == 0 ? (i / 2) % kTables : (i / 2) % tables);
  }

  // The key and value of message `i`, its row images stamped `sent_ms`.
  void Next(int64_t i, int64_t sent_ms, std::string* key, std::string* value) {
    const int t = TableOf(i);
    std::vector<Row>& live = live_[t];
    const uint64_t dice = rng_() % 10;
    char op = 'c';
    if (!live.empty() && dice >= 6) op = dice == 9 ? 'd' : 'u';
    value->assign(R"({"before":)");
    size_t slot = 0;
    if (op == 'c') {
      live.push_back(Row{next_id_[t]++, 0});
      slot = live.size() - 1;
      value->append("null");
    } else {
      slot = rng_() % live.size();
      AppendImage(live[slot], sent_ms, value);
    }
    Row& row = live[slot];
    const int64_t id = row.id;
    value->append(R"(,"after":)");
    if (op == 'd') {
      value->append("null");
      row = live.back();
      live.pop_back();
    } else {
      if (op == 'u') ++row.version;
      AppendImage(row, sent_ms, value);
    }
    value->append(R"(,"source":{"version":"2.5.0.Final","connector":"mysql","name":"bench",)");
    value->append(R"("ts_ms":)" + std::to_string(sent_ms) + R"(,"db":")" + database_ +
                  R"(","table":"t)" + std::to_string(t) + R"(","server_id":1,"file":)" +
                  R"("mysql-bin.000003","pos":)" + std::to_string(i) + R"(},"op":")");
    value->push_back(op);
    value->append(R"(","ts_ms":)" + std::to_string(sent_ms) + "}");
    key->assign(R"({"id":)" + std::to_string(id) + "}");
  }

  int64_t Rows(int t) const { return static_cast<int64_t>(live_[t].size()); }

 private:
  struct Row {
    int64_t id;
    int32_t version;
  };

  static void AppendImage(const Row& row, int64_t sent_ms, std::string* out) {
    char buffer[256];
    const int n = std::snprintf(
        buffer, sizeof(buffer),
        R"({"id":%lld,"name":"customer-%lld","qty":%lld,"price":%lld.%02lld,"version":%d,)"
        R"("sent_ms":%lld})",
        static_cast<long long>(row.id), static_cast<long long>(row.id),
        static_cast<long long>((row.id * 7 + row.version) % 100),
        static_cast<long long>((row.id + row.version) % 1000), static_cast<long long>(row.id % 100),
        row.version, static_cast<long long>(sent_ms));
    out->append(buffer, static_cast<size_t>(n));
  }

  std::string database_;
  std::mt19937_64 rng_;
  std::vector<std::vector<Row>> live_;
  std::vector<int64_t> next_id_;
};

// ---- Producing with librdkafka.

void CountFailure(rd_kafka_t*, const rd_kafka_message_t* message, void* opaque) {
  if (message->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    static_cast<std::atomic<int64_t>*>(opaque)->fetch_add(1);
  }
}

class Producer {
 public:
  explicit Producer(const std::vector<std::pair<std::string, std::string>>& settings) {
    rd_kafka_conf_t* conf = rd_kafka_conf_new();
    char error[512];
    std::vector<std::pair<std::string, std::string>> all = {{"bootstrap.servers", kBootstrap}};
    all.insert(all.end(), settings.begin(), settings.end());
    for (const auto& [key, value] : all) {
      if (rd_kafka_conf_set(conf, key.c_str(), value.c_str(), error, sizeof(error)) !=
          RD_KAFKA_CONF_OK) {
        Die(std::string("producer setting: ") + error);
      }
    }
    rd_kafka_conf_set_opaque(conf, &failed_);
    rd_kafka_conf_set_dr_msg_cb(conf, CountFailure);
    client_ = rd_kafka_new(RD_KAFKA_PRODUCER, conf, error, sizeof(error));
    if (client_ == nullptr) Die(std::string("producer: ") + error);
  }
  ~Producer() { rd_kafka_destroy(client_); }

  void Send(const std::string& topic, const std::string& key, const std::string& value) {
    while (true) {
      const rd_kafka_resp_err_t err = rd_kafka_producev(
          client_, RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_PARTITION(0),
          RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
          RD_KAFKA_V_KEY(const_cast<char*>(key.data()), key.size()),
          RD_KAFKA_V_VALUE(const_cast<char*>(value.data()), value.size()), RD_KAFKA_V_END);
      if (err == RD_KAFKA_RESP_ERR_NO_ERROR) break;
      if (err != RD_KAFKA_RESP_ERR__QUEUE_FULL)
        Die(std::string("produce: ") + rd_kafka_err2str(err));
      rd_kafka_poll(client_, 50);
    }
    if (++sent_ % 1024 == 0) rd_kafka_poll(client_, 0);
  }

  // Waits for every message's acknowledgement; dies when any failed.
  void Flush() {
    if (rd_kafka_flush(client_, 300000) != RD_KAFKA_RESP_ERR_NO_ERROR) Die("producer flush");
    if (failed_.load() > 0) Die(std::to_string(failed_.load()) + " messages were not delivered");
  }

 private:
  rd_kafka_t* client_ = nullptr;
  std::atomic<int64_t> failed_{0};
  int64_t sent_ = 0;
};

std::string TablePath(const std::string& warehouse, const std::string& database, int t) {
  return warehouse + "/" + database + ".db/t" + std::to_string(t);
}

// ---- Phase 1: throughput.

struct Throughput {
  double cpu_s = 0;
  double wall_s = 0;
  int64_t max_rss_mb = 0;
};

Throughput RunThroughput(const Args& args, const std::string& topic, int tables) {
  const std::string warehouse = args.dir + "/bulk";
  Workload workload("shop", tables);
  {
    std::printf("producing %lld messages to %s\n", static_cast<long long>(args.rows),
                topic.c_str());
    std::fflush(stdout);
    const Clock start = Now();
    Producer producer({{"linger.ms", "100"},
                       {"batch.num.messages", "10000"},
                       {"batch.size", "1000000"},
                       {"queue.buffering.max.kbytes", "1048576"},
                       {"acks", "1"}});
    std::string key, value;
    for (int64_t i = 0; i < args.rows; ++i) {
      workload.Next(i, 1700000000000 + i, &key, &value);
      producer.Send(topic, key, value);
    }
    producer.Flush();
    std::printf("produced in %.1f s (last value %zu bytes)\n", Since(start).wall, value.size());
  }
  const std::string log = args.dir + "/sync_bulk.log";
  const auto wall0 = std::chrono::steady_clock::now();
  const pid_t sync = Spawn(SyncCommand(warehouse, "shop", topic, /*stop_at_end=*/true), log);
  int status = 0;
  rusage usage{};
  if (::wait4(sync, &status, 0, &usage) != sync) Die("wait4");
  Throughput result;
  result.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  result.cpu_s = Seconds(usage.ru_utime) + Seconds(usage.ru_stime);
  result.max_rss_mb = usage.ru_maxrss / 1024;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) DieWithLog("the bulk sync failed", log);
  std::printf("sync: %.2f s CPU (user %.2f, system %.2f), %.2f s wall, max RSS %ld MB\n",
              result.cpu_s, Seconds(usage.ru_utime), Seconds(usage.ru_stime), result.wall_s,
              usage.ru_maxrss / 1024);
  // Honest figures: every table holds what the messages leave.
  int64_t total = 0;
  for (int t = 0; t < tables; ++t) {
    const int64_t rows = ReadLatestRows(TablePath(warehouse, "shop", t));
    if (rows != workload.Rows(t)) {
      Die("table t" + std::to_string(t) + " has " + std::to_string(rows) + " rows, expected " +
          std::to_string(workload.Rows(t)));
    }
    total += rows;
  }
  std::printf("verified: %d tables, %lld rows as the model says\n", tables,
              static_cast<long long>(total));
  return result;
}

// ---- Phase 2: end-to-end latency.

std::vector<double> RunFreshness(const Args& args, const std::string& topic) {
  const std::string warehouse = args.dir + "/live";
  Workload workload("live", kTables);
  Producer producer({{"linger.ms", "2"}, {"acks", "1"}});
  std::string key, value;
  // The first message of each table (inserts) creates the tables before the followers start.
  int64_t i = 0;
  for (; i < kTables; ++i) {
    workload.Next(i, WallMillis(), &key, &value);
    producer.Send(topic, key, value);
  }
  producer.Flush();
  const std::string sync_log = args.dir + "/sync_live.log";
  const pid_t sync = Spawn(SyncCommand(warehouse, "live", topic, /*stop_at_end=*/false), sync_log);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  for (int t = 0; t < kTables; ++t) {
    while (!std::filesystem::exists(TablePath(warehouse, "live", t) + "/snapshot/LATEST")) {
      if (std::chrono::steady_clock::now() > deadline) DieWithLog("no tables after 60 s", sync_log);
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  std::vector<Follower> followers(kTables);
  std::atomic<int64_t> rows{0};
  const int64_t since_ms = WallMillis() + 1000;
  for (int t = 0; t < kTables; ++t) {
    StartFollower(kSluice, warehouse, "live.t" + std::to_string(t),
                  args.dir + "/follow_t" + std::to_string(t) + ".log",
                  FollowOptions{"sent_ms", since_ms, /*skip_retractions=*/false}, &rows,
                  &followers[t]);
  }
  // The followers plan their first (empty) snapshot before the workload starts.
  std::this_thread::sleep_until(
      std::chrono::system_clock::time_point(std::chrono::milliseconds(since_ms)));
  std::printf("sending %lld messages/s for %lld s to %s\n", static_cast<long long>(kLiveRate),
              static_cast<long long>(kLiveDuration.count()), topic.c_str());
  std::fflush(stdout);
  const auto start = std::chrono::steady_clock::now();
  const int64_t total = kLiveRate * kLiveDuration.count();
  int64_t sent = 0;
  // Every millisecond, the messages due by then.
  for (auto tick = start; sent < total; tick += std::chrono::milliseconds(1)) {
    std::this_thread::sleep_until(tick);
    const auto elapsed = std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::steady_clock::now() - start);
    const int64_t due = std::min(total, kLiveRate * elapsed.count() / 1000000);
    const int64_t now_ms = WallMillis();
    for (; sent < due; ++sent, ++i) {
      workload.Next(i, now_ms, &key, &value);
      producer.Send(topic, key, value);
    }
  }
  producer.Flush();
  // Done when the followers have printed nothing new for 3 s.
  WaitQuiet(rows, 3, 60);
  ::kill(sync, SIGTERM);
  int status = 0;
  rusage usage{};
  if (::wait4(sync, &status, 0, &usage) != sync) Die("wait4");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) DieWithLog("the live sync failed", sync_log);
  std::vector<double> latency_ms;
  for (Follower& f : followers) {
    StopFollower(&f);
    for (const Follower::Arrival& a : f.arrivals) {
      latency_ms.push_back(static_cast<double>(a.arrival_us / 1000 - a.stamp));
    }
  }
  std::printf("sent %lld messages; followers printed %zu rows; sync CPU %.2f s\n",
              static_cast<long long>(sent), latency_ms.size(),
              Seconds(usage.ru_utime) + Seconds(usage.ru_stime));
  if (latency_ms.empty()) Die("the followers printed no rows");
  return latency_ms;
}

}  // namespace
}  // namespace sluice::bench

int main(int argc, char** argv) {
  using namespace sluice::bench;
  // --tables is ours; the rest goes to the common parser.
  int tables = kTables;
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--tables") == 0 && i + 1 < argc) {
      tables = std::atoi(argv[++i]);
      if (tables < kTables) Die("--tables must be at least " + std::to_string(kTables));
      continue;
    }
    rest.push_back(argv[i]);
  }
  const Args args =
      ParseArgs(static_cast<int>(rest.size()), rest.data(), "cdc_kafka_bench", 2000000);
  std::filesystem::remove_all(args.dir);
  std::filesystem::create_directories(args.dir);
  const std::string port = " --port " + std::to_string(kBrokerPort);
  // A broker already running on the port is reused and left running.
  const bool started = std::system((kKafkaSh + " status" + port + " >/dev/null").c_str()) != 0;
  if (started) Shell(kKafkaSh + " start" + port + " >/dev/null");
  const std::string prefix = "cdc_bench_" + std::to_string(::getpid()) + "_";
  Shell(kKafkaSh + " create-topic " + prefix + "bulk" + port + " >/dev/null");
  const Throughput throughput = RunThroughput(args, prefix + "bulk", tables);
  const double rate = static_cast<double>(args.rows) / throughput.cpu_s;
  if (tables != kTables) {
    if (started) Shell(kKafkaSh + " stop" + port + " >/dev/null");
    std::printf("RESULT cdc_tables=%d cdc_records_per_s=%.0f cdc_cpu_s=%.2f cdc_max_rss_mb=%lld\n",
                tables, rate, throughput.cpu_s, static_cast<long long>(throughput.max_rss_mb));
    return 0;
  }
  Shell(kKafkaSh + " create-topic " + prefix + "live" + port + " >/dev/null");
  std::vector<double> latency_ms = RunFreshness(args, prefix + "live");
  if (started) Shell(kKafkaSh + " stop" + port + " >/dev/null");

  const double p50 = Quantile(&latency_ms, 0.50);
  const double p99 = Quantile(&latency_ms, 0.99);
  std::printf("throughput: %lld messages in %.2f s CPU (%.0f/s), %.2f s wall (%.0f/s)\n",
              static_cast<long long>(args.rows), throughput.cpu_s, rate, throughput.wall_s,
              static_cast<double>(args.rows) / throughput.wall_s);
  std::printf("e2e: %zu rows, p50 %.0f ms, p99 %.0f ms, max %.0f ms\n", latency_ms.size(), p50, p99,
              Quantile(&latency_ms, 1.0));
  std::printf(
      "RESULT cdc_records_per_s=%.0f cdc_cpu_s=%.2f cdc_max_rss_mb=%lld e2e_p50_ms=%.0f "
      "e2e_p99_ms=%.0f\n",
      rate, throughput.cpu_s, static_cast<long long>(throughput.max_rss_mb), p50, p99);
  return 0;
}
