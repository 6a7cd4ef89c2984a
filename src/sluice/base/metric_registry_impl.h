// MetricRegistryImpl: the metrics of what runs under one registry (Java Paimon's MetricRegistry
// with its MetricGroups; prometheus-cpp's Registry and Family), rendered as Prometheus text.
//
// A metric is a name (Paimon's, `paimon_<group>_<javaName>`, or Sluice's: docs/metrics.md is the
// catalogue) with a type, a help line and one series per label set. Code asks a MetricGroup (a
// label set: database and table, say) for an instrument by name, once, and keeps the pointer;
// the same name and labels give the same instrument, so two writers of one table add to one
// counter. Instruments live as long as the registry. A callback gauge (or counter) is read at
// render time and lives as long as the MetricCallback handle it returns: callbacks registered
// under the same name and labels are summed (the write buffers of two writes of one table).
//
// Labels are bounded by their callers (docs/metrics.md says how for each label): the registry
// keeps every series it is given.
//
// The registry's constant labels (SetConstantLabel: `job` under `sluice serve`) come first on
// every series, then the group's labels in the order the group has them.
//
// Rendering (Prometheus text exposition format 0.0.4), of one registry or of several together:
// metrics by name, HELP and TYPE once per name, series by their label text (the constant
// labels included); counters and gauges as one sample, histograms as summaries
// (the quantiles 0.5, 0.75, 0.95, 0.99 and 1 of the window, then _sum and _count of all values);
// integral values without a fraction, others in the shortest form that reads back exactly, NaN
// and +Inf / -Inf as Prometheus spells them.
//
// Thread safety: every method may be called from any thread. Callbacks run under the registry's
// lock and must not call the registry.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "sluice/base/metric.h"

namespace sluice {

enum class MetricType { kCounter, kGauge, kSummary };

// Label names and values, in rendering order.
using MetricLabels = std::vector<std::pair<std::string, std::string>>;

class MetricRegistryImpl;

// Keeps a callback registered; destroying (or resetting) it removes the callback. Destroy it
// before what the callback reads.
class MetricCallback {
 public:
  MetricCallback() = default;
  MetricCallback(MetricCallback&& other) noexcept { *this = std::move(other); }
  MetricCallback& operator=(MetricCallback&& other) noexcept;
  MetricCallback(const MetricCallback&) = delete;
  MetricCallback& operator=(const MetricCallback&) = delete;
  ~MetricCallback() { Reset(); }

  void Reset();

 private:
  friend class MetricRegistryImpl;
  friend class MetricGroup;
  MetricCallback(MetricRegistryImpl* registry, uint64_t id) : registry_(registry), id_(id) {}

  MetricRegistryImpl* registry_ = nullptr;
  uint64_t id_ = 0;
};

// A label set within a registry (Java MetricGroup). A value type; REQUIRES: the registry
// outlives it and what it hands out.
class MetricGroup {
 public:
  MetricGroup(MetricRegistryImpl* registry, MetricLabels labels)
      : registry_(registry), labels_(std::move(labels)) {}

  // The instrument `name` of this label set, made on first use. REQUIRES: a name has one type
  // (and one help text) throughout the registry.
  Counter* counter(const std::string& name, const std::string& help);
  Gauge* gauge(const std::string& name, const std::string& help);
  // `window`: how many of the last values the quantiles cover (Java's window size).
  Histogram* histogram(const std::string& name, const std::string& help, int window);
  // A series whose value `read` gives at render time (`type` counter or gauge).
  [[nodiscard]] MetricCallback Callback(const std::string& name, const std::string& help,
                                        MetricType type, std::function<double()> read);

  // This group's labels plus `key` = `value`.
  MetricGroup WithLabel(std::string key, std::string value) const;

  const MetricLabels& labels() const { return labels_; }
  MetricRegistryImpl* registry() const { return registry_; }

 private:
  MetricRegistryImpl* registry_;
  MetricLabels labels_;
};

class MetricRegistryImpl {
 public:
  MetricRegistryImpl();
  ~MetricRegistryImpl();
  MetricRegistryImpl(const MetricRegistryImpl&) = delete;
  MetricRegistryImpl& operator=(const MetricRegistryImpl&) = delete;

  // A label every series carries (replacing an earlier value of `key`).
  void SetConstantLabel(const std::string& key, const std::string& value);

  MetricGroup Group(MetricLabels labels = {}) { return MetricGroup(this, std::move(labels)); }

  // The object kept under `key` for the registry's lifetime, made by `make` on first use: the
  // state of a metric group several users share (the compaction metrics of a table, over all
  // the table's writers under this registry). REQUIRES: one type per key.
  template <typename T>
  std::shared_ptr<T> Shared(const std::string& key,
                            const std::function<std::shared_ptr<T>()>& make) {
    std::lock_guard<std::mutex> lock(shared_mutex_);
    std::shared_ptr<void>& slot = shared_[key];
    if (!slot) slot = make();
    return std::static_pointer_cast<T>(slot);
  }

  std::string PrometheusText() const;
  // Several registries as one exposition (a service's jobs, each under its own `job` label):
  // each name's HELP and TYPE once (the first registry's that has it), then its series from
  // every registry, by their label text. REQUIRES: a name has one type in all of them.
  static std::string PrometheusText(const std::vector<const MetricRegistryImpl*>& registries);

 private:
  friend class MetricGroup;
  friend class MetricCallback;

  struct Series {
    std::unique_ptr<Counter> counter;
    std::unique_ptr<Gauge> gauge;
    std::unique_ptr<Histogram> histogram;
    std::map<uint64_t, std::function<double()>> callbacks;
  };
  struct Family {
    MetricType type = MetricType::kGauge;
    std::string help;
    // By the label text of the series ({a="x",b="y"}, without the constant labels).
    std::map<std::string, Series> series;
  };

  // A metric as rendered: its samples by their label text (constant labels included).
  struct RenderedFamily {
    MetricType type = MetricType::kGauge;
    std::string help;
    std::map<std::string, std::string> series;
  };
  void RenderInto(std::map<std::string, RenderedFamily>* out) const;

  Series& SeriesOf(const std::string& name, const std::string& help, MetricType type,
                   const MetricLabels& labels);  // REQUIRES: mutex_ held
  void RemoveCallback(uint64_t id);

  mutable std::mutex mutex_;
  MetricLabels constant_labels_;
  std::map<std::string, Family> families_;
  // Where each callback is: its family and series.
  std::map<uint64_t, std::pair<std::string, std::string>> callback_series_;
  uint64_t next_callback_id_ = 1;

  // Its own lock: a Shared object's maker registers instruments (mutex_).
  std::mutex shared_mutex_;
  std::map<std::string, std::shared_ptr<void>> shared_;
};

// A label value or HELP text escaped as the exposition format asks: backslash, newline and
// (label values only) double quote.
std::string EscapePrometheusLabelValue(const std::string& value);
std::string EscapePrometheusHelp(const std::string& help);

}  // namespace sluice
