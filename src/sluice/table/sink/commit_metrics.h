// CommitMetrics: the `commit` metric group of a table (Java operation.metrics.CommitMetrics with
// CommitStats; names in docs/metrics.md): what the last commit did, the commit duration
// histogram, and Sluice's counters of snapshots, records and files, so that rate() works where
// Java has only last-value gauges.
//
// A FileStoreCommit begins each commit call (BeginCommit), adds each snapshot it lands
// (AddSnapshot) and reports once the call succeeded (ReportCommit), as Java reports one
// CommitStats per successful commit.
//
// Thread safety: not thread-safe (one per FileStoreCommit); what it updates is the registry's,
// which is.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sluice/base/metric_registry_impl.h"
#include "sluice/meta/manifest_entry.h"
#include "sluice/meta/snapshot.h"

namespace sluice {

class CommitMetrics {
 public:
  explicit CommitMetrics(MetricGroup table);

  // A commit call starts: forget what a failed call before it landed.
  void BeginCommit() { stats_ = Stats(); }
  // A snapshot of `kind` landed with these files.
  void AddSnapshot(CommitKind kind, const std::vector<ManifestEntry>& table_files,
                   const std::vector<ManifestEntry>& changelog_files);
  // The commit call is done after `duration_ms` and `attempts` attempts over its snapshots.
  // Nothing is reported for a call that made no snapshot.
  void ReportCommit(int64_t duration_ms, int attempts);

 private:
  // The current commit so far, by Java CommitStats's figures.
  struct Stats {
    int64_t table_files_appended = 0;
    int64_t table_files_compacted = 0;
    int64_t changelog_files_appended = 0;
    int64_t changelog_files_compacted = 0;
    int64_t table_files_added = 0;
    int64_t table_files_deleted = 0;
    int64_t delta_records_appended = 0;
    int64_t delta_records_added = 0;  // ADD entries only: Sluice's records counter
    int64_t changelog_records_appended = 0;
    int64_t delta_records_compacted = 0;
    int64_t changelog_records_compacted = 0;
    int64_t compaction_input_size = 0;
    int64_t compaction_output_size = 0;
    std::set<std::string> partitions;
    std::set<std::pair<std::string, int32_t>> buckets;
    int generated_snapshots = 0;
  };

  MetricGroup table_;
  Stats stats_;

  Histogram* duration_;
  Counter* records_appended_total_;
  Counter* files_added_total_;
};

}  // namespace sluice
