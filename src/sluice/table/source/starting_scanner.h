// StartingScanner: the first plan of a streaming read (Java StartingScanner and its family),
// chosen by CreateStartingScanner from `scan.mode` and the other scan options, or from the
// read's consumer:
//
//   consumer      `resume_at`, the position of the read's consumer (consumer_progress.h):
//                 continues at that snapshot (ContinuousFromSnapshot).
//   latest-full   the latest snapshot in full, then its successors (FullStartingScanner).
//   latest        no full plan: the snapshots after the latest one at start
//                 (ContinuousLatestStartingScanner; from snapshot 1 when there was none).
//   compacted-full  the latest COMPACT snapshot in full (with `changelog-producer =
//                 full-compaction` or `full-compaction.delta-commits`: the latest full
//                 compaction), else the latest snapshot (Compacted / FullCompacted).
//   from-timestamp  the snapshots after the last one committed before `scan.timestamp-millis`
//                 / `scan.timestamp` (ContinuousFromTimestampStartingScanner).
//   from-file-creation-time  the latest snapshot's files created at or after
//                 `scan.file-creation-time-millis` (FileCreationTimeStartingScanner).
//   from-snapshot  the snapshots from `scan.snapshot-id` on (no earlier than the earliest
//                 snapshot; ContinuousFromSnapshotStartingScanner).
//   from-snapshot-full  snapshot `scan.snapshot-id` (or the earliest, if later) in full, then
//                 its successors (ContinuousFromSnapshotFullStartingScanner).
//   incremental, from-snapshot by tag or watermark, from-creation-timestamp: batch-only in
//                 Java; InvalidArgument / NotSupported naming the option.
//
// A full plan reads the snapshot with ScanMode::kStreamFull; the rest of the read's options
// (partition, bucket, filter, level filter) come from the `base` options passed to Scan.
//
// Thread safety: a scanner is used by one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "sluice/result.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/source/scan_planner.h"

namespace sluice {

// What a starting scanner found (Java StartingScanner.Result).
struct StartingScanResult {
  enum class Kind : unsigned char {
    kNoSnapshot,    // no snapshot yet: try again later
    kNextSnapshot,  // nothing to plan now; follow from `next_snapshot_id`
    kScanned,       // `plan` holds the full plan of snapshot `plan.snapshot_id`
  };
  Kind kind = Kind::kNoSnapshot;
  int64_t next_snapshot_id = 0;
  ScanPlan plan;
};

class StartingScanner {
 public:
  virtual ~StartingScanner() = default;
  virtual Result<StartingScanResult> Scan(const ScanOptions& base) = 0;
};

// The scanner of `table`'s options (with the read's dynamic options), or the one resuming at
// `resume_at`. Errors name the option.
Result<std::unique_ptr<StartingScanner>> CreateStartingScanner(
    const FileStoreTable& table, std::optional<int64_t> resume_at = std::nullopt);

// The epoch-millis option `option` that `scan.mode = mode` needs: its value, InvalidArgument
// naming both when it is unset.
Result<int64_t> RequiredMillis(const std::optional<int64_t>& value, std::string_view option,
                               std::string_view mode);

// The latest COMPACT snapshot, searching back to the earliest; with `changelog-producer =
// full-compaction` or `full-compaction.delta-commits` the latest full compaction's (Java
// CompactedStartingScanner / FullCompactedStartingScanner). nullopt when there is none.
Result<std::optional<int64_t>> LatestCompactedSnapshot(const FileStoreTable& table);

// Where `scan.creation-time-millis` starts (Java createCreationTimestampStartingScanner): a
// time after the earliest snapshot, with a snapshot at or after it, starts at that snapshot;
// nullopt (a time before every snapshot or after the latest) means the latest snapshot's files
// created from then on.
Result<std::optional<int64_t>> CreationTimestampStartSnapshot(const FileStoreTable& table,
                                                              int64_t millis);

// The last snapshot committed before `time_millis`, or the earliest snapshot's id - 1 when none
// is that old; nullopt for a table without snapshots (Java TimeTravelUtil.earlierThanTimeMills).
Result<std::optional<int64_t>> EarlierThanTimeMillis(const SnapshotManager& snapshots,
                                                     int64_t time_millis);

}  // namespace sluice
