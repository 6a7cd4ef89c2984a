// Helpers of the tests that need a real Kafka broker (tests/cdc/kafka/): its address, unique
// topic names, creating and deleting topics, producing messages.
//
// The broker is the one scripts/kafka.sh runs; ctest starts it once per run for every test of
// cdc_kafka_test (the `kafka` fixture, CMakeLists.txt). When running the binary by hand, start
// it first: `scripts/kafka.sh start`. Topics are never shared: each test makes its own with
// UniqueTopicName, so that tests run in parallel and again without cleaning up.
//
//   std::string topic = test::UniqueTopicName();
//   ASSERT_OK(test::CreateTopic(topic, 3));
//   ASSERT_OK(test::Produce(topic, {test::KafkaMessage("key", "value", /*partition=*/0)}));
//
// Thread safety: the functions may be called from several threads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sluice/result.h"
#include "sluice/status.h"

namespace sluice::test {

// The broker's bootstrap servers: $SLUICE_KAFKA_BOOTSTRAP, else "127.0.0.1:19092".
std::string KafkaBootstrap();

// A topic name no other test (in this run or an earlier one) uses: "<hint>_<test name>_<pid>_
// <sequence>" with characters Kafka does not allow replaced; `hint` may be empty.
std::string UniqueTopicName(std::string_view hint = "");

// Creates `topic` with `partitions` partitions (one replica) and returns once every partition
// has a leader, so that producing and consuming may start at once.
Status CreateTopic(const std::string& topic, int partitions);

// Deletes `topic`; OK when it does not exist.
Status DeleteTopic(const std::string& topic);

struct KafkaTestMessage {
  std::optional<std::string> key;
  // nullopt: a tombstone.
  std::optional<std::string> value;
  // -1: the partitioner picks one (by key).
  int32_t partition = -1;
  // The CreateTime timestamp in epoch millis; 0: now.
  int64_t timestamp_ms = 0;
  // Headers, in order.
  std::vector<std::pair<std::string, std::string>> headers;
};

// A message without headers (a function, as -Wextra warns on partial aggregate initializers).
KafkaTestMessage KafkaMessage(std::optional<std::string> key, std::optional<std::string> value,
                              int32_t partition = -1, int64_t timestamp_ms = 0);

// Produces `messages` in order and waits until the broker has acknowledged every one (acks=all,
// idempotent, so the order within a partition is kept). IOError naming the topic when one failed.
Status Produce(const std::string& topic, const std::vector<KafkaTestMessage>& messages);

// Produces `count` messages with values "<prefix><i>" (i = 0..count-1) and keys "k<i>" to
// `partition`.
Status ProduceValues(const std::string& topic, int32_t partition, int count,
                     const std::string& prefix = "v");

// The next offset of each partition of `topic` in consumer group `group_id` (-1 where the
// group has none).
Result<std::vector<int64_t>> CommittedOffsets(const std::string& topic, int partitions,
                                              const std::string& group_id);

}  // namespace sluice::test
