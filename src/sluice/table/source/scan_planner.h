// PlanScan: turns a table version and a read's restrictions into DataSplits (Java
// SnapshotReaderImpl + FileStoreScan + the split generators, one split per partition and
// bucket).
//
//   snapshot -> manifest lists -> manifests -> entries -> ADD/DELETE folded -> splits
//
// Manifests whose partition statistics or bucket range exclude the read are never opened; the
// others are read on a small thread pool. Entries are folded by file identifier (partition,
// bucket, level, file name, extra files, embedded index, external path): a DELETE cancels the
// matching ADD, so files a compaction replaced are gone.
//
// Read semantics (Java Paimon):
//   batch        every live file; for primary-key tables with deletion vectors and first-row
//                tables only files with level > 0 (uncompacted level-0 files are invisible).
//   stream_full  the first plan of a streaming read at the snapshot: every live file, level 0
//                included.
//   delta        the files added by exactly that APPEND snapshot (its delta manifest list);
//                other commit kinds add nothing a streaming read emits, so they plan empty.
//                For tables with a `changelog-producer`: the snapshot's changelog files (its
//                changelog manifest list, any commit kind; none plans empty), in commit order.
//
//   incremental  with `incremental`: the delta or changelog files of a range of snapshots as
//                streaming splits (incremental_scan.h).
//
// The data filter only prunes (partitions, manifests, files by min/max/null-count statistics
// evolved by field id, see stats_evolution.h); readers must still apply it to rows. For
// primary-key tables (Java KeyValueFileStoreScan) files are pruned by key statistics; value
// statistics prune single files only where files cannot overlap (batch reads of
// deletion-vector and first-row tables, a bucket that is one level > 0 run); otherwise a
// merge needs every version of a key, so a bucket is dropped only when no file may match, and
// never for partial-update / aggregation. Delta reads are not pruned by value statistics.
// Data-evolution tables are not pruned by statistics (a row spans several files).
//
// When the main branch sets `scan.fallback-branch`, a batch plan adds, for every partition the
// main branch does not have, the splits of the fallback branch's latest snapshot (Java
// FallbackReadFileStoreTable).
//
// Thread safety: PlanScan is reentrant; it starts and joins its own worker threads.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sluice/base/metric_registry_impl.h"
#include "sluice/predicate/predicate.h"
#include "sluice/result.h"
#include "sluice/scan_mode.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/source/data_split.h"
#include "sluice/table/source/incremental_scan.h"

namespace sluice {

// "batch", "stream_full", "delta"; InvalidArgument otherwise.
Result<ScanMode> ScanModeFromName(std::string_view name);

struct ScanOptions {
  TableVersion version;
  ScanMode mode = ScanMode::kBatch;
  // FallbackTableOf(table, mode), when the caller opened it already (ReadBuilder, which reads
  // its splits with it); null: the plan opens it when the table has one.
  std::shared_ptr<FileStoreTable> fallback_table;
  // Partition key -> value text as Java partition specs write it ("10", "2024-01-01"); the
  // `partition.default-name` value selects the null partition. Exact.
  std::vector<std::pair<std::string, std::string>> partition_spec;
  // A predicate over the table's partition type (TableSchema::LogicalPartitionType()). Exact.
  PredicatePtr partition_filter;
  std::optional<int32_t> bucket;
  // A predicate over the latest schema's row type (TableSchema::LogicalRowType()). Prunes only.
  PredicatePtr filter;
  // Recorded path prefix -> replacement, relative to the table directory unless absolute:
  // applied to external data and index file paths (the corpus' `path_remap`).
  std::vector<std::pair<std::string, std::string>> path_remap;
  // Threads reading manifests; 0 = min(hardware concurrency, 8).
  int num_threads = 0;

  // Restrictions of streaming reads (data_table_stream_scan.h):
  // only files whose level passes (Java withLevelFilter; the first plan of a lookup or
  // full-compaction changelog table leaves out the files whose changes a compaction emits);
  std::function<bool(int32_t level)> level_filter;
  // only files created at or after these epoch millis (Java FileCreationTimeStartingScanner);
  std::optional<int64_t> min_file_creation_millis;
  // a delta plan of an OVERWRITE snapshot plans the files it added (Java
  // getOverwriteChangesPlan of an append table under `streaming-read-append-overwrite`).
  bool delta_of_overwrite = false;
  // a delta plan reads the changelog files (true) or the data files (false) instead of what
  // the table's `changelog-producer` says (`incremental-between-scan-mode`).
  std::optional<bool> delta_reads_changelog;
  // Set: the plan is the incremental range's (incremental_scan.h), not one snapshot's.
  std::optional<IncrementalBetween> incremental;
  // Where a successful plan reports (the table's scan group, scan_metrics_reporter.h; Java
  // withMetricRegistry); null: nowhere.
  MetricRegistryImpl* metric_registry = nullptr;
};

// What planning touched, for tests and benchmarks.
struct ScanMetrics {
  int64_t manifests_total = 0;
  int64_t manifests_skipped = 0;  // by partition statistics or bucket range
  int64_t entries_read = 0;
  int64_t files_skipped_by_stats = 0;
};

struct ScanPlan {
  // The snapshot planned; nullopt when the table has none (the plan is then empty).
  std::optional<int64_t> snapshot_id;
  // Ordered by partition values, then bucket; fallback-branch splits last.
  std::vector<DataSplit> splits;
  ScanMetrics metrics;
};

Result<ScanPlan> PlanScan(const FileStoreTable& table, const ScanOptions& options);

// The `scan.fallback-branch` of `table` that a plan in `mode` fills missing partitions from
// (batch reads of the main branch), or nullptr. Its splits (DataSplit::from_fallback_branch)
// are read with this table: its files name the branch's schema ids (Java
// FallbackReadFileStoreTable reads them with the fallback table's own read).
Result<std::shared_ptr<FileStoreTable>> FallbackTableOf(const FileStoreTable& table, ScanMode mode);

}  // namespace sluice
