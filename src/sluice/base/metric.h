// The instruments of a MetricRegistryImpl (metric_registry_impl.h): Counter, Gauge and
// Histogram, as Java Paimon's org.apache.paimon.metrics has them (Counter, SimpleGauge,
// DescriptiveStatisticsHistogram).
//
// Counter and Gauge are single atomics, so they are cheap on hot paths (an increment per batch or
// per record costs one relaxed atomic add; callers keep the pointer, never look it up per
// record). A Histogram keeps the window of its last N values under a mutex: it is updated per
// commit, per scan or per compaction, never per record.
//
// Thread safety: every method may be called from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

namespace sluice {

// A monotonic count (Prometheus counter).
class Counter {
 public:
  void Inc(int64_t n = 1) { value_.fetch_add(n, std::memory_order_relaxed); }
  int64_t value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> value_{0};
};

// A value that goes up and down (Prometheus gauge).
class Gauge {
 public:
  void Set(double value) { value_.store(value, std::memory_order_relaxed); }
  void Add(double delta) { value_.fetch_add(delta, std::memory_order_relaxed); }
  double value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> value_{0};
};

// The statistics of the last `window` values (Java DescriptiveStatisticsHistogram), plus the
// count and sum of every value ever recorded (rendered as a Prometheus summary).
class Histogram {
 public:
  // REQUIRES: window >= 1.
  explicit Histogram(int window) : window_(window) { values_.reserve(window); }

  void Update(double value);

  struct Snapshot {
    std::vector<double> window;  // sorted ascending
    int64_t count = 0;
    double sum = 0;
  };
  Snapshot Read() const;

  // The `q` quantile (0..1) of sorted `values`, interpolated linearly between the nearest ranks
  // (Hyndman-Fan R-7; Java's commons-math Percentile interpolates at a slightly different
  // rank, so the two can differ within the gap of neighbouring values). q = 1 is the maximum.
  // NaN when `values` is empty.
  static double Quantile(const std::vector<double>& values, double q);

 private:
  const int window_;
  mutable std::mutex mutex_;
  std::vector<double> values_;  // a ring of at most window_ values
  size_t next_ = 0;
  int64_t count_ = 0;
  double sum_ = 0;
};

}  // namespace sluice
