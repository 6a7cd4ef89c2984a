#include "sluice/table/source/batch_start.h"

#include "sluice/table/source/starting_scanner.h"

namespace sluice {

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
      SLUICE_ASSIGN_OR_RETURN(start.version, TableVersion::FromOptions(options));
      return start;
  }
}

}  // namespace sluice
