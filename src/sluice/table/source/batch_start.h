// BatchStart: what a batch read reads when the request names no version, by `scan.mode` and
// the scan options (Java AbstractDataTableScan.createStartingScanner for a batch scan):
//
//   default, latest-full, latest, full  the latest snapshot.
//   from-snapshot(-full), from-timestamp  the time-travel options (`scan.snapshot-id`,
//                 `scan.tag-name`, `scan.timestamp-millis`, `scan.timestamp`), or the first
//                 snapshot whose watermark reaches `scan.watermark`.
//   compacted-full  the latest compacted snapshot (LatestCompactedSnapshot), else the latest.
//   from-file-creation-time  the latest snapshot's files created at or after
//                 `scan.file-creation-time-millis`.
//   from-creation-timestamp  the first snapshot at or after `scan.creation-time-millis` when
//                 one after the earliest exists (Java StaticFromSnapshotStartingScanner), else
//                 as from-file-creation-time with that time.
//   incremental   the changes of the `incremental-between*` range (incremental_scan.h).
//
// Thread safety: a function; the table is only read.
#pragma once

#include <cstdint>
#include <optional>

#include "sluice/result.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/source/incremental_scan.h"

namespace sluice {

struct BatchStart {
  TableVersion version;
  std::optional<int64_t> min_file_creation_millis;
  // Set for `scan.mode` incremental; a range that selects nothing is an empty one (0, 0].
  std::optional<IncrementalBetween> incremental;
};

// Errors name the option that is missing or malformed.
Result<BatchStart> ResolveBatchStart(const FileStoreTable& table);

}  // namespace sluice
