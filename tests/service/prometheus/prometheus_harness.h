// The metrics tests' Prometheus harness (#33): a real Prometheus (scripts/prometheus.sh,
// Debian's prometheus) scraping a test's endpoints every second, queried through its HTTP API,
// and the shipped Grafana dashboard (deploy/grafana/sluice-dashboard.json) evaluated panel by
// panel through it. Library target sluice_prometheus_harness, for every test that needs to see
// what a dashboard would show:
//
//   ASSERT_OK_AND_ASSIGN(auto prometheus, PrometheusServer::Start({endpoint->address()}));
//   ASSERT_OK(prometheus->WaitForScrape(std::chrono::seconds(60)));
//   ASSERT_OK_AND_ASSIGN(auto queries, ReadDashboardQueries(DashboardPath()));
//   for (const PanelResult& r : EvaluateDashboard(*prometheus, queries)) EXPECT_TRUE(r.has_data());
//
// Thread safety: a PrometheusServer is used from one thread; the free functions are pure but
// for the files they read.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "sluice/result.h"

namespace sluice::test {

// One series of a query's result at one time (a scalar result is one sample without labels).
struct PromSample {
  std::map<std::string, std::string> labels;
  double value = 0;
};

// A Prometheus server of a test's own, on a free loopback port, scraping its targets every
// second as the scrape job `sluice` (with honor_labels, as deploy/prometheus/prometheus.yml);
// stopped, its storage removed, when destroyed.
class PrometheusServer {
 public:
  // Starts one scraping `targets` (HOST:PORT each; none: a server for parsing queries only).
  // IOError with the script's output when it does not start.
  static Result<std::unique_ptr<PrometheusServer>> Start(const std::vector<std::string>& targets);
  ~PrometheusServer();
  PrometheusServer(const PrometheusServer&) = delete;
  PrometheusServer& operator=(const PrometheusServer&) = delete;

  int port() const { return port_; }

  // Waits until every target has a successful scrape that started after this call, so that a
  // query sees what the endpoints served from now on. IOError naming each target's health and
  // last error if that does not happen within `timeout`.
  Status WaitForScrape(std::chrono::milliseconds timeout);

  // Evaluates `promql` now (GET /api/v1/query). The samples when Prometheus answers "success"
  // (none is a valid answer); InvalidArgument with Prometheus's error (a parse error names the
  // position) when it refuses the query; IOError when it cannot be asked.
  Result<std::vector<PromSample>> Query(const std::string& promql);

 private:
  PrometheusServer(int port, std::vector<std::string> targets)
      : port_(port), targets_(std::move(targets)) {}
  // The body of GET `path_and_query` from the server's API (JSON text).
  Result<std::string> Get(const std::string& path_and_query);

  int port_;
  std::vector<std::string> targets_;
};

// One query of a dashboard panel.
struct DashboardQuery {
  std::string row;    // the title of the row the panel sits in ("" before the first row)
  std::string panel;  // the panel's title
  std::string ref_id;
  std::string expr;  // as written, template variables and all
};

// deploy/grafana/sluice-dashboard.json and docs/metrics.md of the source tree.
std::string DashboardPath();
std::string MetricsCataloguePath();

// Every query (`targets[].expr`) of every panel of the Grafana dashboard at `path`, rows'
// collapsed panels included, in the dashboard's order; a panel without a query is an error.
// InvalidArgument naming the file when it is not a dashboard's JSON.
Result<std::vector<DashboardQuery>> ReadDashboardQueries(const std::string& path);

// `expr` with the dashboard's template variables replaced as Grafana would: `$job` / `${job}`
// by `job_regex` (`.*` is Grafana's "All"), `$__rate_interval` by `rate_interval`.
std::string ExpandVariables(const std::string& expr, const std::string& job_regex = ".*",
                            const std::string& rate_interval = "15s");

// What a dashboard query shows now.
struct PanelResult {
  DashboardQuery query;
  std::string promql;  // the expanded expression that ran
  Status status;       // the query's outcome
  std::vector<PromSample> samples;

  bool has_data() const { return status.ok() && !samples.empty(); }
  // "row / panel [refId]: promql -> N series" (or the error), for test messages.
  std::string Describe() const;
};

// Runs every query through `prometheus`, variables expanded as ExpandVariables does.
std::vector<PanelResult> EvaluateDashboard(PrometheusServer& prometheus,
                                           const std::vector<DashboardQuery>& queries,
                                           const std::string& job_regex = ".*",
                                           const std::string& rate_interval = "15s");

// The first result of the query of panel `panel_title` whose refId is `ref_id` ("" for the
// first query of the panel); nullptr when the dashboard has no such panel.
const PanelResult* FindPanel(const std::vector<PanelResult>& results,
                             const std::string& panel_title, const std::string& ref_id = "");

// The metric names a PromQL expression reads: identifiers that are not functions,
// aggregations, keywords, label names (in `{...}` or a `by (...)` list) or durations.
std::set<std::string> MetricNamesIn(const std::string& promql);

// The metric names of the catalogue at `path` (docs/metrics.md): the backquoted first column of
// its tables' rows; a summary's `_sum` and `_count` series too. InvalidArgument naming the
// file when it lists none.
Result<std::set<std::string>> CataloguedMetricNames(const std::string& path);

}  // namespace sluice::test
