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
    case StartupMode::kFromFileCreationTime:
      if (!options.scan_file_creation_time_millis()) {
        return Status::InvalidArgument(
            "option 'scan.file-creation-time-millis' must be set when 'scan.mode' is "
            "from-file-creation-time");
      }
      start.min_file_creation_millis = options.scan_file_creation_time_millis();
      return start;
    case StartupMode::kFromCreationTimestamp: {
      if (!options.scan_creation_time_millis()) {
        return Status::InvalidArgument(
            "option 'scan.creation-time-millis' must be set when 'scan.mode' is "
            "from-creation-timestamp");
      }
      const int64_t millis = *options.scan_creation_time_millis();
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
