// SourceMetrics: the source metrics of one sync job (`paimon_source_*` of docs/metrics.md): the
// Flink source metrics a Paimon CDC Flink job shows on its source (FLIP-33 numRecordsIn,
// numRecordsOut, currentFetchEventTimeLag, sourceIdleTime, pendingRecords; the Kafka source's
// currentOffset per split), and Sluice's counts of tables, schema changes, dead letters and
// commit rounds. The job's label is the registry's constant `job` label.
//
// Thread safety: updated from the job's thread; read when the registry renders, from any.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "sluice/base/metric_registry_impl.h"
#include "sluice/cdc/cdc_source.h"
#include "sluice/cdc/source_message.h"

namespace sluice {

class SourceMetrics {
 public:
  // At most this many splits get series of their own (the job-wide sum covers every split).
  static constexpr size_t kMaxSplitSeries = 256;

  explicit SourceMetrics(MetricGroup job);

  // A poll handed out `messages` (possibly none) at wall-clock `now_ms`.
  void Fetched(const std::vector<SourceMessage>& messages, int64_t now_ms);
  // What the job's totals are now: records handed to the tables, schema changes, dead letters
  // and tables written; counters advance by the difference to the last call.
  void Totals(int64_t records_out, int64_t schema_changes, int64_t dead_letters, int64_t tables);
  // A commit round finished with the splits at `lag`.
  void CommitRound(const std::vector<SplitLag>& lag);

 private:
  MetricGroup job_;
  Counter* records_in_;
  Counter* records_out_;
  Counter* schema_changes_;
  Counter* dead_letters_;
  Counter* commit_rounds_;
  Gauge* fetch_lag_;
  Gauge* tables_;
  int64_t last_records_out_ = 0;
  int64_t last_schema_changes_ = 0;
  int64_t last_dead_letters_ = 0;
  // Wall-clock millis of the last message fetched (the job's start before any).
  std::atomic<int64_t> last_fetch_ms_;
  // Last: removed before what it reads.
  MetricCallback idle_time_;
};

}  // namespace sluice
