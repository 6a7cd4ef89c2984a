#include "sluice/table/source/scan_metrics_reporter.h"

#include "sluice/table/table_metric_group.h"

namespace sluice {

namespace {

constexpr int kHistogramWindow = 100;  // Java ScanMetrics.HISTOGRAM_WINDOW_SIZE

}  // namespace

void ReportScan(MetricRegistryImpl* registry, const FileStoreTable& table, const ScanPlan& plan,
                int64_t duration_ms) {
  MetricGroup group = TableMetricGroup(registry, table.path());
  int64_t resulted = 0;
  for (const DataSplit& split : plan.splits) {
    resulted += static_cast<int64_t>(split.data_files.size());
  }
  auto set = [&group](const char* name, const char* help, int64_t value) {
    group.gauge(name, help)->Set(static_cast<double>(value));
  };
  set("paimon_scan_lastScanDuration", "Duration of the last scan plan (ms).", duration_ms);
  set("paimon_scan_lastScannedSnapshotId", "Snapshot the last scan planned (0: none).",
      plan.snapshot_id.value_or(0));
  set("paimon_scan_lastScannedManifests", "Manifests the last scan plan read.",
      plan.metrics.manifests_total - plan.metrics.manifests_skipped);
  set("paimon_scan_lastScanSkippedTableFiles",
      "Data files the last scan plan skipped by their statistics.",
      plan.metrics.files_skipped_by_stats);
  set("paimon_scan_lastScanResultedTableFiles", "Data files in the last scan plan's splits.",
      resulted);
  group
      .histogram("paimon_scan_scanDuration", "Duration of the scan plans (ms), the last 100.",
                 kHistogramWindow)
      ->Update(static_cast<double>(duration_ms));
  group.counter("paimon_scan_scans_total", "Scan plans made.")->Inc();
}

}  // namespace sluice
