// MetricsAccess: hands the engine the registry behind a public MetricRegistry (api_access.h's
// pattern). For the library only.
//
// Thread safety: stateless.
#pragma once

#include "sluice/base/metric_registry_impl.h"
#include "sluice/metrics.h"

namespace sluice {

struct MetricsAccess {
  // Null for a null registry.
  static MetricRegistryImpl* ImplOf(MetricRegistry* registry) {
    return registry == nullptr ? nullptr : registry->impl_.get();
  }
};

}  // namespace sluice
