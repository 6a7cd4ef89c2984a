#include "sluice/maintenance/commit_maintenance.h"

#include <chrono>

#include "sluice/maintenance/expire_changelogs.h"
#include "sluice/maintenance/expire_snapshots.h"
#include "sluice/meta/consumer_manager.h"
#include "sluice/table/table_metric_group.h"

namespace sluice {

Result<std::unique_ptr<CommitMaintenance>> CommitMaintenance::Make(
    std::shared_ptr<const FileStoreTable> table, std::string commit_user, Clock clock) {
  SLUICE_ASSIGN_OR_RETURN(ExpireConfig expire, ExpireConfig::FromOptions(table->options()));
  SLUICE_ASSIGN_OR_RETURN(PartitionExpireConfig partitions,
                          PartitionExpireConfig::FromOptions(table->options()));
  // Java makes no TagAutoManager for write-only tables; nothing runs for them here anyway.
  std::unique_ptr<TagAutoManager> tags;
  if (!table->options().write_only()) {
    SLUICE_ASSIGN_OR_RETURN(tags, TagAutoManager::Make(table));
  }
  if (!clock) clock = CurrentTimeMillis;
  return std::unique_ptr<CommitMaintenance>(
      new CommitMaintenance(std::move(table), std::move(commit_user), std::move(clock), expire,
                            std::move(partitions), std::move(tags)));
}

CommitMaintenance::~CommitMaintenance() {
  if (running_.valid()) running_.wait();
}

Counter* SnapshotsExpiredCounter(MetricRegistryImpl* registry, const std::string& table_path) {
  return TableMetricGroup(registry, table_path)
      .counter("paimon_expire_snapshotsExpired_total",
               "Snapshots expired (by the maintenance after commits and by expire_snapshots).");
}

void CommitMaintenance::WithMetricRegistry(MetricRegistryImpl* registry) {
  snapshots_expired_ =
      registry == nullptr ? nullptr : SnapshotsExpiredCounter(registry, table_->path());
}

Status CommitMaintenance::AfterCommit(bool batch_commit) {
  if (table_->options().write_only()) return Status::OK();
  if (expire_.execution_mode == ExpireExecutionMode::kSync) return Run(batch_commit);
  Status previous;
  if (running_.valid()) {
    if (running_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
      return Status::OK();
    }
    previous = running_.get();
  }
  running_ = std::async(std::launch::async, [this, batch_commit] { return Run(batch_commit); });
  return previous;
}

Status CommitMaintenance::Run(bool batch_commit) {
  const int64_t now = clock_();
  SLUICE_RETURN_NOT_OK(tags_->Run(now).status());
  // Consumers idle longer than `consumer.expiration-time` stop protecting snapshots first (Java
  // TableCommitImpl.expire), so that this expiry may take what only they held.
  if (const auto& idle = table_->options().consumer_expiration_time_millis()) {
    ConsumerManager consumers(table_->io(), table_->path(), table_->branch());
    SLUICE_RETURN_NOT_OK(consumers.Expire(now - *idle).status());
  }
  SLUICE_ASSIGN_OR_RETURN(ExpireSummary expired, ExpireSnapshotsImpl(table_).Expire(expire_, now));
  if (snapshots_expired_ != nullptr) snapshots_expired_->Inc(expired.expired);
  if (expire_.changelog_decoupled()) {
    SLUICE_RETURN_NOT_OK(ExpireChangelogImpl(table_).Expire(expire_, now).status());
  }
  if (partitions_.expiration_millis &&
      (!last_partition_check_ ||
       now - *last_partition_check_ >= partitions_.check_interval_millis)) {
    last_partition_check_ = now;
    SLUICE_RETURN_NOT_OK(PartitionExpire(table_, partitions_).Expire(now, commit_user_).status());
  }
  // The engines make the batch tag once the batch job committed, after its maintenance.
  if (batch_commit) SLUICE_RETURN_NOT_OK(tags_->CreateBatchTag(now).status());
  return Status::OK();
}

}  // namespace sluice
