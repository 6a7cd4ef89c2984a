#include "sluice/metrics.h"

#include <vector>

#include "sluice/base/metric_registry_impl.h"
#include "sluice/base/process_metrics.h"

namespace sluice {

MetricRegistry::MetricRegistry() : impl_(std::make_unique<MetricRegistryImpl>()) {}

MetricRegistry::~MetricRegistry() = default;

void MetricRegistry::SetConstantLabel(const std::string& key, const std::string& value) {
  impl_->SetConstantLabel(key, value);
}

void MetricRegistry::RegisterProcessMetrics() { sluice::RegisterProcessMetrics(impl_.get()); }

void MetricRegistry::SetGauge(const std::string& name, const std::string& help,
                              const Labels& labels, double value) {
  impl_->Group(labels).gauge(name, help)->Set(value);
}

void MetricRegistry::IncrementCounter(const std::string& name, const std::string& help,
                                      const Labels& labels, int64_t delta) {
  impl_->Group(labels).counter(name, help)->Inc(delta);
}

std::string MetricRegistry::PrometheusText() const { return impl_->PrometheusText(); }

std::string MetricRegistry::PrometheusText(const std::vector<const MetricRegistry*>& registries) {
  std::vector<const MetricRegistryImpl*> impls;
  impls.reserve(registries.size());
  for (const MetricRegistry* registry : registries) impls.push_back(registry->impl_.get());
  return MetricRegistryImpl::PrometheusText(impls);
}

}  // namespace sluice
