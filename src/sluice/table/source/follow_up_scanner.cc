#include "sluice/table/source/follow_up_scanner.h"

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
    return Status::NotSupported(
        "option 'streaming-read-overwrite' on a primary-key table (snapshot " +
        std::to_string(snapshot.id) + " of " + table.path() +
        " is an OVERWRITE): reading its changes needs a diff of the files it replaced, which "
        "Sluice does not read yet");
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
