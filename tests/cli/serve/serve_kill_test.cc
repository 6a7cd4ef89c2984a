// SIGKILL of `sluice serve` at random points, restarted each time: a Kafka sync job (write-only
// tables), a dedicated compaction job and a scheduled snapshot expiry all resume, every message
// is applied exactly once (the kill tests' CDC model, an append table included), and what the
// kills left behind is at most orphan files, which remove_orphan_files then removes.
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "kafka_sync_test_util.h"
#include "serve_test_util.h"

namespace sluice::test {
namespace {

constexpr int kKills = 12;
constexpr int kMessages = 8000;

// The sum over the tables of `database` of their newest snapshot id: it grows with every commit
// and, unlike a count of snapshot files, never shrinks when snapshots expire.
int64_t CommittedSnapshots(const std::string& warehouse, const std::string& database) {
  int64_t sum = 0;
  std::error_code ec;
  for (const auto& table :
       std::filesystem::directory_iterator(warehouse + "/" + database + ".db", ec)) {
    sum += SnapshotIdsOf(table.path().string()).newest;
  }
  return sum;
}

TEST(ServeKillTest, JobsResumeAndApplyEveryMessageOnceAcrossKills) {
  std::mt19937_64 rng(20261207);
  const std::string topic = UniqueTopicName("serve-kill");
  ASSERT_OK(CreateTopic(topic, 2));
  KillWorkload workload = MakeKillWorkload(kMessages, rng);
  ASSERT_OK(Produce(topic, workload.messages));

  TempDir dir;
  const std::string warehouse = dir.path() + "/warehouse";
  const std::string config = dir.path() + "/sluice.yaml";
  {
    std::ofstream out(config);
    out << "shutdown_timeout: 30 s\n"
           "jobs:\n"
           "  - name: cdc\n"
           "    action: kafka_sync_database\n"
           "    args: [--warehouse, '"
        << warehouse << "', --database, ods,\n"
        << "           --kafka_conf, properties.bootstrap.servers=" << KafkaBootstrap() << ",\n"
        << "           --kafka_conf, topic=" << topic << ",\n"
        << "           --kafka_conf, value.format=canal-json,\n"
           "           --kafka_conf, scan.startup.mode=earliest-offset,\n"
           "           --table_conf, write-only=true,\n"
           "           --table_conf, snapshot.num-retained.min=5,\n"
           "           --table_conf, snapshot.num-retained.max=10,\n"
           "           --commit_interval, 50 ms, --max_buffered_bytes, 4 kb]\n"
           "    mode: continuous\n"
           "  - name: compact\n"
           "    action: compact_database\n"
           "    args: [--warehouse, '"
        << warehouse
        << "', --including_databases, ods, --mode, combined]\n"
           "    mode: continuous\n"
           "  - name: expire\n"
           "    action: expire_snapshots\n"
           "    args: [--warehouse, '"
        << warehouse
        << "', --database, ods, --table, orders, --retain_min, 1, --retain_max, 5]\n"
           "    every: 1 s\n";
  }
  const std::string log = dir.path() + "/serve.log";
  int killed = 0;
  for (int k = 0; k < kKills; ++k) {
    const int64_t kill_at =
        CommittedSnapshots(warehouse, "ods") + 1 + static_cast<int64_t>(rng() % 8);
    ServeProcess serve(config, log);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (CommittedSnapshots(warehouse, "ods") < kill_at &&
           std::chrono::steady_clock::now() < deadline) {
      // Polls the tables for the kill point (a condition, not a wait for time).
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "no progress:\n" << serve.Log();
    serve.Kill();
    ++killed;
  }
  // The last run goes on until the tables hold every message, then stops on SIGTERM.
  {
    ServeProcess serve(config, log);
    std::vector<nlohmann::json> orders, stock;
    for (const auto& [id, row] : workload.orders) orders.push_back(row);
    for (const auto& [sku, row] : workload.stock) stock.push_back(row);
    orders = Sorted(orders);
    stock = Sorted(stock);
    const std::vector<nlohmann::json> events = Sorted(workload.events);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(180);
    // Each round reads the three tables (the reads pace it; nothing waits for time).
    while (std::chrono::steady_clock::now() < deadline &&
           !(ReadRows(warehouse, "ods.events") == events &&
             ReadRows(warehouse, "ods.orders") == orders &&
             ReadRows(warehouse, "ods.stock") == stock)) {
    }
    EXPECT_EQ(serve.Stop(SIGTERM, std::chrono::seconds(60)), 0) << serve.Log();
  }
  std::printf("serve kill: %d kills, %lld snapshots committed\n", killed,
              static_cast<long long>(CommittedSnapshots(warehouse, "ods")));
  ExpectTablesHoldKillWorkload(warehouse, "ods", workload);

  // What the kills left is orphan files at most: the cleanup takes them, and the tables read
  // the same after it.
  for (const std::string table : {"orders", "stock", "events"}) {
    CommandResult clean =
        RunSluice("action --runtime-mode batch remove_orphan_files --warehouse '" + warehouse +
                  "' --database ods --table " + table + " --older_than '2999-01-01 00:00:00'");
    EXPECT_EQ(clean.exit_code, 0) << clean.out << clean.err;
  }
  ExpectTablesHoldKillWorkload(warehouse, "ods", workload);
}

}  // namespace
}  // namespace sluice::test
