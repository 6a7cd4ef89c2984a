#include "sluice/table/sink/writer_buffer_metric.h"

#include <functional>
#include <utility>

namespace sluice {

WriterBufferMetric::WriterBufferMetric(MetricGroup table, const MemoryPoolFactory* pool) {
  auto gauge = [&](const char* name, const char* help, std::function<double()> read) {
    // A plain gauge at 0 keeps the series once the table's writes are closed (a sync closes
    // an idle table's writers), so the table shows 0 rather than vanishing from a dashboard.
    table.gauge(name, help);
    callbacks_.push_back(table.Callback(name, help, MetricType::kGauge, std::move(read)));
  };
  gauge("paimon_writerBuffer_numWriters", "Bucket writers sharing the write buffers.",
        [pool] { return static_cast<double>(pool->num_owners()); });
  gauge("paimon_writerBuffer_bufferPreemptCount", "Write buffers flushed to make room for another.",
        [pool] { return static_cast<double>(pool->preempt_count()); });
  gauge("paimon_writerBuffer_usedWriteBufferSizeByte", "Bytes the write buffers hold.",
        [pool] { return static_cast<double>(pool->used_bytes()); });
  gauge("paimon_writerBuffer_totalWriteBufferSizeByte", "The write-buffer budget (bytes).",
        [pool] { return static_cast<double>(pool->total_bytes()); });
}

}  // namespace sluice
