#include "sluice/cdc/table_sync_state.h"

namespace sluice {

Result<TableSyncState> LoadTableSyncState(const FileStoreTable& table,
                                          const std::string& commit_user) {
  TableSyncState state;
  const SnapshotManager& snapshots = table.snapshot_manager();
  SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> latest, snapshots.LatestSnapshotId());
  if (!latest) return state;
  SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> earliest, snapshots.EarliestSnapshotId());
  for (int64_t id = *latest; id >= earliest.value_or(Snapshot::kFirstSnapshotId); --id) {
    auto snapshot = snapshots.LoadSnapshot(id);
    if (!snapshot.ok()) {
      // Expired under us: what is older is gone too.
      if (snapshot.status().IsNotFound()) break;
      return snapshot.status().WithContext("table " + table.path());
    }
    if (snapshot->commit_user != commit_user) continue;
    if (!state.last_identifier) state.last_identifier = snapshot->commit_identifier;
    if (!snapshot->properties) continue;
    for (const auto& [key, value] : *snapshot->properties) {
      if (key != SourceOffsets::kSnapshotProperty) continue;
      auto offsets = SourceOffsets::FromJson(value);
      if (!offsets.ok()) {
        return offsets.status().WithContext("snapshot " + std::to_string(id) + " of table " +
                                            table.path());
      }
      state.offsets = std::move(*offsets);
      return state;
    }
  }
  return state;
}

}  // namespace sluice
