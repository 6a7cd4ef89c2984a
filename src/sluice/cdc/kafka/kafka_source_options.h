// KafkaSourceOptions: the `--kafka_conf` of Java Paimon's Kafka CDC actions, read into what the
// Kafka source needs: the brokers, the topics (a `;`-separated list or a regex), the startup
// mode of splits with no recorded offset, and the client settings.
//
// Keys (as Flink's Kafka connector and Paimon's KafkaActionUtils have them):
//   properties.bootstrap.servers   required
//   topic / topic-pattern          exactly one; `topic` is `a;b;c`, `topic-pattern` a regex that
//                                  must match a whole topic name (internal `__` topics excluded)
//   properties.group.id            the consumer group (group-offsets, CommitGroupOffsets)
//   scan.startup.mode              earliest-offset, latest-offset, group-offsets (the default, as
//                                  in Flink), timestamp, specific-offsets
//   scan.startup.timestamp-millis  for `timestamp`
//   scan.startup.specific-offsets  for `specific-offsets`: `partition:0,offset:42;partition:1,
//                                  offset:300`, for the partitions of every topic; partitions it
//                                  does not name start at the earliest offset, as in Flink
//   scan.topic-partition-discovery.interval  how often a topic-pattern source looks for new
//                                  topics and partitions (millis or `10 s`; default 10 s)
//   properties.auto.offset.reset   where group-offsets starts a partition the group has no
//                                  offset for: earliest (the default), latest, none (an error)
//   properties.default.api.timeout.ms  the bound of each metadata / offset request (default 20 s)
//   properties.sasl.jaas.config    Java's PLAIN / SCRAM login line: its username and password
//                                  become librdkafka's sasl.username / sasl.password
//   properties.<key>               any other librdkafka setting, passed on (note that
//                                  librdkafka's isolation.level defaults to read_committed,
//                                  the Java client's to read_uncommitted)
// Other keys (value.format and the parser's) are not the source's and are left alone.
//
// The Java Kafka client takes any `properties.*` key and warns about unknown ones, while
// librdkafka rejects them. Command lines written for Java carry Java-only keys
// (`key.deserializer`, `ssl.truststore.location`, ...), so a key librdkafka does not know is
// skipped with a warning, not an error; a known key with a bad value is an error. KafkaSource
// checks them against librdkafka (KafkaSource::Make, KafkaSource::warnings), not this parser.
//
// Secrets (keys containing password, secret, token, sasl.jaas) never appear in errors or
// warnings.
//
// Thread safety: a value type.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sluice/result.h"

namespace sluice {

enum class KafkaStartupMode { kEarliest, kLatest, kGroupOffsets, kTimestamp, kSpecificOffsets };

// Where group-offsets starts a partition with no committed offset.
enum class KafkaOffsetReset { kEarliest, kLatest, kNone };

struct KafkaSourceOptions {
  std::string bootstrap_servers;
  // The topics named by `topic`, in order; empty when `topic_pattern` is set.
  std::vector<std::string> topics;
  std::string topic_pattern;
  std::string group_id;
  KafkaStartupMode startup_mode = KafkaStartupMode::kGroupOffsets;
  int64_t startup_timestamp_ms = -1;
  // partition -> offset, for specific-offsets.
  std::map<int32_t, int64_t> specific_offsets;
  KafkaOffsetReset offset_reset = KafkaOffsetReset::kEarliest;
  std::chrono::milliseconds request_timeout{20000};
  std::chrono::milliseconds discovery_interval{10000};
  // librdkafka settings from `properties.*`, prefix stripped, in order (not yet checked).
  std::vector<std::pair<std::string, std::string>> client_properties;

  // InvalidArgument naming the key (and its masked value) for a missing or malformed setting.
  static Result<KafkaSourceOptions> Parse(
      const std::vector<std::pair<std::string, std::string>>& kafka_conf);
};

// "earliest-offset", ... as the option spells them.
const char* KafkaStartupModeName(KafkaStartupMode mode);

// Flink's specific-offsets syntax, `partition:0,offset:42;partition:1,offset:300`.
Result<std::map<int32_t, int64_t>> ParseKafkaSpecificOffsets(const std::string& text);

}  // namespace sluice
