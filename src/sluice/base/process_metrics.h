// The process metrics of docs/metrics.md (`sluice_process_*`: resident and virtual memory,
// threads, open file descriptors, CPU seconds, start time), read from /proc/self when the
// registry renders, as Prometheus client libraries' process collectors do.
//
// Thread safety: as MetricRegistryImpl.
#pragma once

#include "sluice/base/metric_registry_impl.h"

namespace sluice {

// Registers them with `registry` for its lifetime (once; later calls do nothing). Off Linux
// (no /proc/self) the values are 0.
void RegisterProcessMetrics(MetricRegistryImpl* registry);

}  // namespace sluice
