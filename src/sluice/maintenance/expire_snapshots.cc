#include "sluice/maintenance/expire_snapshots.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "sluice/maintenance/snapshot_deletion.h"
#include "sluice/maintenance/used_files.h"
#include "sluice/meta/changelog_manager.h"
#include "sluice/meta/consumer_manager.h"
#include "sluice/meta/hint_file.h"

namespace sluice {

int64_t CurrentTimeMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Result<ExpireSummary> ExpireSnapshotsImpl::Expire(const ExpireConfig& config, int64_t now_millis) {
  const SnapshotManager& snapshots = table_->snapshot_manager();
  SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> latest, snapshots.LatestSnapshotId());
  if (!latest) return ExpireSummary{};
  SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> earliest, snapshots.EarliestSnapshotId());
  if (!earliest) return ExpireSummary{};
  const int32_t retain_max = config.snapshot_retain_max;
  const int32_t retain_min = config.snapshot_retain_min;
  if (retain_max < retain_min) {
    return Status::InvalidArgument("retainMax (" + std::to_string(retain_max) +
                                   ") must not be less than retainMin (" +
                                   std::to_string(retain_min) + ").");
  }
  const int64_t older_than = now_millis - config.snapshot_time_retain_millis;
  // Kept by `snapshot.num-retained.max`: [min, latest].
  const int64_t min = std::max(*latest - retain_max + 1, *earliest);
  // Kept by `snapshot.num-retained.min`.
  int64_t max_exclusive = *latest - retain_min + 1;
  if (!config.consumer_changelog_only) {
    ConsumerManager consumers(table_->io(), table_->path(), table_->branch());
    SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> next, consumers.MinNextSnapshot());
    if (next) max_exclusive = std::min(max_exclusive, *next);
  }
  max_exclusive = std::min(max_exclusive, *earliest + config.snapshot_max_deletes);
  for (int64_t id = min; id < max_exclusive; ++id) {
    Result<Snapshot> snapshot = snapshots.LoadSnapshot(id);
    if (!snapshot.ok()) {
      // Expired by another process meanwhile.
      if (snapshot.status().IsNotFound()) continue;
      return snapshot.status();
    }
    if (older_than <= snapshot->time_millis) return ExpireUntil(config, *earliest, id);
  }
  return ExpireUntil(config, *earliest, max_exclusive);
}

Result<ExpireSummary> ExpireSnapshotsImpl::ExpireUntil(const ExpireConfig& config, int64_t earliest,
                                                       int64_t end_exclusive) {
  const SnapshotManager& snapshot_manager = table_->snapshot_manager();
  FileIO& io = *table_->io();
  if (end_exclusive <= earliest) {
    // Nothing to expire; a missing EARLIEST hint is written so that readers find it directly.
    if (!ReadHint(&io, snapshot_manager.snapshot_dir(), kEarliestHint)) {
      SLUICE_RETURN_NOT_OK(snapshot_manager.CommitEarliestHint(earliest));
    }
    return ExpireSummary{};
  }

  std::vector<Snapshot> snapshots;  // [earliest, end_exclusive], those still there
  for (int64_t id = earliest; id <= end_exclusive; ++id) {
    Result<Snapshot> snapshot = snapshot_manager.LoadSnapshot(id);
    if (snapshot.ok()) {
      snapshots.push_back(std::move(snapshot).value());
    } else if (!snapshot.status().IsNotFound()) {
      return snapshot.status();
    }
  }
  // The end snapshot is gone: another expiry is ahead of this one.
  if (snapshots.empty() || snapshots.back().id != end_exclusive) return ExpireSummary{};
  const Snapshot& end = snapshots.back();
  const int64_t begin = snapshots.front().id;

  // What must stay: the tags overlapping [begin, end) (Java findSkippingTags: from the last tag
  // at or before begin to the last one before end; a file one of them holds is held by the last
  // tag before the snapshot that deleted it), every other branch, the long-lived changelogs,
  // and the end snapshot's metadata.
  UsedFiles keep(*table_);
  SLUICE_ASSIGN_OR_RETURN(auto tags, table_->tag_manager().ListTags());
  size_t first_tag = 0;
  for (size_t i = 0; i < tags.size(); ++i) {
    if (tags[i].second.snapshot.id <= begin) first_tag = i;
  }
  for (size_t i = first_tag; i < tags.size(); ++i) {
    const Snapshot& tagged = tags[i].second.snapshot;
    if (tagged.id >= end_exclusive) break;
    SLUICE_RETURN_NOT_OK_CTX(keep.AddDataFiles(tagged), "tag '" + tags[i].first + "'");
    SLUICE_RETURN_NOT_OK_CTX(keep.AddMetadataFiles(tagged), "tag '" + tags[i].first + "'");
  }
  SLUICE_RETURN_NOT_OK(keep.AddOtherBranches(table_->branch()));
  ChangelogManager changelogs(table_->io(), table_->path(), table_->branch());
  SLUICE_ASSIGN_OR_RETURN(std::vector<int64_t> changelog_ids, changelogs.ListChangelogIds());
  for (int64_t id : changelog_ids) {
    SLUICE_ASSIGN_OR_RETURN(Snapshot changelog, changelogs.LoadChangelog(id));
    SLUICE_RETURN_NOT_OK(keep.AddLongLivedChangelog(changelog));
  }
  SLUICE_RETURN_NOT_OK(keep.AddMetadataFiles(end));

  const bool decoupled = config.changelog_decoupled();
  SnapshotDeletion deletion(*table_, decoupled);
  // Files a delta of (begin, end] deleted were last used by the snapshot before it.
  for (const Snapshot& snapshot : snapshots) {
    if (snapshot.id == begin) continue;
    SLUICE_RETURN_NOT_OK(deletion.PlanUnusedDataFiles(snapshot, keep));
  }
  const std::vector<Snapshot> expired(snapshots.begin(), snapshots.end() - 1);
  for (const Snapshot& snapshot : expired) {
    if (!decoupled) SLUICE_RETURN_NOT_OK(deletion.PlanAddedChangelogFiles(snapshot));
    SLUICE_RETURN_NOT_OK(deletion.PlanUnusedManifests(snapshot, keep));
  }

  for (const Snapshot& snapshot : expired) {
    if (decoupled) {
      SLUICE_RETURN_NOT_OK(changelogs.CommitChangelog(snapshot));
      SLUICE_RETURN_NOT_OK(changelogs.CommitLatestHint(snapshot.id));
    }
    SLUICE_RETURN_NOT_OK(io.Delete(snapshot_manager.snapshot_path(snapshot.id), false));
  }
  // The snapshot files must be gone for good before the files they name go.
  SLUICE_RETURN_NOT_OK(io.SyncDir(snapshot_manager.snapshot_dir()));
  SLUICE_RETURN_NOT_OK(snapshot_manager.CommitEarliestHint(end_exclusive));

  ExpireSummary summary;
  summary.expired = static_cast<int64_t>(expired.size());
  SLUICE_ASSIGN_OR_RETURN(summary.files_deleted,
                          deletion.DeletePlanned(config.clean_empty_directories));
  return summary;
}

}  // namespace sluice
