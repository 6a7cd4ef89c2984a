// `sluice serve` with a Kafka sync job (write-only tables), a dedicated compaction job and a
// scheduled snapshot expiry, for SLUICE_SERVE_SECONDS while messages arrive, scraped by a real
// Prometheus: every panel of the shipped Grafana
// dashboard returns data, and the figures agree with what the service did (records read,
// snapshots committed, compactions, snapshots expired), counted from the tables themselves.
#include <gtest/gtest.h>
#include <signal.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include "kafka_sync_test_util.h"
#include "serve_test_util.h"
#include "service/prometheus/prometheus_harness.h"

namespace sluice::test {
namespace {

constexpr int kMessages = 1500;
constexpr int kParts = 6;

// The sum of `promql`'s samples, or -1 when it has none.
double Sum(PrometheusServer& prometheus, const std::string& promql) {
  Result<std::vector<PromSample>> samples = prometheus.Query(promql);
  if (!samples.ok() || samples->empty()) return -1;
  double sum = 0;
  for (const PromSample& s : *samples) sum += s.value;
  return sum;
}

TEST(ServeDashboardTest, EveryPanelShowsWhatTheServiceDid) {
  std::mt19937_64 rng(33);
  const std::string topic = UniqueTopicName("serve-dashboard");
  ASSERT_OK(CreateTopic(topic, 2));
  KillWorkload workload = MakeKillWorkload(kMessages, rng);

  TempDir dir;
  const std::string warehouse = dir.path() + "/warehouse";
  const std::string config = dir.path() + "/sluice.yaml";
  std::ofstream(config)
      << "jobs:\n"
         "  - name: cdc\n"
         "    action: kafka_sync_database\n"
         "    args: [--warehouse, '"
      << warehouse << "', --database, ods,\n"
      << "           --kafka_conf, properties.bootstrap.servers=" << KafkaBootstrap() << ",\n"
      << "           --kafka_conf, topic=" << topic << ",\n"
      << "           --kafka_conf, value.format=canal-json,\n"
         "           --kafka_conf, scan.startup.mode=earliest-offset,\n"
         "           --table_conf, write-only=true,\n"
         "           --table_conf, num-sorted-run.compaction-trigger=2,\n"
         "           --commit_interval, 100 ms, --max_buffered_bytes, 16 kb]\n"
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
      << "', --database, ods, --table, orders, --retain_min, 1, --retain_max, 3]\n"
         "    every: 500 ms\n"
         // Until the sync has created the table, the expiry fails: it retries soon.
         "    restart_backoff: {initial: 100 ms, max: 1 s}\n";

  ServeProcess serve(config, dir.path() + "/serve.log");
  const std::string address = serve.MetricsAddress();
  ASSERT_FALSE(address.empty());
  Result<std::unique_ptr<PrometheusServer>> prometheus = PrometheusServer::Start({address});
  ASSERT_OK(prometheus);

  // The service runs for SLUICE_SERVE_SECONDS (30 by default; a few minutes by hand) while the
  // messages reach the topic in kParts parts spread over that time (the producer's pace, not a
  // wait for a condition), so that it ingests, compacts and expires all along.
  const char* seconds_text = std::getenv("SLUICE_SERVE_SECONDS");
  const auto run_for = std::chrono::seconds(seconds_text != nullptr ? std::atoi(seconds_text) : 30);
  const auto producing = std::chrono::steady_clock::now();
  const size_t per_part = (workload.messages.size() + kParts - 1) / kParts;
  for (size_t from = 0, part = 0; from < workload.messages.size(); from += per_part, ++part) {
    std::this_thread::sleep_until(producing + run_for * part / kParts);
    const size_t to = std::min(from + per_part, workload.messages.size());
    ASSERT_OK(Produce(topic, std::vector<KafkaTestMessage>(workload.messages.begin() + from,
                                                           workload.messages.begin() + to)));
  }

  // Until every message is in the tables, a compaction has committed and the expiry has
  // removed snapshots of orders: each round reads the tables (the reads pace it).
  std::vector<nlohmann::json> events = Sorted(workload.events);
  const std::string orders_dir = warehouse + "/ods.db/orders";
  const auto started = std::chrono::steady_clock::now();
  const auto deadline = started + std::chrono::seconds(240);
  while (std::chrono::steady_clock::now() < deadline &&
         !(ReadRows(warehouse, "ods.events") == events &&
           Sum(**prometheus, "sum(paimon_commit_commits_total{kind=\"compact\"})") > 0 &&
           SnapshotIdsOf(orders_dir).earliest > 1)) {
  }
  ExpectTablesHoldKillWorkload(warehouse, "ods", workload);
  std::printf(
      "serve dashboard: the tables complete, a compaction and an expiry done %.1f s after the last "
      "message\n",
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  // The figures against the tables. Every commit made one snapshot, so the snapshots committed
  // are the newest ids; every id below the earliest was expired by the expiry job or by the
  // compaction's commit maintenance. The compactor may still be working through the last sorted
  // runs and the expiry follows its commits, so each round waits for a scrape and compares the
  // tables with what Prometheus scraped; a round that sees them agree has a quiet service (the
  // tables are read after the scrape, so a later commit would show in them, not in the scrape).
  // A disagreement that lasts to the deadline fails below.
  auto& p = **prometheus;
  int64_t committed = 0;
  int64_t expired = 0;
  double scraped_commits = 0;
  double scraped_expired = 0;
  std::string scraped;
  do {
    ASSERT_OK(p.WaitForScrape(std::chrono::seconds(60)));
    scraped = HttpGet(address, "/metrics");
    committed = 0;
    expired = 0;
    for (const std::string table : {"orders", "stock", "events"}) {
      SnapshotIds range = SnapshotIdsOf(warehouse + "/ods.db/" + table);
      committed += range.newest;
      expired += range.earliest - 1;
    }
    scraped_commits = Sum(p, "sum(paimon_commit_commits_total)");
    scraped_expired = Sum(p, "sum(paimon_expire_snapshotsExpired_total)");
  } while (std::chrono::steady_clock::now() < deadline &&
           !(scraped_commits == committed && scraped_expired == expired));
  // One more scrape, so that rate() panels have two samples of the final values in their window.
  ASSERT_OK(p.WaitForScrape(std::chrono::seconds(60)));

  Result<std::vector<DashboardQuery>> queries = ReadDashboardQueries(DashboardPath());
  ASSERT_OK(queries);
  int with_data = 0;
  for (const PanelResult& panel : EvaluateDashboard(p, *queries, ".*", "5s")) {
    EXPECT_TRUE(panel.has_data()) << panel.Describe();
    with_data += panel.has_data();
  }
  std::printf("serve dashboard: %d of %zu panel queries return data\n", with_data, queries->size());

  EXPECT_EQ(Sum(p, "sum(paimon_source_numRecordsIn{job=\"cdc\"})"), kMessages) << scraped;
  EXPECT_EQ(scraped_commits, committed) << scraped;
  EXPECT_EQ(scraped_expired, expired) << scraped;
  EXPECT_GT(Sum(p, "sum(paimon_commit_commits_total{job=\"compact\",kind=\"compact\"})"), 0);
  EXPECT_EQ(Sum(p, "sum(paimon_commit_commits_total{job=\"cdc\",kind=\"compact\"})"), -1)
      << "the write-only sync compacted";
  EXPECT_EQ(Sum(p, "min(sluice_job_up)"), 1) << serve.Log();
  EXPECT_EQ(serve.Stop(SIGTERM, std::chrono::seconds(60)), 0) << serve.Log();
}

}  // namespace
}  // namespace sluice::test
