// DedicatedCompactor: Java Paimon's dedicated compaction job (the `compact` and
// `compact_database` actions: CompactAction / CompactDatabaseAction with StoreCompactOperator,
// the compactor sources' `streaming-compact` scan and AppendCompactCoordinator), so that writers
// running with `write-only = true` never compact and never stall.
//
// Tables: one (`table`), or every `db.table` of the databases matching `database_pattern` that
// matches `including_tables` and not `excluding_tables` (full-string Java-style regex matches).
// In streaming mode with `discover_new_tables` (Java's combined mode) the warehouse is listed
// again every discovery interval and new matching tables join; otherwise the tables are those
// listed at the start, and none is an error (Java's divided mode).
//
// Streaming (Java's default): each table is read from the snapshot after its latest COMPACT
// snapshot (or its earliest; Java ContinuousCompactorStartingScanner), then every discovery
// interval its new APPEND snapshots are read (Java DeltaFollowUpScanner): the partitions and
// buckets each wrote are compacted with the table's own picker (universal compaction under
// `num-sorted-run.compaction-trigger` for primary-key tables, the bucketed or bucket-unaware
// append compaction for append tables), so that a bucket's sorted runs fall back under the
// trigger. When snapshots a table had not been read to yet expired, every bucket of its latest
// snapshot is looked at once instead. Runs until `stop`; the compactions under way are
// finished and committed first.
// Batch: every bucket of every table's latest snapshot (only partitions whose newest file is
// older than `partition_idle_millis`, when set) is compacted once (fully unless `full` is
// false), then Run returns.
//
// Work is done by `threads` workers. A table is compacted by at most one worker at a time, at
// most kMaxBucketsPerTask buckets per task, tables taken round-robin, so that one busy table
// cannot starve the others. Each task opens a fresh writer on the table's latest state
// (options: the table's, then `table_conf`, then `write-only = false` and, streaming,
// `num-sorted-run.stop-trigger` unbounded and `lookup-wait = false`, as Java's job sets),
// compacts its buckets, and commits them as one COMPACT snapshot (commit identifier: Java's
// batch one; the table's commit maintenance, snapshot expiry included, runs after it: the
// writers' `write-only` skipped it). A commit that loses a race with another committer (a file
// it rewrote is gone: Conflict) is dropped, its new files deleted, and its buckets are compacted
// again from the new state; writers never see it (their APPEND commits do not check for
// conflicts). So is a compaction that found a file it read gone (NotFound: the table moved on
// under it). A table dropped under the job is forgotten. Any other error ends Run with it.
//
// Thread safety: Run blocks the calling thread; `stop` may be set from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sluice/base/metric_registry_impl.h"
#include "sluice/catalog/catalog_backend.h"
#include "sluice/meta/core_options.h"
#include "sluice/partition_spec.h"
#include "sluice/status.h"

namespace sluice {

// What a running compaction job has done so far.
struct DedicatedCompactorProgress {
  int64_t tables = 0;        // tables watched
  int64_t commits = 0;       // COMPACT snapshots made
  int64_t files_before = 0;  // files rewritten
  int64_t files_after = 0;   // files they became
  int64_t redone = 0;        // compactions dropped after losing a race, to be redone
};

struct DedicatedCompactorOptions {
  // The catalog the tables are found in; null: a filesystem catalog over `warehouse` through the
  // file system of its scheme.
  std::shared_ptr<const CatalogBackend> catalog;
  std::string warehouse;

  // `db.table`: the one table of `compact`. Unset: the patterns pick the tables.
  std::optional<std::string> table;
  std::string database_pattern = ".*";
  std::string including_tables = ".*";
  std::optional<std::string> excluding_tables;
  bool discover_new_tables = false;

  // Only these partitions (each a spec naming some or all partition keys; any may match), or
  // only those `where` (a predicate over the partition keys, predicate_parser.h) selects.
  std::vector<PartitionSpec> partitions;
  std::string where;

  bool streaming = true;
  // Full compaction (every file of a bucket into one run) instead of the picker's choice.
  bool full = false;
  // Batch only: compact only partitions whose newest file is older than this.
  std::optional<int64_t> partition_idle_millis;
  // Dynamic options of every table (Java --table_conf).
  DynamicOptions table_conf;
  // How often the warehouse is listed again and the tables' new snapshots read (Java
  // `continuous.discovery-interval`).
  int64_t discovery_interval_millis = 10'000;
  int threads = 2;
  // Where the compactions, their commits and the expiry after them report (docs/metrics.md);
  // none when null. REQUIRES: outlives Run.
  MetricRegistryImpl* metrics = nullptr;

  std::function<void(const std::string&)> log;
  // After each compaction committed or dropped (and once at the start, with the tables found).
  std::function<void(const DedicatedCompactorProgress&)> progress;
  // Test-only: called with the table's name between a compaction's PrepareCommit and its commit,
  // so that a test can commit something else in between (on the worker's thread).
  std::function<void(const std::string& table)> before_commit_for_testing;
};

class DedicatedCompactor {
 public:
  // Buckets one task compacts at most before its table goes to the back of the queue.
  static constexpr size_t kMaxBucketsPerTask = 16;
  // Batch mode: how often a task that keeps losing races is redone before Run fails with the
  // Conflict.
  static constexpr int kMaxBatchRedos = 10;

  // Checks the options alone: InvalidArgument for `full` or `partition_idle_millis` in streaming
  // mode, `partitions` with `where`, a `table` that is not db.table, or fewer than one thread.
  static Status Validate(const DedicatedCompactorOptions& options);

  // Runs the job (see above). InvalidArgument as Validate, for a bad pattern, or for a `where`
  // or partition spec naming what is no partition key of a table; NotFound naming a missing
  // `table`; InvalidArgument when no table matches the patterns (divided mode).
  static Status Run(const DedicatedCompactorOptions& options, const std::atomic<bool>& stop);
};

}  // namespace sluice
