// WriterBufferMetric: the `writerBuffer` metric group of a table (Java
// operation.metrics.WriterBufferMetric; names in docs/metrics.md): the write-buffer budget of
// one FileStoreWrite (its MemoryPoolFactory) read when the registry renders; several writes of
// one table under one registry add up, and a table whose writes all closed shows 0.
//
// Thread safety: as MetricRegistryImpl. REQUIRES: `pool` outlives this object.
#pragma once

#include <vector>

#include "sluice/base/metric_registry_impl.h"
#include "sluice/lsm/memory_pool_factory.h"

namespace sluice {

class WriterBufferMetric {
 public:
  WriterBufferMetric(MetricGroup table, const MemoryPoolFactory* pool);

 private:
  std::vector<MetricCallback> callbacks_;
};

}  // namespace sluice
