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
#include <vector>

#include "sluice/cdc/cdc_record.h"

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
  // type ("CreateTime" / "LogAppendTime" / "NoTimestampType"). A database source: the time
  // of the change in the source (a binlog event's timestamp; 0 for snapshot rows, as Flink
  // CDC's), which is the `op_ts` metadata column.
  std::string topic;
  int32_t partition = -1;
  int64_t timestamp_ms = -1;
  std::string timestamp_type;
  // The change records of a source that decodes its messages itself (a binlog source hands
  // typed rows, not bytes in a format): the job takes these and runs no parser.
  std::vector<RichCdcMultiplexRecord> records;
  // Whether the tables may commit after this message. A binlog source's snapshot copies each
  // table whole between two commits (only the copy's last message is a commit point), so that
  // a job killed during a copy copies the table again rather than adding to half of it.
  bool commit_point = true;
  // A message on a fact split (SourceOffsets::kFactPrefix): the source database and table the
  // fact is about (as records name them). The fact is committed with that table's sink only,
  // never with the job's offsets: other tables must not claim it.
  std::string fact_database;
  std::string fact_table;
};

}  // namespace sluice
