// MetricRegistry: the metrics of what runs under it (Java Paimon's MetricRegistry handed to a
// table's write, commit and scan by `withMetricRegistry`), rendered as Prometheus text.
//
// Hand one to WriteBuilder::WithMetricRegistry, ReadBuilder::WithMetricRegistry or
// ActionHooks::metrics, and render it where it is scraped:
//
//   sluice::MetricRegistry metrics;
//   metrics.SetConstantLabel("job", "orders-ingest");
//   WriteBuilder builder = table.NewWriteBuilder();
//   builder.WithMetricRegistry(&metrics);
//   ...                                    // writes, commits, compactions
//   std::string text = metrics.PrometheusText();
//
// The names, types, units and labels are docs/metrics.md's: Paimon's metrics by Java Paimon's
// names (`paimon_commit_lastCommitDuration{database="db",table="orders"}`), the sync jobs' source
// metrics (`paimon_source_*`) and Sluice's own (`sluice_*`).
//
// Lifetime: the registry must outlive what it was handed to (the writes, commits, reads and
// actions), as in Java.
//
// Thread safety: every method may be called from any thread, while what runs under the
// registry updates it.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace sluice {

class MetricRegistryImpl;

class MetricRegistry {
 public:
  using Labels = std::vector<std::pair<std::string, std::string>>;

  MetricRegistry();
  ~MetricRegistry();
  MetricRegistry(const MetricRegistry&) = delete;
  MetricRegistry& operator=(const MetricRegistry&) = delete;

  // Put label `key` = `value` first on every series (a `job` label, say); replaces an earlier
  // value of `key`.
  void SetConstantLabel(const std::string& key, const std::string& value);

  // Add the process metrics (`sluice_process_*`: memory, threads, open files, CPU time).
  void RegisterProcessMetrics();

  // Set gauge `name` of `labels` / add `delta` to counter `name` of `labels`, made on first use:
  // for metrics of the caller's own (the service's `sluice_job_*`). REQUIRES: a name keeps one
  // type and help text.
  void SetGauge(const std::string& name, const std::string& help, const Labels& labels,
                double value);
  void IncrementCounter(const std::string& name, const std::string& help, const Labels& labels,
                        int64_t delta = 1);

  // Render every metric in the Prometheus text exposition format 0.0.4.
  std::string PrometheusText() const;
  // Render several registries as one exposition (each under its own constant labels: a
  // service's jobs): each name's HELP and TYPE once, then its series from all of them.
  static std::string PrometheusText(const std::vector<const MetricRegistry*>& registries);

 private:
  friend struct MetricsAccess;
  std::unique_ptr<MetricRegistryImpl> impl_;
};

}  // namespace sluice
