// ConsumerManager: the consumer files of one branch of a table (Java ConsumerManager). A
// consumer file `consumer/consumer-<id>` records the next snapshot a streaming reader with
// `consumer-id = <id>` will read; snapshot expiry keeps every snapshot from the smallest
// recorded one on (MinNextSnapshot), and `consumer.expiration-time` deletes consumers not
// updated for that long (Expire).
//
// Consumer ids are file-name suffixes: an empty id, or one holding '/' or a NUL, is an
// InvalidArgument naming it.
//
// Thread safety: const methods are as thread-safe as the FileIO; the object is immutable.
// ResetConsumer replaces the file atomically, so a concurrent reader sees the old or the new
// progress, never a torn file.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/fs/file_io.h"
#include "sluice/meta/consumer.h"
#include "sluice/meta/file_paths.h"
#include "sluice/result.h"

namespace sluice {

class ConsumerManager {
 public:
  // `branch` "main" (or blank) is the table root; others live under branch/branch-<name>/.
  ConsumerManager(std::shared_ptr<FileIO> io, std::string table_path,
                  std::string_view branch = kMainBranch);

  std::string consumer_dir() const { return ConsumerDir(branch_path_); }
  std::string consumer_path(std::string_view id) const { return ConsumerPath(branch_path_, id); }

  // nullopt when the consumer has no file; a malformed file is a Corruption naming the path.
  Result<std::optional<Consumer>> LoadConsumer(std::string_view id) const;
  // Writes (or replaces) the consumer's file durably.
  Status ResetConsumer(std::string_view id, const Consumer& consumer) const;
  // Deletes the consumer's file durably; a missing file is OK.
  Status DeleteConsumer(std::string_view id) const;

  // Ids of all consumers, sorted; empty when there is no consumer/ directory.
  Result<std::vector<std::string>> ListAllIds() const;
  // Every consumer's next snapshot, by id (Java consumers()).
  Result<std::map<std::string, int64_t>> Consumers() const;
  // The smallest next snapshot of all consumers; nullopt when there is none (Java
  // minNextSnapshot): snapshots from this id on must not expire.
  Result<std::optional<int64_t>> MinNextSnapshot() const;
  // Deletes the consumers whose file was last modified before `expire_before_millis` (epoch
  // millis; Java expire(LocalDateTime) with `now - consumer.expiration-time`), durably.
  // Returns the ids deleted.
  Result<std::vector<std::string>> Expire(int64_t expire_before_millis) const;

 private:
  // Makes the consumer files' deletions durable; OK when there is no consumer directory.
  Status SyncConsumerDir() const;

  std::shared_ptr<FileIO> io_;
  std::string table_path_;
  std::string branch_;
  std::string branch_path_;
};

}  // namespace sluice
