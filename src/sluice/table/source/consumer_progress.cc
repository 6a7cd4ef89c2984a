#include "sluice/table/source/consumer_progress.h"

#include <algorithm>

namespace sluice {

ConsumerProgress::ConsumerProgress(const FileStoreTable& table, std::string consumer_id,
                                   StreamShard shard)
    : consumers_(table.io(), table.path(), table.branch()),
      consumer_id_(std::move(consumer_id)),
      shard_(shard) {}

std::string ConsumerProgress::ReaderId(const std::string& consumer_id, StreamShard shard) {
  return consumer_id + ".reader-" + std::to_string(shard.index) + "-of-" +
         std::to_string(shard.count);
}

Result<std::optional<int64_t>> ConsumerProgress::Load() const {
  if (shard_.count > 1) {
    SLUICE_ASSIGN_OR_RETURN(std::optional<Consumer> own,
                            consumers_.LoadConsumer(ReaderId(consumer_id_, shard_)));
    if (own) return std::optional<int64_t>(own->next_snapshot);
  }
  SLUICE_ASSIGN_OR_RETURN(std::optional<Consumer> shared, consumers_.LoadConsumer(consumer_id_));
  if (!shared) return std::optional<int64_t>();
  return std::optional<int64_t>(shared->next_snapshot);
}

Status ConsumerProgress::Record(int64_t next) const {
  if (shard_.count == 1) return consumers_.ResetConsumer(consumer_id_, Consumer{next});
  SLUICE_RETURN_NOT_OK(consumers_.ResetConsumer(ReaderId(consumer_id_, shard_), Consumer{next}));
  SLUICE_ASSIGN_OR_RETURN(std::optional<Consumer> shared, consumers_.LoadConsumer(consumer_id_));
  int64_t slowest = next;
  for (int32_t index = 0; index < shard_.count; ++index) {
    if (index == shard_.index) continue;
    const StreamShard other{index, shard_.count};
    SLUICE_ASSIGN_OR_RETURN(std::optional<Consumer> position,
                            consumers_.LoadConsumer(ReaderId(consumer_id_, other)));
    if (!position) position = shared;
    // A reader with no position anywhere starts by `scan.mode`: nothing to keep for it yet.
    if (!position) return Status::OK();
    slowest = std::min(slowest, position->next_snapshot);
  }
  return consumers_.ResetConsumer(consumer_id_, Consumer{slowest});
}

}  // namespace sluice
