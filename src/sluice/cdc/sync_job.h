// SyncJob: one CDC sync job in one process (Java's kafka_sync_table / kafka_sync_database Flink
// job, without Flink): source -> format parser -> table routing -> per-table sinks -> commits
// that carry the source offsets.
//
//   resume      the job's progress file (sync_progress_file.h), or, without one, the smallest
//               offsets the job's commits left in the database's tables, or else the source's
//               startup mode;
//   each message  parsed into records (a malformed one stops the job naming topic, partition
//               and offset, or goes to `--dead_letter_table`); each record routed to its table
//               (created from the record when missing: columns, keys, computed and metadata
//               columns), skipped when that table's last commit already holds it, else added
//               (schema evolution first);
//   every `commit_interval` (or when the buffered records reach `max_buffered_bytes`)
//               every table with records commits them with the offsets consumed so far; once
//               all have, the progress file is stored and the source acknowledged.
//
// So each message is applied to each table exactly once across crashes and restarts: a table's
// rows and its offsets land in one snapshot, and a restarted job skips, table by table, what
// the table already holds.
//
// Thread safety: Run on one thread; `stop` may be set from any thread (a signal handler).
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "sluice/catalog/catalog_backend.h"
#include "sluice/cdc/cdc_source.h"
#include "sluice/cdc/cdc_table_sink.h"
#include "sluice/cdc/record_parser.h"
#include "sluice/cdc/source_metrics.h"
#include "sluice/cdc/sync_job_options.h"
#include "sluice/cdc/sync_progress_file.h"
#include "sluice/cdc/table_name_converter.h"
#include "sluice/result.h"

namespace sluice {

class ComputedColumn;

// What a job has done so far: reported after every commit round.
struct SyncJobProgress {
  int64_t messages = 0;
  int64_t records = 0;
  int64_t commits = 0;
  int64_t schema_changes = 0;
  int64_t tables = 0;
  int64_t dead_letters = 0;
  std::vector<SplitLag> lag;
};

class SyncJob {
 public:
  using Log = std::function<void(const std::string&)>;

  // Checks the options (patterns, computed columns, the dead-letter table's name) and opens the
  // warehouse's catalog; the database is created when missing (as Java's actions do).
  // `parser` is null for a source whose messages carry their records (SourceMessage::records).
  static Result<std::unique_ptr<SyncJob>> Open(SyncJobOptions options,
                                               std::unique_ptr<CdcSource> source,
                                               std::unique_ptr<RecordParser> parser, Log log);
  ~SyncJob();

  // Report the source metrics (source_metrics.h) and the tables' Paimon metrics (their writes,
  // commits, compactions and expiry) into `registry`. Call before Run. REQUIRES: the registry
  // outlives the job.
  void WithMetricRegistry(MetricRegistryImpl* registry);

  // Runs until `stop` is set, then commits what was consumed and returns OK; or until an error,
  // which is returned after the tables are left as their last commits made them.
  Status Run(const std::atomic<bool>& stop,
             const std::function<void(const SyncJobProgress&)>& progress = {});

 private:
  SyncJob(SyncJobOptions options, std::unique_ptr<CdcSource> source,
          std::unique_ptr<RecordParser> parser, Log log);

  // Where the job starts: its progress file, else the tables' offsets.
  Result<SourceOffsets> ResumeOffsets();
  // Applies `message`, taking its records (SourceMessage::records) when there is no parser.
  Status Apply(SourceMessage& message);
  Status ApplyDeadLetter(const SourceMessage& message, const Status& error);
  // The sink of `table`, creating the table from `record` when missing.
  Result<CdcTableSink*> SinkFor(const std::string& table, const RichCdcMultiplexRecord& record);
  // Adds the computed and metadata columns to `record`.
  Status AddDerivedColumns(const SourceMessage& message, RichCdcMultiplexRecord* record) const;
  // Commits every sink's records with consumed_; then, when `store_progress` (every sink holds
  // everything before consumed_), stores consumed_ in the progress file and acknowledges it.
  Status CommitAll(bool store_progress = true);
  // CommitAll, then the next deadline and a progress report.
  Status CommitRound(const std::function<void(const SyncJobProgress&)>& progress,
                     std::chrono::steady_clock::time_point* next_commit);
  // Whether every split is read to its end (stop_at_end).
  bool AtEnd();
  SyncJobProgress Progress();
  // The totals into metrics_ (when set), and a commit round's split offsets when `round`.
  void ReportMetrics(bool round);

  SyncJobOptions options_;
  std::unique_ptr<CdcSource> source_;
  std::unique_ptr<RecordParser> parser_;
  Log log_;
  std::shared_ptr<const CatalogBackend> catalog_;
  std::unique_ptr<SyncProgressFile> progress_file_;
  std::unique_ptr<TableNameConverter> names_;
  std::vector<std::unique_ptr<ComputedColumn>> computed_columns_;
  CdcSinkContext context_;
  std::map<std::string, std::unique_ptr<CdcTableSink>> sinks_;
  // A source table's sink by source database and table (nullptr: the table is not synced),
  // found once per source table: sinks are never dropped while the job runs.
  std::unordered_map<std::string, std::unordered_map<std::string, CdcTableSink*>> routes_;
  SourceOffsets consumed_;
  std::vector<RichCdcMultiplexRecord> records_;
  // The sinks the message being applied has added records to.
  std::vector<CdcTableSink*> touched_;
  // Whether the last message applied lets the tables commit (SourceMessage::commit_point).
  bool at_commit_point_ = true;
  int64_t messages_ = 0;
  int64_t dead_letters_ = 0;
  std::unique_ptr<SourceMetrics> metrics_;
};

}  // namespace sluice
