// CommitMaintenance: what runs after each successful commit (Java TableCommitImpl.maintain with
// the table's expire runnable): snapshot expiry, then long-lived changelog expiry when the
// changelog is decoupled, then partition expiry once every
// `partition.expiration-check-interval` (the first commit checks; Java starts its clock at a
// random point of the first interval). Nothing runs for `write-only` tables, as in Java.
//
// `snapshot.expire.execution-mode = async` runs the work on a thread of its own, one run at a
// time: a commit that finds the previous run still going starts none (Java skips likewise), and
// the destructor waits for the run in flight.
//
// Thread safety: not thread-safe; one per committer.
#pragma once

#include <cstdint>
#include <future>
#include <memory>
#include <optional>
#include <string>

#include "sluice/maintenance/partition_expire.h"
#include "sluice/meta/expire_config.h"
#include "sluice/result.h"
#include "sluice/table/file_store_table.h"

namespace sluice {

class CommitMaintenance {
 public:
  // InvalidArgument naming a bad option value.
  static Result<std::unique_ptr<CommitMaintenance>> Make(
      std::shared_ptr<const FileStoreTable> table, std::string commit_user);
  ~CommitMaintenance();
  CommitMaintenance(const CommitMaintenance&) = delete;
  CommitMaintenance& operator=(const CommitMaintenance&) = delete;

  // Runs (or, async, starts) the maintenance after a commit. Returns what went wrong: in sync
  // mode this run's failure, in async mode the failure of the previous run, once.
  Status AfterCommit();

 private:
  CommitMaintenance(std::shared_ptr<const FileStoreTable> table, std::string commit_user,
                    ExpireConfig expire, PartitionExpireConfig partitions)
      : table_(std::move(table)),
        commit_user_(std::move(commit_user)),
        expire_(expire),
        partitions_(std::move(partitions)) {}

  Status Run();

  std::shared_ptr<const FileStoreTable> table_;
  std::string commit_user_;
  ExpireConfig expire_;
  PartitionExpireConfig partitions_;
  // When partition expiry last ran (epoch millis); none yet.
  std::optional<int64_t> last_partition_check_;
  std::future<Status> running_;
};

}  // namespace sluice
