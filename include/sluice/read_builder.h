// ReadBuilder: what one read of a table asks for (Java ReadBuilder). Every setter maps to one
// `sluice read` flag. NewScan() makes the TableScan that plans the splits; NewRead() the
// TableRead that reads them. A process that only reads splits planned elsewhere builds the
// same request (same version, schema, projection and filter) and calls NewRead().
//
//   version      latest (default), WithSnapshot(id), WithTag(name) or WithAsOf(time): at most
//                one. WithBranch reads another branch (its own snapshots and tags).
//   schema       WithSchemaId reads every file through that schema of the branch (default:
//                the schema of the snapshot a time travel selects, as Java does, else the
//                branch's latest schema).
//   columns      WithProjection: output columns by name, in order (default: all). The system
//                columns `_ROW_ID` and `_SEQUENCE_NUMBER` may be named on row-tracking tables.
//   rows         WithWhere (`a > 3 AND b IN ('x','y')`) or WithFilter (predicate_builder.h),
//                over the read schema; WithPartition / WithBucket restrict the scan; WithLimit
//                stops a multi-split reader after that many rows.
//   mode         kBatch, kStreamFull or kDelta (scan_mode.h; delta reads have a leading
//                `_ROW_KIND` column).
//   options      WithOption: dynamic table options for this read (Java table.copy(options)).
//   time zone    WithSessionTimeZone: the IANA zone casts between TIMESTAMP and
//                TIMESTAMP_LTZ / numbers / strings use, and the zone of an as-of wall-clock time
//                (default: the process's zone, TZ or /etc/localtime, as Java's JVM default).
//   paths        WithPathRemap: recorded external paths starting with `prefix` are read under
//                `dir` (relative to the table folder unless absolute).
//   shard        WithShard(index, count): a streaming reader's share of the buckets, for
//                `count` parallel readers (stream_table_scan.h).
//   execution    WithOrdered: batches in split order (default: as splits finish);
//                WithThreads: split readers run in parallel (default min(cores, 8));
//                WithMaxBufferedBatches: the bound on batches waiting for the consumer;
//                WithBatchRows: the most rows a batch holds (default 4096; a consumer that
//                keeps whole columns, as an Arrow table does, reads fewer, larger batches).
//   metrics      WithMetricRegistry: each scan plan (and each plan of a stream scan) reports
//                Paimon's scan metrics into `registry` (metrics.h; Java withMetricRegistry),
//                which must outlive the scans.
//
// Thread safety: a value type; not for concurrent mutation.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sluice/metrics.h"
#include "sluice/predicate_builder.h"
#include "sluice/result.h"
#include "sluice/scan_mode.h"
#include "sluice/stream_table_scan.h"
#include "sluice/table.h"
#include "sluice/table_read.h"
#include "sluice/table_scan.h"

namespace sluice {

struct ReadContext;

class ReadBuilder {
 public:
  explicit ReadBuilder(Table table) : table_(std::move(table)) {}

  ReadBuilder& WithSnapshot(int64_t snapshot_id);
  ReadBuilder& WithTag(std::string tag);
  ReadBuilder& WithAsOf(std::string time);  // epoch millis or "YYYY-MM-DD HH:MM:SS[.fff]"
  ReadBuilder& WithBranch(std::string branch);
  ReadBuilder& WithSchemaId(int64_t schema_id);
  ReadBuilder& WithProjection(std::vector<std::string> columns);
  ReadBuilder& WithWhere(std::string expression);
  ReadBuilder& WithFilter(PredicatePtr predicate);
  ReadBuilder& WithPartition(std::vector<std::pair<std::string, std::string>> spec);
  ReadBuilder& WithBucket(int32_t bucket);
  ReadBuilder& WithMode(ScanMode mode);
  ReadBuilder& WithOption(std::string key, std::string value);
  ReadBuilder& WithSessionTimeZone(std::string zone);
  ReadBuilder& WithPathRemap(std::string prefix, std::string dir);
  ReadBuilder& WithLimit(int64_t rows);
  ReadBuilder& WithOrdered(bool ordered);
  ReadBuilder& WithThreads(int threads);
  ReadBuilder& WithMaxBufferedBatches(int batches);
  ReadBuilder& WithBatchRows(int64_t rows);
  ReadBuilder& WithShard(int32_t index, int32_t count);
  ReadBuilder& WithMetricRegistry(MetricRegistry* registry);

  // Errors name what is wrong: the unknown branch, tag, snapshot, schema id or column (with the
  // read schema's columns), the malformed where-expression (with the position), a conflicting
  // version choice, an unknown time zone.
  Result<TableScan> NewScan() const;
  // A continuous scan (stream_table_scan.h); the version setters do not apply (the startup
  // mode options choose where it starts). Errors also name a bad startup option or shard.
  Result<StreamTableScan> NewStreamScan() const;
  Result<TableRead> NewRead() const;

 private:
  // `streaming`: for a stream scan, whose options say where it starts, not what one plan reads.
  Result<std::shared_ptr<const ReadContext>> Resolve(bool streaming = false) const;

  Table table_;
  std::optional<int64_t> snapshot_id_;
  std::optional<std::string> tag_;
  std::optional<std::string> as_of_;
  std::string branch_;
  std::optional<int64_t> schema_id_;
  std::vector<std::string> projection_;
  std::string where_;
  PredicatePtr filter_;
  std::vector<std::pair<std::string, std::string>> partition_;
  std::optional<int32_t> bucket_;
  ScanMode mode_ = ScanMode::kBatch;
  std::map<std::string, std::string> options_;
  std::string time_zone_;
  std::vector<std::pair<std::string, std::string>> path_remap_;
  std::optional<int64_t> limit_;
  MetricRegistry* metrics_ = nullptr;
  bool ordered_ = false;
  int threads_ = 0;
  int max_buffered_batches_ = 16;
  std::optional<int64_t> batch_rows_;
  int32_t shard_index_ = 0;
  int32_t shard_count_ = 1;
};

}  // namespace sluice
