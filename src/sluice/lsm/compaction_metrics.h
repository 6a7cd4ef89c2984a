// CompactionMetrics: the `compaction` metric group of a table (Java
// operation.metrics.CompactionMetrics; names in docs/metrics.md), shared by every bucket
// writer of the table under one registry: inline compaction in writers and dedicated
// compaction alike report through the compact manager (compact_manager.h), which holds a
// Reporter for its (partition, bucket).
//
// The table's max / avg gauges run over every reporter; per-bucket series (label `bucket`)
// exist for buckets 0 to kLabelledBuckets - 1 only, each the largest value over the partitions
// with that bucket, so a table of thousands of buckets and partitions adds a bounded number of
// series. compactionThreadBusy is the share of the last 60 s (Java BUSY_MEASURE_MILLIS)
// compactions ran, summed over the compactions, in percent.
//
// Thread safety: every method may be called from any thread (a Reporter from its writer's and
// its compaction's threads); the values are read when the registry renders.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sluice/base/metric_registry_impl.h"

namespace sluice {

class CompactionMetrics : public std::enable_shared_from_this<CompactionMetrics> {
 public:
  static constexpr int32_t kLabelledBuckets = 16;

  // The group of the table at `table`'s labels, one per registry and table (made on first use).
  static std::shared_ptr<CompactionMetrics> Of(const MetricGroup& table);

  explicit CompactionMetrics(MetricGroup table);
  ~CompactionMetrics();

  // What one bucket's compact manager reports (Java CompactionMetrics.Reporter). Removed from
  // the table's figures when destroyed (Java unregister).
  class Reporter {
   public:
    ~Reporter();
    void ReportLevel0FileCount(int64_t count) { level0_file_count_.store(count); }
    void ReportTotalFileSize(int64_t bytes) { total_file_size_.store(bytes); }
    // A compaction was submitted / started (returning when) / finished (started at `start`,
    // reading and writing these sizes; `ok` false when it failed).
    void CompactionQueued();
    std::chrono::steady_clock::time_point CompactionStarted();
    void CompactionFinished(std::chrono::steady_clock::time_point start, bool ok,
                            int64_t input_bytes, int64_t output_bytes);

   private:
    friend class CompactionMetrics;
    Reporter(std::shared_ptr<CompactionMetrics> metrics, int32_t bucket)
        : metrics_(std::move(metrics)), bucket_(bucket) {}

    std::shared_ptr<CompactionMetrics> metrics_;
    const int32_t bucket_;
    std::atomic<int64_t> level0_file_count_{0};
    std::atomic<int64_t> total_file_size_{0};
    std::atomic<int64_t> compaction_input_size_{0};
    std::atomic<int64_t> compaction_output_size_{0};
  };

  std::unique_ptr<Reporter> CreateReporter(int32_t bucket);

 private:
  // Max / avg over the reporters (of `bucket`, or all for nullopt) of one figure; -1 when none,
  // as Java.
  double Aggregate(std::atomic<int64_t> Reporter::*figure, bool max,
                   std::optional<int32_t> bucket = std::nullopt) const;
  double ThreadBusy() const;
  double AvgCompactionTime() const;
  void Unregister(Reporter* reporter);

  MetricGroup table_;
  Counter* completed_;
  Counter* total_;
  Gauge* queued_;

  mutable std::mutex mutex_;
  std::set<Reporter*> reporters_;
  std::set<int32_t> labelled_buckets_;
  // The last 100 compaction times (ms), Java COMPACTION_TIME_WINDOW.
  std::deque<double> compaction_times_;
  // Compactions that ended within the busy window, and how many run now with their starts.
  std::deque<
      std::pair<std::chrono::steady_clock::time_point, std::chrono::steady_clock::time_point>>
      busy_;
  std::multiset<std::chrono::steady_clock::time_point> running_;

  // Last: removed before what they read.
  std::vector<MetricCallback> callbacks_;
};

}  // namespace sluice
