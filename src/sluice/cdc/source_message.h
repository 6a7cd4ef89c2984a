// SourceMessage: one message a CDC source hands the ingestion runtime, with its position.
//
// A source reads one or more splits (a Kafka topic partition, a binlog, a replication slot);
// within a split, positions increase. The runtime commits, with the rows of a message, the
// position after it (`offset + 1`), and a restarted job resumes every split there
// (source_offsets.h), so each message is applied once.
//
// Thread safety: a value type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace sluice {

struct SourceMessage {
  // The split the message comes from: "<topic>-<partition>" for Kafka.
  std::string split;
  // Its position within the split (the Kafka offset).
  int64_t offset = 0;
  // Message key and value bytes; nullopt when absent (a Kafka tombstone has no value).
  std::optional<std::string> key;
  std::optional<std::string> value;
  // Kafka: the topic and partition, the message timestamp (epoch millis, -1 when none) and its
  // type ("CreateTime" / "LogAppendTime" / "NoTimestampType").
  std::string topic;
  int32_t partition = -1;
  int64_t timestamp_ms = -1;
  std::string timestamp_type;
};

}  // namespace sluice
