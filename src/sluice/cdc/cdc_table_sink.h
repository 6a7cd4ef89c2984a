// CdcTableSink: the writing end of a sync job for one Paimon table (Java's
// CdcRecordStoreWriteOperator, its schema-evolution step and its committer, in one process):
//
//   Add       makes the table fit the record's schema first (new columns added, types widened:
//             schema_evolution.h; what is buffered is committed before the schema changes, so
//             every commit's rows have one schema), then buffers the record;
//   Commit    writes what is buffered and commits it as one snapshot carrying the job's source
//             offsets (SourceOffsets::kSnapshotProperty) under the job's commit user, with the
//             next commit identifier: a restarted job finds both (table_sync_state.h).
//
// The table's writer (one LSM or append writer per bucket, FileStoreWrite) opens on the first
// record and closes after `idle_commits_before_close` commits without records.
//
// Thread safety: used by the sync job's thread only.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sluice/base/metric_registry_impl.h"
#include "sluice/catalog/catalog_backend.h"
#include "sluice/cdc/cdc_record.h"
#include "sluice/cdc/cdc_record_converter.h"
#include "sluice/cdc/source_offsets.h"
#include "sluice/cdc/sync_job_options.h"
#include "sluice/maintenance/commit_maintenance.h"
#include "sluice/result.h"
#include "sluice/table/sink/file_store_commit.h"
#include "sluice/table/sink/file_store_write.h"

namespace sluice {

// What the sinks of a job share: the job's options, its counters (for progress lines and
// metrics) and its log (a line per schema change and per new table).
struct CdcSinkContext {
  const SyncJobOptions* options = nullptr;
  std::function<void(const std::string&)> log;
  int64_t records = 0;
  int64_t commits = 0;
  // The text bytes of the records added since their tables' last commits, over all sinks.
  int64_t buffered_bytes = 0;
  int64_t schema_changes = 0;
  // Where the sinks' writes, commits and maintenance report (Paimon's commit, compaction,
  // writerBuffer and expiry metrics of each table); null: nowhere.
  MetricRegistryImpl* metrics = nullptr;
};

class CdcTableSink {
 public:
  // The sink of table `identifier` ("db.table"), which must exist. Loads what the job's commit
  // user committed to it before (its offsets and last identifier).
  static Result<std::unique_ptr<CdcTableSink>> Open(std::shared_ptr<const CatalogBackend> catalog,
                                                    std::string identifier,
                                                    CdcSinkContext* context);
  ~CdcTableSink();

  const std::string& identifier() const { return identifier_; }
  // The offsets of the table's last commit by this job (before this run, then this run's).
  const SourceOffsets& committed() const { return committed_; }

  // Whether the table holds the message at `offset` of `split` already.
  bool Holds(const std::string& split, int64_t offset) const {
    return committed_.Covers(split, offset);
  }

  // Makes the table fit `schema` (committing what is buffered with `consumed` first when its
  // schema must change), then buffers `record`. InvalidArgument naming the table, column and
  // types for a change Paimon cannot make (the table is left as it was).
  Status Add(const std::shared_ptr<const CdcSchema>& schema, CdcRecord record,
             const SourceOffsets& consumed);

  // Records a fact about the table (SourceOffsets::kFactPrefix) for its next commit.
  void AddFact(const std::string& split, int64_t next) { facts_[split] = next; }

  bool has_pending() const {
    return pending_rows() > 0 || has_unflushed_writes_ || !facts_.empty();
  }

  // Writes the buffered records and commits them with the table's offsets advanced to
  // `consumed` (SourceOffsets::AdvanceTo: a split never moves back). A
  // sink with nothing buffered commits nothing (and counts an idle commit, closing its writer
  // after `idle_commits_before_close`).
  Status Commit(const SourceOffsets& consumed);

  // Closes the writer, dropping what is not committed (the job replays it after a restart).
  Status Close();

 private:
  CdcTableSink(std::shared_ptr<const CatalogBackend> catalog, std::string identifier,
               CdcSinkContext* context);

  // Loads the table (its latest schema) and the committer.
  Status Reload();
  Status EnsureWriter();
  int64_t pending_rows() const { return pending_ ? pending_->num_rows() : 0; }
  // Writes the converted rows to the table's writer.
  Status FlushPending();

  std::shared_ptr<const CatalogBackend> catalog_;
  std::string identifier_;
  CdcSinkContext* context_;

  std::shared_ptr<FileStoreTable> table_;
  std::unique_ptr<CdcRecordConverter> converter_;
  std::unique_ptr<FileStoreWrite> write_;
  std::unique_ptr<FileStoreCommit> commit_;
  std::unique_ptr<CommitMaintenance> maintenance_;

  // The source columns the table was last checked against (schema evolution runs when a
  // record's columns differ).
  // The last record schema found to fit the table: a record with this very object is not
  // checked again.
  std::shared_ptr<const CdcSchema> checked_schema_;
  SourceOffsets committed_;
  int64_t next_identifier_ = 1;
  // Records converted to the table's row type, not yet handed to the writer.
  std::unique_ptr<ColumnBatch> pending_;
  std::vector<RowKind> pending_kinds_;
  int64_t buffered_bytes_ = 0;
  bool has_unflushed_writes_ = false;
  int32_t idle_commits_ = 0;
  // Facts for the next commit (AddFact).
  std::map<std::string, int64_t> facts_;
};

}  // namespace sluice
