#include "sluice/table_maintenance.h"

#include "sluice/api/api_access.h"
#include "sluice/api/metrics_access.h"
#include "sluice/base/uuid.h"
#include "sluice/maintenance/commit_maintenance.h"
#include "sluice/maintenance/expire_changelogs.h"
#include "sluice/maintenance/expire_snapshots.h"
#include "sluice/maintenance/orphan_files_clean.h"
#include "sluice/maintenance/partition_expire.h"
#include "sluice/maintenance/rollback.h"
#include "sluice/meta/option_value.h"
#include "sluice/table/sink/file_store_commit.h"

namespace sluice {
namespace {

// The table as it is now (its latest schema and options), on the handle's branch.
Result<std::shared_ptr<FileStoreTable>> Reload(const Table& table) {
  const auto& loaded = ApiAccess::FileStoreTableOf(table);
  auto reloaded = loaded->Reload(loaded->dynamic_options());
  if (!reloaded.ok()) return reloaded.status().WithContext("table " + table.name());
  return reloaded;
}

Status CheckPositive(std::string_view name, const std::optional<int32_t>& value) {
  if (!value || *value >= 1) return Status::OK();
  return Status::InvalidArgument(std::string(name) +
                                 " must be at least 1: " + std::to_string(*value));
}

ExpireResult ToResult(const ExpireSummary& summary) {
  return ExpireResult{summary.expired, summary.files_deleted};
}

}  // namespace

Result<ExpireResult> ExpireSnapshots(const Table& table, const ExpireSnapshotsOptions& options) {
  SLUICE_ASSIGN_OR_RETURN(auto loaded, Reload(table));
  SLUICE_ASSIGN_OR_RETURN(ExpireConfig config, ExpireConfig::FromOptions(loaded->options()));
  SLUICE_RETURN_NOT_OK(CheckPositive("retain_min", options.retain_min));
  SLUICE_RETURN_NOT_OK(CheckPositive("retain_max", options.retain_max));
  SLUICE_RETURN_NOT_OK(CheckPositive("max_deletes", options.max_deletes));
  if (options.retain_max) config.snapshot_retain_max = *options.retain_max;
  if (options.retain_min) config.snapshot_retain_min = *options.retain_min;
  if (options.max_deletes) config.snapshot_max_deletes = *options.max_deletes;
  int64_t now = CurrentTimeMillis();
  if (options.older_than_millis) {
    // `older_than` replaces the time bound: now - retain = older_than.
    config.snapshot_time_retain_millis = 0;
    now = *options.older_than_millis;
  }
  // Java's procedure builds its ExpireConfig from the snapshot settings alone
  // (ProcedureUtils.fillInSnapshotOptions), and an unset changelog setting follows the
  // snapshot's: on demand, the changelog is never decoupled, whatever `changelog.*` says.
  config.changelog_retain_max = config.snapshot_retain_max;
  config.changelog_retain_min = config.snapshot_retain_min;
  config.changelog_time_retain_millis = config.snapshot_time_retain_millis;
  config.changelog_max_deletes = config.snapshot_max_deletes;
  SLUICE_ASSIGN_OR_RETURN(ExpireSummary summary, ExpireSnapshotsImpl(loaded).Expire(config, now));
  ExpireResult result = ToResult(summary);
  if (options.metrics != nullptr) {
    SnapshotsExpiredCounter(MetricsAccess::ImplOf(options.metrics), loaded->path())
        ->Inc(result.expired);
  }
  return result;
}

Result<ExpireResult> ExpireChangelogs(const Table& table, const ExpireChangelogsOptions& options) {
  SLUICE_ASSIGN_OR_RETURN(auto loaded, Reload(table));
  SLUICE_ASSIGN_OR_RETURN(ExpireConfig config, ExpireConfig::FromOptions(loaded->options()));
  ExpireChangelogImpl impl(loaded);
  if (options.delete_all) {
    SLUICE_ASSIGN_OR_RETURN(ExpireSummary summary, impl.ExpireAll(config));
    return ToResult(summary);
  }
  SLUICE_RETURN_NOT_OK(CheckPositive("retain_min", options.retain_min));
  SLUICE_RETURN_NOT_OK(CheckPositive("retain_max", options.retain_max));
  SLUICE_RETURN_NOT_OK(CheckPositive("max_deletes", options.max_deletes));
  if (options.retain_max) config.changelog_retain_max = *options.retain_max;
  if (options.retain_min) config.changelog_retain_min = *options.retain_min;
  if (options.max_deletes) config.changelog_max_deletes = *options.max_deletes;
  int64_t now = CurrentTimeMillis();
  if (options.older_than_millis) {
    config.changelog_time_retain_millis = 0;
    now = *options.older_than_millis;
  }
  SLUICE_ASSIGN_OR_RETURN(ExpireSummary summary, impl.Expire(config, now));
  return ToResult(summary);
}

Result<std::vector<PartitionSpec>> ExpirePartitions(const Table& table,
                                                    const ExpirePartitionsOptions& options) {
  SLUICE_ASSIGN_OR_RETURN(auto loaded, Reload(table));
  SLUICE_ASSIGN_OR_RETURN(PartitionExpireConfig config,
                          PartitionExpireConfig::FromOptions(loaded->options()));
  if (options.expiration_time) {
    SLUICE_ASSIGN_OR_RETURN(auto ms,
                            ParseDurationOption("expiration_time", *options.expiration_time));
    config.expiration_millis = ms.count();
  }
  if (options.timestamp_formatter) config.timestamp_formatter = options.timestamp_formatter;
  if (options.timestamp_pattern) config.timestamp_pattern = options.timestamp_pattern;
  if (options.expiration_strategy) {
    SLUICE_ASSIGN_OR_RETURN(config.strategy,
                            PartitionExpireStrategyFromName(*options.expiration_strategy));
  }
  SLUICE_RETURN_NOT_OK(CheckPositive("max_expires", options.max_expires));
  if (options.max_expires) config.max_expires = *options.max_expires;
  PartitionExpire expire(loaded, std::move(config));
  return expire.Expire(options.now_millis.value_or(CurrentTimeMillis()), NewUuidV4());
}

Result<std::optional<int64_t>> DropPartitions(const Table& table,
                                              const std::vector<PartitionSpec>& partitions) {
  SLUICE_ASSIGN_OR_RETURN(auto loaded, Reload(table));
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<FileStoreCommit> commit,
                          FileStoreCommit::Make(loaded, NewUuidV4()));
  SLUICE_ASSIGN_OR_RETURN(CommitResult result, commit->DropPartitions(partitions));
  if (result.snapshot_ids.empty()) return std::optional<int64_t>();
  return std::optional<int64_t>(result.snapshot_ids.back());
}

Status RollbackTo(const Table& table, int64_t snapshot_id) {
  SLUICE_ASSIGN_OR_RETURN(auto loaded, Reload(table));
  return RollbackHelper(loaded).RollbackTo(snapshot_id).status();
}

Status RollbackToTag(const Table& table, const std::string& tag) {
  SLUICE_ASSIGN_OR_RETURN(auto loaded, Reload(table));
  return RollbackHelper(loaded).RollbackToTag(tag).status();
}

Result<int64_t> RollbackToTimestamp(const Table& table, int64_t time_millis) {
  SLUICE_ASSIGN_OR_RETURN(auto loaded, Reload(table));
  return RollbackHelper(loaded).RollbackToTimestamp(time_millis);
}

Result<OrphanFilesResult> RemoveOrphanFiles(const Table& table,
                                            const RemoveOrphanFilesOptions& options) {
  SLUICE_ASSIGN_OR_RETURN(auto loaded, Reload(table));
  const int64_t older_than = options.older_than_millis.value_or(
      CurrentTimeMillis() - LocalOrphanFilesClean::kDefaultOlderThanMillis);
  SLUICE_ASSIGN_OR_RETURN(OrphanFiles orphans,
                          LocalOrphanFilesClean(loaded, older_than, options.dry_run).Clean());
  return OrphanFilesResult{std::move(orphans.files), orphans.bytes};
}

}  // namespace sluice
