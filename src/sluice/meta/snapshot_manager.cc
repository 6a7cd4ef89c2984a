#include "sluice/meta/snapshot_manager.h"

#include "sluice/meta/hint_file.h"

namespace sluice {

SnapshotManager::SnapshotManager(std::shared_ptr<FileIO> io, std::string table_path,
                                 std::string_view branch)
    : io_(std::move(io)),
      table_path_(std::move(table_path)),
      branch_(NormalizeBranch(branch)),
      branch_path_(BranchPath(table_path_, branch_)) {}

Result<std::optional<int64_t>> SnapshotManager::LatestSnapshotId() const {
  return FindLatestId(io_.get(), snapshot_dir(), kSnapshotPrefix);
}

Result<std::optional<int64_t>> SnapshotManager::EarliestSnapshotId() const {
  return FindEarliestId(io_.get(), snapshot_dir(), kSnapshotPrefix);
}

Result<bool> SnapshotManager::SnapshotExists(int64_t id) const {
  return io_->Exists(snapshot_path(id));
}

Result<Snapshot> SnapshotManager::LoadSnapshot(int64_t id) const {
  const std::string path = snapshot_path(id);
  Result<std::string> content = io_->ReadFile(path);
  if (!content.ok()) {
    if (content.status().IsNotFound()) {
      return Status::NotFound("snapshot " + std::to_string(id) + " does not exist: " + path);
    }
    return content.status();
  }
  Result<Snapshot> snapshot = Snapshot::FromJson(*content);
  if (!snapshot.ok()) return snapshot.status().WithContext(path);
  return snapshot;
}

Result<std::optional<Snapshot>> SnapshotManager::LatestSnapshot() const {
  SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> id, LatestSnapshotId());
  if (!id) return std::optional<Snapshot>();
  SLUICE_ASSIGN_OR_RETURN(Snapshot snapshot, LoadSnapshot(*id));
  return std::optional<Snapshot>(std::move(snapshot));
}

Result<std::optional<Snapshot>> SnapshotManager::EarliestSnapshot() const {
  SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> earliest, EarliestSnapshotId());
  if (!earliest) return std::optional<Snapshot>();
  const int64_t stop = *earliest + kEarliestRetries;
  for (int64_t id = *earliest; id <= stop; ++id) {
    Result<Snapshot> snapshot = LoadSnapshot(id);
    if (snapshot.ok()) return std::optional<Snapshot>(std::move(snapshot).value());
    if (!snapshot.status().IsNotFound()) return snapshot.status();
  }
  return Status::NotFound("cannot find the earliest snapshot from #" + std::to_string(*earliest) +
                          " to #" + std::to_string(stop) + " in " + snapshot_dir());
}

Result<std::vector<int64_t>> SnapshotManager::ListSnapshotIds() const {
  return ListVersionedIds(io_.get(), snapshot_dir(), kSnapshotPrefix);
}

Result<std::vector<Snapshot>> SnapshotManager::ListSnapshots() const {
  SLUICE_ASSIGN_OR_RETURN(std::vector<int64_t> ids, ListSnapshotIds());
  std::vector<Snapshot> snapshots;
  snapshots.reserve(ids.size());
  for (int64_t id : ids) {
    SLUICE_ASSIGN_OR_RETURN(Snapshot snapshot, LoadSnapshot(id));
    snapshots.push_back(std::move(snapshot));
  }
  return snapshots;
}

Result<std::optional<Snapshot>> SnapshotManager::EarlierOrEqualTimeMillis(
    int64_t time_millis) const {
  SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> latest_id, LatestSnapshotId());
  if (!latest_id) return std::optional<Snapshot>();
  SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> earliest_snapshot, EarliestSnapshot());
  if (!earliest_snapshot || earliest_snapshot->time_millis > time_millis) {
    return std::optional<Snapshot>();
  }
  int64_t low = earliest_snapshot->id;
  int64_t high = *latest_id;
  std::optional<Snapshot> found;
  while (low <= high) {
    const int64_t mid = low + (high - low) / 2;
    SLUICE_ASSIGN_OR_RETURN(Snapshot snapshot, LoadSnapshot(mid));
    if (snapshot.time_millis > time_millis) {
      high = mid - 1;
    } else if (snapshot.time_millis < time_millis) {
      low = mid + 1;
      found = std::move(snapshot);
    } else {
      return std::optional<Snapshot>(std::move(snapshot));
    }
  }
  return found;
}

Result<std::optional<Snapshot>> SnapshotManager::LaterOrEqualTimeMillis(int64_t time_millis) const {
  SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> earliest_id, EarliestSnapshotId());
  SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> latest_id, LatestSnapshotId());
  if (!earliest_id || !latest_id) return std::optional<Snapshot>();
  SLUICE_ASSIGN_OR_RETURN(Snapshot latest, LoadSnapshot(*latest_id));
  if (latest.time_millis < time_millis) return std::optional<Snapshot>();
  int64_t low = *earliest_id;
  int64_t high = *latest_id;
  std::optional<Snapshot> found;
  while (low <= high) {
    const int64_t mid = low + (high - low) / 2;
    SLUICE_ASSIGN_OR_RETURN(Snapshot snapshot, LoadSnapshot(mid));
    if (snapshot.time_millis > time_millis) {
      high = mid - 1;
      found = std::move(snapshot);
    } else if (snapshot.time_millis < time_millis) {
      low = mid + 1;
    } else {
      return std::optional<Snapshot>(std::move(snapshot));
    }
  }
  return found;
}

Status SnapshotManager::CommitLatestHint(int64_t id) const {
  return WriteHint(io_.get(), snapshot_dir(), kLatestHint, id);
}

Status SnapshotManager::CommitEarliestHint(int64_t id) const {
  return WriteHint(io_.get(), snapshot_dir(), kEarliestHint, id);
}

}  // namespace sluice
