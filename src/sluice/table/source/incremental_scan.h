// Incremental batch reads (Java IncrementalDeltaStartingScanner): the changes committed
// between snapshot `start` (exclusive) and `end` (inclusive), chosen by `incremental-between`
// ("5,10", or two tag names with `incremental-between-tag-to-snapshot`) or
// `incremental-between-timestamp` ("t1,t2", epoch millis or 'YYYY-MM-DD HH:MM:SS').
//
// `incremental-between-scan-mode`: `delta` reads the data files the APPEND snapshots added,
// `changelog` the changelog files of every snapshot but OVERWRITE ones, `auto` (the default)
// changelog on tables with a `changelog-producer`, else delta. The files of one partition and
// bucket form one streaming split in commit order, read without merging: every record with
// its row kind. `diff` (Java IncrementalDiffStartingScanner; also what two tags mean without
// `incremental-between-tag-to-snapshot`) reads the difference between the merged rows of the
// two versions (diff_scan.h), primary-key tables only.
//
// Thread safety: functions; the table is only read.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "sluice/result.h"

namespace sluice {

class FileStoreTable;
struct ScanOptions;
struct ScanPlan;

struct IncrementalBetween {
  int64_t start = 0;  // exclusive
  int64_t end = 0;    // inclusive
  bool changelog = false;
  // The difference of the two versions' rows; the versions are the tags when named (a tag
  // may outlive its snapshot), else the snapshots (start before the earliest: empty).
  bool diff = false;
  std::optional<std::string> start_tag;
  std::optional<std::string> end_tag;
};

// The range the table's incremental options select; nullopt when they select nothing (no
// snapshot yet, an empty range, times outside the table's). InvalidArgument naming the
// option and value for a malformed or out-of-range one.
Result<std::optional<IncrementalBetween>> ResolveIncrementalBetween(const FileStoreTable& table);

// The streaming splits of the range; `base` restricts them (partition, bucket, filter).
Result<ScanPlan> PlanIncremental(const FileStoreTable& table, const ScanOptions& base,
                                 const IncrementalBetween& range);

}  // namespace sluice
