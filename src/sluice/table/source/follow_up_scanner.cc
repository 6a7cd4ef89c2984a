#include "sluice/table/source/follow_up_scanner.h"

#include "sluice/table/source/diff_scan.h"

namespace sluice {

Result<ScanPlan> FollowUpScanner::Scan(const FileStoreTable& table, const Snapshot& snapshot,
                                       const ScanOptions& base) const {
  ScanOptions options = base;
  options.version = TableVersion::SnapshotId(snapshot.id);
  options.mode = ScanMode::kDelta;
  return PlanScan(table, options);
}

Result<ScanPlan> FollowUpScanner::OverwriteChangesPlan(const FileStoreTable& table,
                                                       const Snapshot& snapshot,
                                                       const ScanOptions& base) const {
  if (table.schema().is_primary_key_table()) {
    // Java SnapshotReaderImpl.readChanges: the diff of the buckets the overwrite replaced.
    const int64_t previous = snapshot.id - 1;
    SLUICE_ASSIGN_OR_RETURN(bool exists, table.snapshot_manager().SnapshotExists(previous));
    if (!exists && previous >= Snapshot::kFirstSnapshotId) {
      return Status::NotFound("snapshot " + std::to_string(previous) + " of " + table.path() +
                              " has expired: the changes of OVERWRITE snapshot " +
                              std::to_string(snapshot.id) +
                              " ('streaming-read-overwrite') are its diff to the snapshot before");
    }
    std::optional<TableVersion> before;
    if (exists) before = TableVersion::SnapshotId(previous);
    return PlanDiff(table, base, before, TableVersion::SnapshotId(snapshot.id));
  }
  ScanOptions options = base;
  options.version = TableVersion::SnapshotId(snapshot.id);
  options.mode = ScanMode::kDelta;
  options.delta_of_overwrite = true;
  return PlanScan(table, options);
}

std::unique_ptr<FollowUpScanner> CreateFollowUpScanner(const FileStoreTable& table) {
  if (table.options().changelog_producer() == ChangelogProducer::kNone) {
    return std::make_unique<DeltaFollowUpScanner>();
  }
  return std::make_unique<ChangelogFollowUpScanner>();
}

}  // namespace sluice
