#include "sluice/base/metric_registry_impl.h"

#include <charconv>
#include <cmath>

namespace sluice {

namespace {

// The quantiles a summary shows of its window; 1 is the window's maximum.
constexpr double kSummaryQuantiles[] = {0.5, 0.75, 0.95, 0.99, 1};

const char* TypeName(MetricType type) {
  switch (type) {
    case MetricType::kCounter:
      return "counter";
    case MetricType::kGauge:
      return "gauge";
    case MetricType::kSummary:
      return "summary";
  }
  return "untyped";
}

std::string FormatValue(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  // Integral values (counts, bytes, ids) print as integers, exactly up to 2^53.
  if (value == std::floor(value) && std::fabs(value) < 9007199254740992.0) {
    return std::to_string(static_cast<int64_t>(value));
  }
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), value);
  return std::string(buf, end);
}

void AppendLabels(const MetricLabels& labels, std::string* out) {
  for (const auto& [key, value] : labels) {
    if (out->size() > 1) *out += ',';
    *out += key;
    *out += "=\"";
    *out += EscapePrometheusLabelValue(value);
    *out += '"';
  }
}

// `{a="x",b="y"}` of `labels`, empty without labels.
std::string LabelText(const MetricLabels& labels) {
  if (labels.empty()) return "";
  std::string out = "{";
  AppendLabels(labels, &out);
  out += '}';
  return out;
}

// The label text of a series under the constant labels, plus `extra` (a quantile) at the end.
std::string SampleLabels(const std::string& constant, const std::string& series,
                         const std::string& extra = "") {
  std::string inner;
  for (const std::string* part : {&constant, &series}) {
    if (part->empty()) continue;
    if (!inner.empty()) inner += ',';
    inner += part->substr(1, part->size() - 2);
  }
  if (!extra.empty()) {
    if (!inner.empty()) inner += ',';
    inner += extra;
  }
  return inner.empty() ? "" : "{" + inner + "}";
}

}  // namespace

std::string EscapePrometheusLabelValue(const std::string& value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string EscapePrometheusHelp(const std::string& help) {
  std::string out;
  out.reserve(help.size());
  for (char c : help) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

MetricCallback& MetricCallback::operator=(MetricCallback&& other) noexcept {
  if (this != &other) {
    Reset();
    registry_ = other.registry_;
    id_ = other.id_;
    other.registry_ = nullptr;
  }
  return *this;
}

void MetricCallback::Reset() {
  if (registry_ != nullptr) registry_->RemoveCallback(id_);
  registry_ = nullptr;
}

Counter* MetricGroup::counter(const std::string& name, const std::string& help) {
  std::lock_guard<std::mutex> lock(registry_->mutex_);
  auto& series = registry_->SeriesOf(name, help, MetricType::kCounter, labels_);
  if (!series.counter) series.counter = std::make_unique<Counter>();
  return series.counter.get();
}

Gauge* MetricGroup::gauge(const std::string& name, const std::string& help) {
  std::lock_guard<std::mutex> lock(registry_->mutex_);
  auto& series = registry_->SeriesOf(name, help, MetricType::kGauge, labels_);
  if (!series.gauge) series.gauge = std::make_unique<Gauge>();
  return series.gauge.get();
}

Histogram* MetricGroup::histogram(const std::string& name, const std::string& help, int window) {
  std::lock_guard<std::mutex> lock(registry_->mutex_);
  auto& series = registry_->SeriesOf(name, help, MetricType::kSummary, labels_);
  if (!series.histogram) series.histogram = std::make_unique<Histogram>(window);
  return series.histogram.get();
}

MetricCallback MetricGroup::Callback(const std::string& name, const std::string& help,
                                     MetricType type, std::function<double()> read) {
  std::lock_guard<std::mutex> lock(registry_->mutex_);
  uint64_t id = registry_->next_callback_id_++;
  registry_->SeriesOf(name, help, type, labels_).callbacks.emplace(id, std::move(read));
  registry_->callback_series_.emplace(id, std::make_pair(name, LabelText(labels_)));
  return MetricCallback(registry_, id);
}

MetricGroup MetricGroup::WithLabel(std::string key, std::string value) const {
  MetricLabels labels = labels_;
  labels.emplace_back(std::move(key), std::move(value));
  return MetricGroup(registry_, std::move(labels));
}

MetricRegistryImpl::MetricRegistryImpl() = default;

MetricRegistryImpl::~MetricRegistryImpl() {
  // Shared objects hold callbacks, which they remove from this registry as they go.
  std::map<std::string, std::shared_ptr<void>> shared;
  {
    std::lock_guard<std::mutex> lock(shared_mutex_);
    shared.swap(shared_);
  }
  shared.clear();
}

void MetricRegistryImpl::SetConstantLabel(const std::string& key, const std::string& value) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& [k, v] : constant_labels_) {
    if (k == key) {
      v = value;
      return;
    }
  }
  constant_labels_.emplace_back(key, value);
}

MetricRegistryImpl::Series& MetricRegistryImpl::SeriesOf(const std::string& name,
                                                         const std::string& help, MetricType type,
                                                         const MetricLabels& labels) {
  auto [it, made] = families_.try_emplace(name);
  if (made) {
    it->second.type = type;
    it->second.help = help;
  }
  return it->second.series[LabelText(labels)];
}

void MetricRegistryImpl::RemoveCallback(uint64_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto where = callback_series_.find(id);
  if (where == callback_series_.end()) return;
  auto family = families_.find(where->second.first);
  if (family != families_.end()) {
    auto series = family->second.series.find(where->second.second);
    if (series != family->second.series.end()) {
      series->second.callbacks.erase(id);
      const Series& s = series->second;
      // A series only callbacks made goes with its last callback.
      if (s.callbacks.empty() && !s.counter && !s.gauge && !s.histogram) {
        family->second.series.erase(series);
      }
    }
    if (family->second.series.empty()) families_.erase(family);
  }
  callback_series_.erase(where);
}

void MetricRegistryImpl::RenderInto(std::map<std::string, RenderedFamily>* out) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::string constant = LabelText(constant_labels_);
  for (const auto& [name, family] : families_) {
    if (family.series.empty()) continue;
    auto [rendered, made] = out->try_emplace(name);
    if (made) {
      rendered->second.type = family.type;
      rendered->second.help = family.help;
    }
    for (const auto& [labels, series] : family.series) {
      const std::string sample_labels = SampleLabels(constant, labels);
      std::string& lines = rendered->second.series[sample_labels];
      if (family.type == MetricType::kSummary) {
        if (!series.histogram) continue;
        Histogram::Snapshot snapshot = series.histogram->Read();
        for (double q : kSummaryQuantiles) {
          lines += name + SampleLabels(constant, labels, "quantile=\"" + FormatValue(q) + "\"") +
                   " " + FormatValue(Histogram::Quantile(snapshot.window, q)) + "\n";
        }
        lines += name + "_sum" + sample_labels + " " + FormatValue(snapshot.sum) + "\n";
        lines += name + "_count" + sample_labels + " " +
                 FormatValue(static_cast<double>(snapshot.count)) + "\n";
        continue;
      }
      double value = 0;
      if (series.counter) value += static_cast<double>(series.counter->value());
      if (series.gauge) value += series.gauge->value();
      for (const auto& [id, read] : series.callbacks) value += read();
      lines += name + sample_labels + " " + FormatValue(value) + "\n";
    }
  }
}

std::string MetricRegistryImpl::PrometheusText() const { return PrometheusText({this}); }

std::string MetricRegistryImpl::PrometheusText(
    const std::vector<const MetricRegistryImpl*>& registries) {
  std::map<std::string, RenderedFamily> families;
  // One registry locked at a time: a registry's callbacks never wait for another's lock.
  for (const MetricRegistryImpl* registry : registries) registry->RenderInto(&families);
  std::string out;
  for (const auto& [name, family] : families) {
    out += "# HELP " + name + " " + EscapePrometheusHelp(family.help) + "\n";
    out += "# TYPE " + name + " " + TypeName(family.type) + "\n";
    for (const auto& [labels, lines] : family.series) out += lines;
  }
  return out;
}

}  // namespace sluice
