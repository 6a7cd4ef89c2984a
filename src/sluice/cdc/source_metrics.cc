#include "sluice/cdc/source_metrics.h"

#include <chrono>
#include <string>

namespace sluice {

namespace {

int64_t WallMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

SourceMetrics::SourceMetrics(MetricGroup job)
    : job_(std::move(job)),
      records_in_(job_.counter("paimon_source_numRecordsIn", "Source messages read.")),
      records_out_(
          job_.counter("paimon_source_numRecordsOut", "Change records handed to the tables.")),
      schema_changes_(job_.counter("paimon_source_schemaChanges_total",
                                   "Schema changes applied to the tables.")),
      dead_letters_(job_.counter("paimon_source_deadLetters_total",
                                 "Messages sent to the dead-letter table.")),
      commit_rounds_(job_.counter("paimon_source_commitRounds_total", "Commit rounds done.")),
      fetch_lag_(job_.gauge("paimon_source_currentFetchEventTimeLag",
                            "Fetch time minus event time of the last message with one (ms).")),
      tables_(job_.gauge("paimon_source_numTables", "Tables the job writes.")),
      last_fetch_ms_(WallMillis()) {
  idle_time_ =
      job_.Callback("paimon_source_sourceIdleTime",
                    "Time since the source last handed a message (ms).", MetricType::kGauge,
                    [this] { return static_cast<double>(WallMillis() - last_fetch_ms_.load()); });
}

void SourceMetrics::Fetched(const std::vector<SourceMessage>& messages, int64_t now_ms) {
  if (messages.empty()) return;
  records_in_->Inc(static_cast<int64_t>(messages.size()));
  last_fetch_ms_.store(now_ms);
  // Flink: FetchTime - EventTime of the last record fetched; snapshot rows carry no time (0).
  for (auto it = messages.rbegin(); it != messages.rend(); ++it) {
    if (it->timestamp_ms > 0) {
      fetch_lag_->Set(static_cast<double>(now_ms - it->timestamp_ms));
      break;
    }
  }
}

void SourceMetrics::Totals(int64_t records_out, int64_t schema_changes, int64_t dead_letters,
                           int64_t tables) {
  records_out_->Inc(records_out - last_records_out_);
  schema_changes_->Inc(schema_changes - last_schema_changes_);
  dead_letters_->Inc(dead_letters - last_dead_letters_);
  last_records_out_ = records_out;
  last_schema_changes_ = schema_changes;
  last_dead_letters_ = dead_letters;
  tables_->Set(static_cast<double>(tables));
}

void SourceMetrics::CommitRound(const std::vector<SplitLag>& lag) {
  commit_rounds_->Inc();
  int64_t pending = 0;
  size_t series = 0;
  for (const SplitLag& split : lag) {
    const int64_t behind =
        split.end_offset >= 0 && split.next_offset >= 0 ? split.end_offset - split.next_offset : 0;
    pending += behind;
    if (series++ >= kMaxSplitSeries) continue;
    MetricGroup group = job_.WithLabel("split", split.split);
    group.gauge("paimon_source_currentOffset", "The next offset the job reads of the split.")
        ->Set(static_cast<double>(split.next_offset));
    if (split.end_offset >= 0) {
      group
          .gauge("paimon_source_pendingRecords",
                 "Messages of the split not read yet (end offset minus next offset); "
                 "split=\"\" is the job's sum.")
          ->Set(static_cast<double>(behind));
    }
  }
  job_.WithLabel("split", "")
      .gauge("paimon_source_pendingRecords",
             "Messages of the split not read yet (end offset minus next offset); split=\"\" is "
             "the job's sum.")
      ->Set(static_cast<double>(pending));
}

}  // namespace sluice
