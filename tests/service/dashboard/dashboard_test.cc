// The shipped Grafana dashboard (deploy/grafana/sluice-dashboard.json) against the metric
// catalogue (docs/metrics.md) and a real Prometheus: every query parses, reads only catalogued
// metrics, and shows what the endpoint served.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "service/prometheus/prometheus_harness.h"
#include "sluice/catalog.h"
#include "sluice/metrics.h"
#include "sluice/service/http_endpoint.h"
#include "sluice/write_builder.h"
#include "test_util.h"
#include "types/field_util.h"

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

// The `job` variable lists the jobs from series of catalogued metrics.
TEST(DashboardTest, TheJobVariableReadsCataloguedMetrics) {
  ASSERT_OK_AND_ASSIGN(auto catalogue, CataloguedMetricNames(MetricsCataloguePath()));
  auto dashboard = nlohmann::json::parse(ReadFileOrFail(DashboardPath()));
  std::string query;
  for (const auto& variable : dashboard["templating"]["list"]) {
    if (variable["name"] == "job") query = variable["query"]["query"];
  }
  // label_values({__name__=~"a|b|c"}, job)
  const std::string prefix = "label_values({__name__=~\"";
  ASSERT_EQ(query.rfind(prefix, 0), 0u) << query;
  size_t end = query.find('"', prefix.size());
  ASSERT_NE(end, std::string::npos) << query;
  EXPECT_EQ(query.substr(end), "\"}, job)");
  std::stringstream names(query.substr(prefix.size(), end - prefix.size()));
  int count = 0;
  for (std::string name; std::getline(names, name, '|'); ++count) {
    EXPECT_TRUE(catalogue.count(name)) << name << " is not in docs/metrics.md";
  }
  EXPECT_EQ(count, 3);
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

// Real commits into a table, reported into a registry served by the endpoint and scraped: the
// commit panels show what the test committed, and every commit and upkeep panel has data.
TEST(DashboardTest, CommitPanelsShowWhatTheTestCommitted) {
  TempDir warehouse;
  Catalog catalog = Catalog::Filesystem(warehouse.path());
  ASSERT_OK(catalog.CreateDatabase("db"));
  NewTableSpec spec;
  spec.columns = {Field(0, "id", DataType::BigInt(false)), Field(1, "v", DataType::String())};
  spec.primary_keys = {"id"};
  // Expiry after the third commit, so that the upkeep row has something to show.
  spec.options = {
      {"bucket", "2"}, {"snapshot.num-retained.min", "1"}, {"snapshot.num-retained.max", "2"}};
  ASSERT_OK(catalog.CreateTable("db.orders", spec));
  ASSERT_OK_AND_ASSIGN(Table table, catalog.GetTable("db.orders"));

  MetricRegistry registry;
  registry.SetConstantLabel("job", "orders-ingest");
  WriteBuilder builder = table.NewWriteBuilder();
  builder.WithMetricRegistry(&registry);
  ASSERT_OK_AND_ASSIGN(auto write, builder.NewWrite());
  ASSERT_OK_AND_ASSIGN(auto commit, builder.NewCommit());
  constexpr int kCommits = 3;
  constexpr int64_t kRowsPerCommit = 50;
  int64_t last_files_added = 0;
  for (int64_t c = 1; c <= kCommits; ++c) {
    ColumnBatch batch(write->input_type());
    for (int64_t i = 0; i < kRowsPerCommit; ++i) {
      ASSERT_OK(batch.AppendRow(
          {Value::Int64(c * kRowsPerCommit + i), Value::String("v" + std::to_string(i))}));
    }
    ASSERT_OK(write->Write(batch));
    ASSERT_OK_AND_ASSIGN(auto messages, write->PrepareCommit(c));
    last_files_added = 0;
    for (const CommitMessage& m : messages) last_files_added += m.new_file_count();
    ASSERT_OK_AND_ASSIGN(CommitResult result, commit->Commit(std::move(messages), c));
    ASSERT_EQ(result.snapshot_ids.size(), 1u);
    ASSERT_OK(result.maintenance_failed);
  }
  ASSERT_OK(write->Close());
  ASSERT_EQ(last_files_added, 2) << "one file per bucket";

  ASSERT_OK_AND_ASSIGN(auto endpoint,
                       HttpEndpoint::Start({}, [&] { return registry.PrometheusText(); }));
  ASSERT_OK_AND_ASSIGN(auto prometheus, PrometheusServer::Start({endpoint->address()}));
  // Two scrapes, so that rate() and increase() have two samples to go by.
  ASSERT_OK(prometheus->WaitForScrape(kScrapeTimeout));
  ASSERT_OK(prometheus->WaitForScrape(kScrapeTimeout));
  ASSERT_OK_AND_ASSIGN(auto queries, ReadDashboardQueries(DashboardPath()));
  std::vector<PanelResult> all = EvaluateDashboard(*prometheus, queries, "orders-ingest");

  // The value of the one series of a panel's query, with the table's labels.
  auto only_value = [&](const std::string& panel, const std::string& ref_id) -> double {
    const PanelResult* r = FindPanel(all, panel, ref_id);
    EXPECT_NE(r, nullptr) << panel;
    if (r == nullptr) return -1;
    EXPECT_EQ(r->samples.size(), 1u) << r->Describe();
    if (r->samples.size() != 1) return -1;
    const auto& labels = r->samples[0].labels;
    EXPECT_EQ(labels.count("job") ? labels.at("job") : "", "orders-ingest") << r->Describe();
    EXPECT_EQ(labels.count("database") ? labels.at("database") : "", "db") << r->Describe();
    EXPECT_EQ(labels.count("table") ? labels.at("table") : "", "orders") << r->Describe();
    return r->samples[0].value;
  };
  EXPECT_EQ(only_value("Commits since start by kind", "A"), kCommits);
  EXPECT_EQ(FindPanel(all, "Commits since start by kind")->samples[0].labels.at("kind"), "append");
  EXPECT_EQ(only_value("Files added / deleted by the last commit", "A"), last_files_added);
  EXPECT_EQ(only_value("Files added / deleted by the last commit", "B"), 0);
  EXPECT_EQ(only_value("Last commit attempts", "A"), 1);
  EXPECT_GE(only_value("Last commit duration", "A"), 0);
  EXPECT_GE(only_value("Commit duration p99", "A"), 0);
  // Nothing was committed between the scrapes.
  EXPECT_EQ(only_value("Commits per second by kind", "A"), 0);
  EXPECT_EQ(only_value("Records appended per second", "A"), 0);
  EXPECT_EQ(only_value("Snapshots expired", "A"), 0);
  // What the counters hold, straight from Prometheus.
  ASSERT_OK_AND_ASSIGN(auto records, prometheus->Query("paimon_commit_deltaRecordsAppended_total"));
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].value, kCommits * kRowsPerCommit);
  ASSERT_OK_AND_ASSIGN(auto expired, prometheus->Query("paimon_expire_snapshotsExpired_total"));
  ASSERT_EQ(expired.size(), 1u);
  EXPECT_EQ(expired[0].value, 1);
  // Every query of the commits row shows data.
  for (const PanelResult& r : all) {
    if (r.query.row == "Commits") {
      EXPECT_TRUE(r.has_data()) << r.Describe();
    }
  }
}

}  // namespace
}  // namespace sluice::test
