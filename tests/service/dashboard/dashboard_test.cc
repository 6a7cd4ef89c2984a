// The shipped Grafana dashboard (deploy/grafana/sluice-dashboard.json) against the metric
// catalogue (docs/metrics.md) and a real Prometheus: every query parses, reads only catalogued
// metrics, and shows what the endpoint served.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "service/prometheus/prometheus_harness.h"
#include "sluice/metrics.h"
#include "sluice/service/http_endpoint.h"
#include "test_util.h"

namespace sluice::test {
namespace {

using service::HttpEndpoint;

constexpr std::chrono::seconds kScrapeTimeout{60};

TEST(DashboardTest, MetricNamesInReadsPromQL) {
  using Names = std::set<std::string>;
  EXPECT_EQ(MetricNamesIn("sum by (job, table) (rate(paimon_commit_commits_total{job=~\"$job\", "
                          "kind=\"append\"}[$__rate_interval]))"),
            Names{"paimon_commit_commits_total"});
  EXPECT_EQ(MetricNamesIn("time() - sluice_process_start_time_seconds"),
            Names{"sluice_process_start_time_seconds"});
  EXPECT_EQ(MetricNamesIn("a_x / on (x) group_left(y) b:c offset 5m > bool 1e3"),
            Names({"a_x", "b:c"}));
  EXPECT_EQ(MetricNamesIn("topk(5, max without (bucket) (q{l=\"a}b\"}))"), Names{"q"});
}

TEST(DashboardTest, EveryPanelReadsOnlyCataloguedMetrics) {
  ASSERT_OK_AND_ASSIGN(auto catalogue, CataloguedMetricNames(MetricsCataloguePath()));
  // The catalogue is read (a summary with its series; not the label table's `job`).
  EXPECT_TRUE(catalogue.count("paimon_commit_commits_total"));
  EXPECT_TRUE(catalogue.count("paimon_commit_commitDuration_count"));
  EXPECT_TRUE(catalogue.count("sluice_process_resident_memory_bytes"));
  EXPECT_FALSE(catalogue.count("job"));

  ASSERT_OK_AND_ASSIGN(auto queries, ReadDashboardQueries(DashboardPath()));
  std::vector<std::string> rows;
  for (const DashboardQuery& q : queries) {
    if (rows.empty() || rows.back() != q.row) rows.push_back(q.row);
    std::set<std::string> names = MetricNamesIn(q.expr);
    EXPECT_FALSE(names.empty()) << q.row << " / " << q.panel << ": reads no metric: " << q.expr;
    for (const std::string& name : names) {
      EXPECT_TRUE(catalogue.count(name))
          << q.row << " / " << q.panel << ": " << name << " is not in docs/metrics.md";
    }
  }
  EXPECT_EQ(rows, (std::vector<std::string>{"Jobs", "Ingestion", "Commits", "Compaction",
                                            "Table upkeep", "Scans", "Writer buffer", "Process"}));
}

TEST(DashboardTest, ANonDashboardIsRefusedNamingIt) {
  TempDir dir;
  std::string path = dir.path() + "/x.json";
  std::ofstream(path) << "{\"title\": \"no panels\"}";
  EXPECT_TRUE(HasError(ReadDashboardQueries(path), StatusCode::kInvalidArgument, {path, "panels"}));
  std::ofstream(path) << "{\"panels\": [{\"type\": \"timeseries\", \"title\": \"Empty\"}]}";
  EXPECT_TRUE(HasError(ReadDashboardQueries(path), StatusCode::kInvalidArgument,
                       {path, "Empty", "no query"}));
}

// Prometheus itself parses every query (with the variables as Grafana expands them), so that a
// typo in the JSON fails here and not on a user's screen.
TEST(DashboardTest, PrometheusAcceptsEveryQuery) {
  ASSERT_OK_AND_ASSIGN(auto prometheus, PrometheusServer::Start({}));
  ASSERT_OK_AND_ASSIGN(auto queries, ReadDashboardQueries(DashboardPath()));
  ASSERT_GE(queries.size(), 40u);
  for (const std::string& job : {std::string(".*"), std::string("orders-sync")}) {
    for (const PanelResult& result : EvaluateDashboard(*prometheus, queries, job)) {
      EXPECT_OK(result.status) << result.Describe();
    }
  }
  // The check can fail: a parse error is refused, naming Prometheus's complaint.
  EXPECT_TRUE(HasError(prometheus->Query("rate(paimon_commit_commits_total[15s]"),
                       StatusCode::kInvalidArgument, {"bad_data", "parse error"}));
}

// A registry served by the endpoint and scraped by Prometheus: the job and process panels show
// its values, per job through the `job` variable.
TEST(DashboardTest, JobAndProcessPanelsShowTheScrapedRegistry) {
  MetricRegistry jobs;
  jobs.SetGauge("sluice_job_up", "1 while the job runs.", {{"job", "orders-sync"}}, 1);
  jobs.SetGauge("sluice_job_up", "1 while the job runs.", {{"job", "expire"}}, 0);
  jobs.IncrementCounter("sluice_job_restarts_total", "Restarts after a failure.",
                        {{"job", "expire"}}, 3);
  jobs.SetGauge("sluice_job_last_error_timestamp_seconds", "When the job last failed.",
                {{"job", "expire"}}, 1.7e9);
  MetricRegistry process;
  process.RegisterProcessMetrics();
  ASSERT_OK_AND_ASSIGN(auto endpoint, HttpEndpoint::Start({}, [&] {
                         return jobs.PrometheusText() + process.PrometheusText();
                       }));
  ASSERT_OK_AND_ASSIGN(auto prometheus, PrometheusServer::Start({endpoint->address()}));
  ASSERT_OK(prometheus->WaitForScrape(kScrapeTimeout));
  ASSERT_OK_AND_ASSIGN(auto queries, ReadDashboardQueries(DashboardPath()));

  std::vector<PanelResult> all = EvaluateDashboard(*prometheus, queries);
  const PanelResult* up = FindPanel(all, "Jobs up");
  ASSERT_NE(up, nullptr);
  ASSERT_EQ(up->samples.size(), 2u) << up->Describe();
  for (const PromSample& s : up->samples) {
    EXPECT_EQ(s.value, s.labels.at("job") == "orders-sync" ? 1 : 0) << up->Describe();
  }
  const PanelResult* error = FindPanel(all, "Last job error");
  ASSERT_NE(error, nullptr);
  ASSERT_EQ(error->samples.size(), 1u) << error->Describe();
  EXPECT_EQ(error->samples[0].value, 1.7e12) << error->Describe();  // Grafana's milliseconds
  for (const char* panel : {"Memory", "Threads", "Open file descriptors", "Uptime"}) {
    const PanelResult* p = FindPanel(all, panel);
    ASSERT_NE(p, nullptr) << panel;
    ASSERT_TRUE(p->has_data()) << p->Describe();
    EXPECT_GT(p->samples[0].value, 0) << p->Describe();
    // Series without a `job` label of their own are the scrape job's.
    EXPECT_EQ(p->samples[0].labels.at("job"), "sluice") << p->Describe();
    EXPECT_EQ(p->samples[0].labels.at("instance"), endpoint->address()) << p->Describe();
  }
  // The `job` variable narrows to one job.
  std::vector<PanelResult> one = EvaluateDashboard(*prometheus, queries, "orders-sync");
  up = FindPanel(one, "Jobs up");
  ASSERT_NE(up, nullptr);
  ASSERT_EQ(up->samples.size(), 1u) << up->Describe();
  EXPECT_EQ(up->samples[0].labels.at("job"), "orders-sync");
  EXPECT_FALSE(FindPanel(one, "Last job error")->has_data());
}

}  // namespace
}  // namespace sluice::test
