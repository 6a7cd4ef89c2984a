// CommitMaintenance: what runs after each successful commit (Java TableCommitImpl.maintain with
// the table's expire runnable): automatic tags and tag retention first (TagAutoManager, before
// expiry so that a tag can still take a snapshot about to expire), then snapshot expiry, then
// long-lived changelog expiry when the changelog is decoupled, then partition expiry once every
// `partition.expiration-check-interval` (the first commit checks; Java starts its clock at a
// random point of the first interval); after a batch commit, the batch tag
// (`tag.automatic-creation = batch`). Nothing runs for `write-only` tables, as in Java. The clock
// (epoch millis) is injectable: it decides every retention and stamps tag create times.
//
// `snapshot.expire.execution-mode = async` runs the work on a thread of its own, one run at a
// time: a commit that finds the previous run still going starts none (Java skips likewise), and
// the destructor waits for the run in flight.
//
// Thread safety: not thread-safe; one per committer.
#pragma once

#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>

#include "sluice/base/metric_registry_impl.h"
#include "sluice/maintenance/partition_expire.h"
#include "sluice/maintenance/tag_auto_manager.h"
#include "sluice/meta/expire_config.h"
#include "sluice/result.h"
#include "sluice/table/file_store_table.h"

namespace sluice {

class CommitMaintenance {
 public:
  using Clock = std::function<int64_t()>;

  // InvalidArgument naming a bad option value. `clock` default: the wall clock.
  static Result<std::unique_ptr<CommitMaintenance>> Make(
      std::shared_ptr<const FileStoreTable> table, std::string commit_user, Clock clock = {});
  ~CommitMaintenance();
  CommitMaintenance(const CommitMaintenance&) = delete;
  CommitMaintenance& operator=(const CommitMaintenance&) = delete;

  // Runs (or, async, starts) the maintenance after a commit (`batch_commit`: one with the batch
  // identifier). Returns what went wrong: in sync mode this run's failure, in async mode the
  // failure of the previous run, once.
  Status AfterCommit(bool batch_commit = false);

  // Count the snapshots expired into `registry` (SnapshotsExpiredCounter of the table).
  // REQUIRES: the registry outlives this object.
  void WithMetricRegistry(MetricRegistryImpl* registry);

 private:
  CommitMaintenance(std::shared_ptr<const FileStoreTable> table, std::string commit_user,
                    Clock clock, ExpireConfig expire, PartitionExpireConfig partitions,
                    std::unique_ptr<TagAutoManager> tags)
      : table_(std::move(table)),
        commit_user_(std::move(commit_user)),
        clock_(std::move(clock)),
        expire_(expire),
        partitions_(std::move(partitions)),
        tags_(std::move(tags)) {}

  Status Run(bool batch_commit);

  std::shared_ptr<const FileStoreTable> table_;
  std::string commit_user_;
  Clock clock_;
  Counter* snapshots_expired_ = nullptr;
  ExpireConfig expire_;
  PartitionExpireConfig partitions_;
  std::unique_ptr<TagAutoManager> tags_;
  // When partition expiry last ran (epoch millis); none yet.
  std::optional<int64_t> last_partition_check_;
  std::future<Status> running_;
};

// `paimon_expire_snapshotsExpired_total` of the table at `table_path` (docs/metrics.md): the
// snapshots expired after commits and by expire_snapshots alike.
Counter* SnapshotsExpiredCounter(MetricRegistryImpl* registry, const std::string& table_path);

}  // namespace sluice
