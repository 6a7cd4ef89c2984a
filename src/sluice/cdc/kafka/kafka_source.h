// KafkaSource: the CDC source of `kafka_sync_table` / `kafka_sync_database`, a librdkafka
// consumer over every partition of the configured topics (KafkaSourceOptions).
//
// Partitions are assigned explicitly, never through group rebalancing: the positions that
// count are the ones the runtime commits with its rows (SourceOffsets), so a restarted job
// resumes exactly there. The consumer group, when one is configured, only serves the
// group-offsets startup mode and receives the runtime's committed positions afterwards
// (CommitGroupOffsets), as Flink's Kafka source commits on checkpoints, for monitoring.
//
// A topic-pattern source looks for new matching topics and new partitions every
// `scan.topic-partition-discovery.interval` while polling; they start at their earliest offset,
// as in Flink.
//
// Every request to the brokers is bounded (properties.default.api.timeout.ms, 20 s by
// default): brokers that are down fail Open instead of hanging it. Errors name the bootstrap
// servers and the topic, never a secret setting's value.
//
// Thread safety: used by one thread.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sluice/cdc/cdc_source.h"
#include "sluice/cdc/kafka/kafka_source_options.h"

namespace sluice {

class KafkaSource : public CdcSource {
 public:
  // Reads `kafka_conf` (Java's --kafka_conf keys, KafkaSourceOptions) and checks its librdkafka
  // settings; does not connect. InvalidArgument naming a bad key.
  static Result<std::unique_ptr<KafkaSource>> Make(
      const std::vector<std::pair<std::string, std::string>>& kafka_conf);
  ~KafkaSource() override;
  KafkaSource(const KafkaSource&) = delete;
  KafkaSource& operator=(const KafkaSource&) = delete;

  // Lists the topics' partitions and starts each at its offset in `resume`, or else as
  // scan.startup.mode says. NotFound for a topic that does not exist (or a group with no
  // offset under auto.offset.reset=none), IOError when the brokers do not answer in time. A
  // source is opened once; after an error, make a new one.
  Status Open(const SourceOffsets& resume) override;
  // Skips what librdkafka retries by itself (a broker briefly away); fails on what it cannot
  // (a deleted or forbidden topic, an offset out of range under auto.offset.reset=none).
  Status Poll(std::chrono::milliseconds timeout, size_t max_messages,
              std::vector<SourceMessage>* out) override;
  std::vector<SplitLag> Lag() override;
  // Commits the offsets to the consumer group (CommitGroupOffsets).
  Status Acknowledge(const SourceOffsets& offsets) override { return CommitGroupOffsets(offsets); }
  std::string Describe() const override;

  // Commits `offsets` (next offsets, as the runtime committed them) to the consumer group.
  // Splits this source does not read are skipped; without properties.group.id, nothing is
  // done. REQUIRES: Open succeeded.
  Status CommitGroupOffsets(const SourceOffsets& offsets);

  // The splits being read, "<topic>-<partition>", sorted. Empty before Open.
  std::vector<std::string> splits() const;

  // The `properties.*` settings librdkafka does not know (Java-only client settings), which
  // were skipped: one line each, for the runtime to print. Secret values are masked.
  const std::vector<std::string>& warnings() const;

 private:
  struct Rep;
  explicit KafkaSource(std::unique_ptr<Rep> rep);

  std::unique_ptr<Rep> rep_;
};

}  // namespace sluice
