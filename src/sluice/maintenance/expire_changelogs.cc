#include "sluice/maintenance/expire_changelogs.h"

#include <algorithm>
#include <string>
#include <vector>

#include "sluice/maintenance/changelog_deletion.h"
#include "sluice/maintenance/used_files.h"
#include "sluice/meta/changelog_manager.h"
#include "sluice/meta/consumer_manager.h"

namespace sluice {

Result<ExpireSummary> ExpireChangelogImpl::Expire(const ExpireConfig& config, int64_t now_millis) {
  const SnapshotManager& snapshots = table_->snapshot_manager();
  ChangelogManager changelogs(table_->io(), table_->path(), table_->branch());
  SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> latest_snapshot, snapshots.LatestSnapshotId());
  SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> earliest_snapshot, snapshots.EarliestSnapshotId());
  SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> latest, changelogs.LatestLongLivedChangelogId());
  SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> earliest,
                          changelogs.EarliestLongLivedChangelogId());
  if (!latest_snapshot || !earliest_snapshot || !latest || !earliest) return ExpireSummary{};
  const int32_t retain_max = config.changelog_retain_max;
  const int32_t retain_min = config.changelog_retain_min;
  if (retain_max < retain_min) {
    return Status::InvalidArgument("retainMax (" + std::to_string(retain_max) +
                                   ") must not be less than retainMin (" +
                                   std::to_string(retain_min) + ").");
  }
  const int64_t older_than = now_millis - config.changelog_time_retain_millis;
  const int64_t min = std::max(*latest_snapshot - retain_max + 1, *earliest);
  int64_t max_exclusive = *latest_snapshot - retain_min + 1;
  ConsumerManager consumers(table_->io(), table_->path(), table_->branch());
  SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> next, consumers.MinNextSnapshot());
  if (next) max_exclusive = std::min(max_exclusive, *next);
  max_exclusive = std::min(max_exclusive, *earliest + config.changelog_max_deletes);
  max_exclusive = std::min(max_exclusive, *latest);
  for (int64_t id = min; id <= max_exclusive; ++id) {
    Result<Snapshot> changelog = changelogs.LoadChangelog(id);
    if (!changelog.ok()) {
      if (changelog.status().IsNotFound()) continue;
      return changelog.status();
    }
    if (older_than <= changelog->time_millis) {
      return ExpireUntil(config, *earliest, id, /*delete_hints=*/false);
    }
  }
  return ExpireUntil(config, *earliest, max_exclusive, /*delete_hints=*/false);
}

Result<ExpireSummary> ExpireChangelogImpl::ExpireAll(const ExpireConfig& config) {
  ChangelogManager changelogs(table_->io(), table_->path(), table_->branch());
  SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> latest, changelogs.LatestLongLivedChangelogId());
  SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> earliest,
                          changelogs.EarliestLongLivedChangelogId());
  SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> earliest_snapshot,
                          table_->snapshot_manager().EarliestSnapshotId());
  if (!latest || !earliest || !earliest_snapshot) return ExpireSummary{};
  if (*latest >= *earliest_snapshot) {
    return Status::InvalidArgument(
        "latest changelog id should be less than earliest snapshot id, please check table " +
        table_->path() + ": changelog " + std::to_string(*latest) + ", snapshot " +
        std::to_string(*earliest_snapshot));
  }
  return ExpireUntil(config, *earliest, *latest + 1, /*delete_hints=*/true);
}

Result<ExpireSummary> ExpireChangelogImpl::ExpireUntil(const ExpireConfig& config, int64_t earliest,
                                                       int64_t end_exclusive, bool delete_hints) {
  if (end_exclusive <= earliest) return ExpireSummary{};
  FileIO& io = *table_->io();
  ChangelogManager changelogs(table_->io(), table_->path(), table_->branch());
  std::vector<Snapshot> expired;
  for (int64_t id = earliest; id < end_exclusive; ++id) {
    Result<Snapshot> changelog = changelogs.LoadChangelog(id);
    if (changelog.ok()) {
      expired.push_back(std::move(changelog).value());
    } else if (!changelog.status().IsNotFound()) {
      return changelog.status();
    }
  }

  UsedFiles keep(*table_);
  SLUICE_ASSIGN_OR_RETURN(auto tags, table_->tag_manager().ListTags());
  size_t first_tag = 0;
  for (size_t i = 0; i < tags.size(); ++i) {
    if (tags[i].second.snapshot.id <= earliest) first_tag = i;
  }
  for (size_t i = first_tag; i < tags.size(); ++i) {
    const Snapshot& tagged = tags[i].second.snapshot;
    if (tagged.id >= end_exclusive) break;
    SLUICE_RETURN_NOT_OK(keep.AddDataFiles(tagged));
    SLUICE_RETURN_NOT_OK(keep.AddMetadataFiles(tagged));
  }
  Result<Snapshot> end_changelog = changelogs.LoadChangelog(end_exclusive);
  if (end_changelog.ok()) {
    SLUICE_RETURN_NOT_OK(keep.AddLongLivedChangelog(*end_changelog));
  } else if (!end_changelog.status().IsNotFound()) {
    return end_changelog.status();
  }
  SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> earliest_snapshot,
                          table_->snapshot_manager().EarliestSnapshot());
  if (earliest_snapshot) SLUICE_RETURN_NOT_OK(keep.AddMetadataFiles(*earliest_snapshot));
  SLUICE_RETURN_NOT_OK(keep.AddOtherBranches(table_->branch()));

  ChangelogDeletion deletion(*table_);
  for (const Snapshot& changelog : expired) {
    SLUICE_RETURN_NOT_OK(deletion.PlanChangelogDataFiles(changelog, keep));
    SLUICE_RETURN_NOT_OK(deletion.PlanChangelogManifests(changelog, keep));
  }
  for (const Snapshot& changelog : expired) {
    SLUICE_RETURN_NOT_OK(changelogs.DeleteChangelog(changelog.id));
  }
  SLUICE_RETURN_NOT_OK(io.SyncDir(changelogs.changelog_dir()));
  if (delete_hints) {
    SLUICE_RETURN_NOT_OK(changelogs.DeleteHints());
  } else {
    SLUICE_RETURN_NOT_OK(changelogs.CommitEarliestHint(end_exclusive));
  }
  ExpireSummary summary;
  summary.expired = static_cast<int64_t>(expired.size());
  SLUICE_ASSIGN_OR_RETURN(summary.files_deleted,
                          deletion.DeletePlanned(config.clean_empty_directories));
  return summary;
}

}  // namespace sluice
