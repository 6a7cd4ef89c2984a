#include "sluice/table/source/batch_start.h"

#include <charconv>
#include <string>
#include <vector>

#include "sluice/table/source/starting_scanner.h"

namespace sluice {

namespace {

// Java StaticFromWatermarkStartingScanner: the first snapshot whose watermark is at or above
// `scan.watermark`. Watermarks only grow from snapshot to snapshot, so the first one found
// walking up from the earliest is the one (Java binary-searches; a batch read plans once).
Result<int64_t> FirstSnapshotAtWatermark(const FileStoreTable& table, const std::string& text) {
  int64_t watermark = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), watermark);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return Status::InvalidArgument("option 'scan.watermark' is '" + text +
                                   "': expected epoch millis");
  }
  const SnapshotManager& snapshots = table.snapshot_manager();
  SLUICE_ASSIGN_OR_RETURN(std::vector<int64_t> ids, snapshots.ListSnapshotIds());
  for (int64_t id : ids) {
    Result<Snapshot> snapshot = snapshots.LoadSnapshot(id);
    if (!snapshot.ok()) {
      if (snapshot.status().IsNotFound()) continue;  // expired meanwhile
      return snapshot.status();
    }
    if (snapshot->watermark && *snapshot->watermark >= watermark) return id;
  }
  return Status::NotFound("no snapshot of table " + table.path() +
                          " has a watermark at or above 'scan.watermark' = " + text);
}

}  // namespace

Result<BatchStart> ResolveBatchStart(const FileStoreTable& table) {
  const CoreOptions& options = table.options();
  BatchStart start;
  switch (options.startup_mode()) {
    case StartupMode::kCompactedFull: {
      SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> compacted, LatestCompactedSnapshot(table));
      if (compacted) start.version = TableVersion::SnapshotId(*compacted);
      return start;
    }
    case StartupMode::kFromFileCreationTime: {
      SLUICE_ASSIGN_OR_RETURN(
          start.min_file_creation_millis,
          RequiredMillis(options.scan_file_creation_time_millis(), "scan.file-creation-time-millis",
                         "from-file-creation-time"));
      return start;
    }
    case StartupMode::kFromCreationTimestamp: {
      SLUICE_ASSIGN_OR_RETURN(
          int64_t millis, RequiredMillis(options.scan_creation_time_millis(),
                                         "scan.creation-time-millis", "from-creation-timestamp"));
      SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> from,
                              CreationTimestampStartSnapshot(table, millis));
      if (from) {
        start.version = TableVersion::SnapshotId(*from);
      } else {
        start.min_file_creation_millis = millis;
      }
      return start;
    }
    case StartupMode::kIncremental: {
      SLUICE_ASSIGN_OR_RETURN(std::optional<IncrementalBetween> range,
                              ResolveIncrementalBetween(table));
      start.incremental = range.value_or(IncrementalBetween{});
      if (range) start.version = TableVersion::SnapshotId(range->end);
      return start;
    }
    default:
      if (const std::string* watermark = options.Find("scan.watermark");
          watermark != nullptr && !options.scan_snapshot_id() &&
          options.Find("scan.tag-name") == nullptr) {
        SLUICE_ASSIGN_OR_RETURN(int64_t id, FirstSnapshotAtWatermark(table, *watermark));
        start.version = TableVersion::SnapshotId(id);
        return start;
      }
      SLUICE_ASSIGN_OR_RETURN(start.version, TableVersion::FromOptions(options));
      return start;
  }
}

}  // namespace sluice
