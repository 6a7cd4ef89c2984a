// PartitionExpire: drops the partitions whose time is past `partition.expiration-time` (Java
// PartitionExpire with PartitionValuesTimeExpireStrategy / PartitionUpdateTimeExpireStrategy and
// PartitionTimeExtractor), in one OVERWRITE snapshot (FileStoreCommit::DropPartitions).
//
//   values-time   the partition's time comes from its values: `partition.timestamp-pattern`
//                 with `$key` replaced by each value (default: the first value), parsed with
//                 `partition.timestamp-formatter` (a java.time pattern of y M d H m s S and
//                 literals; default `yyyy-MM-dd[ HH:mm:ss[.S..]]`, a date alone meaning
//                 midnight). A partition whose time does not parse never expires (Java logs it).
//   update-time   the partition's time is the latest creation time of its live files.
//
// A partition expires when its time is before now - expiration time; at most
// `partition.expiration-max-num` (100) at a time, oldest first. Times are wall clocks of the
// process's zone (TimeZone::Process), as Java's are of the JVM's: now is taken there, and files
// record their creation time there (rolling_data_file_writer).
//
// Thread safety: not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/meta/core_options.h"
#include "sluice/partition_spec.h"
#include "sluice/result.h"
#include "sluice/table/file_store_table.h"

namespace sluice {

enum class PartitionExpireStrategy : unsigned char { kValuesTime, kUpdateTime };

struct PartitionExpireConfig {
  std::optional<int64_t> expiration_millis;     // partition.expiration-time; unset: never
  int64_t check_interval_millis = 3600 * 1000;  // partition.expiration-check-interval
  std::optional<std::string> timestamp_formatter;
  std::optional<std::string> timestamp_pattern;
  PartitionExpireStrategy strategy = PartitionExpireStrategy::kValuesTime;
  int32_t max_expires = 100;  // partition.expiration-max-num

  // InvalidArgument naming the key and the value.
  static Result<PartitionExpireConfig> FromOptions(const CoreOptions& options);
};

// "values-time" / "update-time"; InvalidArgument naming the value otherwise.
Result<PartitionExpireStrategy> PartitionExpireStrategyFromName(std::string_view name);

// The epoch millis (as UTC) of the time Java's PartitionTimeExtractor reads from `text` with
// java.time `formatter` (nullopt: the default formats); InvalidArgument naming the text.
Result<int64_t> ParsePartitionTime(std::string_view text,
                                   const std::optional<std::string>& formatter);

class PartitionExpire {
 public:
  PartitionExpire(std::shared_ptr<const FileStoreTable> table, PartitionExpireConfig config)
      : table_(std::move(table)), config_(std::move(config)) {}

  // The partitions of the latest snapshot that are expired at `now_millis`, oldest first, at
  // most max_expires; none without an expiration time.
  Result<std::vector<PartitionSpec>> ExpiredPartitions(int64_t now_millis) const;
  // Drops ExpiredPartitions(now_millis) as `commit_user`; returns them.
  Result<std::vector<PartitionSpec>> Expire(int64_t now_millis, const std::string& commit_user);

 private:
  std::shared_ptr<const FileStoreTable> table_;
  PartitionExpireConfig config_;
};

}  // namespace sluice
