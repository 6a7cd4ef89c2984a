// KafkaSource against the real broker of scripts/kafka.sh (the `kafka` ctest fixture).
#include "sluice/cdc/kafka/kafka_source.h"

#include <gtest/gtest.h>

#include <chrono>
#include <map>

#include "kafka_test_util.h"
#include "test_util.h"

namespace sluice {
namespace {

using namespace std::chrono_literals;
using Conf = std::vector<std::pair<std::string, std::string>>;

Conf BaseConf(const std::string& topic, const std::string& mode) {
  return {{"properties.bootstrap.servers", test::KafkaBootstrap()},
          {"topic", topic},
          {"scan.startup.mode", mode},
          {"value.format", "debezium-json"}};
}

// Polls until `count` messages arrived (or 30 s passed, failing the test).
std::vector<SourceMessage> PollCount(KafkaSource* source, size_t count) {
  std::vector<SourceMessage> messages;
  std::vector<SourceMessage> batch;
  auto deadline = std::chrono::steady_clock::now() + 30s;
  while (messages.size() < count && std::chrono::steady_clock::now() < deadline) {
    Status st = source->Poll(200ms, count - messages.size(), &batch);
    EXPECT_OK(st);
    if (!st.ok()) break;
    messages.insert(messages.end(), batch.begin(), batch.end());
  }
  EXPECT_EQ(messages.size(), count);
  return messages;
}

// Polls for `period` and expects nothing.
void ExpectNothing(KafkaSource* source, std::chrono::milliseconds period = 1s) {
  std::vector<SourceMessage> messages;
  std::vector<SourceMessage> batch;
  auto deadline = std::chrono::steady_clock::now() + period;
  while (std::chrono::steady_clock::now() < deadline) {
    ASSERT_OK(source->Poll(100ms, 100, &batch));
    messages.insert(messages.end(), batch.begin(), batch.end());
  }
  EXPECT_TRUE(messages.empty()) << messages.size() << " messages, first " << messages[0].split
                                << "@" << messages[0].offset;
}

// split -> values in the order they came.
std::map<std::string, std::vector<std::string>> BySplit(const std::vector<SourceMessage>& all) {
  std::map<std::string, std::vector<std::string>> by_split;
  for (const SourceMessage& m : all) by_split[m.split].push_back(m.value.value_or("<null>"));
  return by_split;
}

std::unique_ptr<KafkaSource> OpenSource(const Conf& conf, const SourceOffsets& resume = {}) {
  auto source = KafkaSource::Make(conf);
  EXPECT_OK(source);
  if (!source.ok()) return nullptr;
  Status st = (*source)->Open(resume);
  EXPECT_OK(st);
  if (!st.ok()) return nullptr;
  return std::move(source).value();
}

TEST(KafkaSourceTest, EarliestReadsEveryPartitionInOrder) {
  std::string topic = test::UniqueTopicName();
  ASSERT_OK(test::CreateTopic(topic, 3));
  for (int p = 0; p < 3; ++p) {
    ASSERT_OK(test::ProduceValues(topic, p, 5, "p" + std::to_string(p) + "v"));
  }
  auto source = OpenSource(BaseConf(topic, "earliest-offset"));
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(source->splits(), (std::vector<std::string>{topic + "-0", topic + "-1", topic + "-2"}));
  std::vector<SourceMessage> messages = PollCount(source.get(), 15);
  std::map<std::string, int64_t> next;
  for (const SourceMessage& m : messages) {
    EXPECT_EQ(m.split, topic + "-" + std::to_string(m.partition));
    EXPECT_EQ(m.topic, topic);
    EXPECT_EQ(m.offset, next[m.split]) << m.split;
    next[m.split] = m.offset + 1;
    EXPECT_EQ(m.key, "k" + std::to_string(m.offset));
    EXPECT_EQ(m.value, "p" + std::to_string(m.partition) + "v" + std::to_string(m.offset));
    EXPECT_EQ(m.timestamp_type, "CreateTime");
    EXPECT_GT(m.timestamp_ms, 0);
  }
  EXPECT_EQ(next.size(), 3u);
  ExpectNothing(source.get(), 300ms);
  EXPECT_EQ(source->Describe(), "kafka " + test::KafkaBootstrap() + " topics " + topic);
}

TEST(KafkaSourceTest, LatestReadsOnlyNewMessages) {
  std::string topic = test::UniqueTopicName();
  ASSERT_OK(test::CreateTopic(topic, 2));
  ASSERT_OK(test::ProduceValues(topic, 0, 3, "old"));
  ASSERT_OK(test::ProduceValues(topic, 1, 2, "old"));
  auto source = OpenSource(BaseConf(topic, "latest-offset"));
  ASSERT_NE(source, nullptr);
  ExpectNothing(source.get(), 300ms);
  ASSERT_OK(test::Produce(topic, {test::KafkaMessage(std::nullopt, "new0", 0),
                                  test::KafkaMessage(std::nullopt, "new1", 1),
                                  test::KafkaMessage(std::nullopt, "new2", 0)}));
  auto by_split = BySplit(PollCount(source.get(), 3));
  EXPECT_EQ(by_split[topic + "-0"], (std::vector<std::string>{"new0", "new2"}));
  EXPECT_EQ(by_split[topic + "-1"], (std::vector<std::string>{"new1"}));
}

TEST(KafkaSourceTest, SpecificOffsetsStartUnnamedPartitionsAtEarliest) {
  std::string topic = test::UniqueTopicName();
  ASSERT_OK(test::CreateTopic(topic, 2));
  ASSERT_OK(test::ProduceValues(topic, 0, 5));
  ASSERT_OK(test::ProduceValues(topic, 1, 2));
  Conf conf = BaseConf(topic, "specific-offsets");
  conf.emplace_back("scan.startup.specific-offsets", "partition:0,offset:3");
  auto source = OpenSource(conf);
  ASSERT_NE(source, nullptr);
  auto by_split = BySplit(PollCount(source.get(), 4));
  EXPECT_EQ(by_split[topic + "-0"], (std::vector<std::string>{"v3", "v4"}));
  EXPECT_EQ(by_split[topic + "-1"], (std::vector<std::string>{"v0", "v1"}));
}

TEST(KafkaSourceTest, TimestampStartsAtTheFirstMessageAtOrAfterIt) {
  std::string topic = test::UniqueTopicName();
  ASSERT_OK(test::CreateTopic(topic, 2));
  std::vector<test::KafkaTestMessage> messages;
  for (int i = 0; i < 10; ++i) {
    messages.push_back(
        test::KafkaMessage(std::nullopt, "a" + std::to_string(i), 0, 1'700'000'000'000 + i * 1000));
  }
  // Partition 1 has only older messages: it starts at its end.
  messages.push_back(test::KafkaMessage(std::nullopt, "b0", 1, 1'600'000'000'000));
  ASSERT_OK(test::Produce(topic, messages));
  Conf conf = BaseConf(topic, "timestamp");
  conf.emplace_back("scan.startup.timestamp-millis", "1700000006500");
  auto source = OpenSource(conf);
  ASSERT_NE(source, nullptr);
  std::vector<SourceMessage> got = PollCount(source.get(), 3);
  auto by_split = BySplit(got);
  EXPECT_EQ(by_split[topic + "-0"], (std::vector<std::string>{"a7", "a8", "a9"}));
  EXPECT_EQ(got[0].timestamp_ms, 1'700'000'007'000);
  ExpectNothing(source.get(), 300ms);
  ASSERT_OK(test::Produce(topic, {test::KafkaMessage(std::nullopt, "b1", 1)}));
  EXPECT_EQ(BySplit(PollCount(source.get(), 1))[topic + "-1"], (std::vector<std::string>{"b1"}));
}

TEST(KafkaSourceTest, GroupOffsetsStartWhereTheGroupCommitted) {
  std::string topic = test::UniqueTopicName();
  std::string group = test::UniqueTopicName("group");
  ASSERT_OK(test::CreateTopic(topic, 3));
  for (int p = 0; p < 3; ++p) ASSERT_OK(test::ProduceValues(topic, p, 4));
  {
    Conf conf = BaseConf(topic, "earliest-offset");
    conf.emplace_back("properties.group.id", group);
    auto source = OpenSource(conf);
    ASSERT_NE(source, nullptr);
    PollCount(source.get(), 12);
    SourceOffsets progress;
    progress.next[topic + "-0"] = 3;
    progress.next[topic + "-1"] = 1;
    progress.next["another-topic-0"] = 7;  // not this source's: skipped
    ASSERT_OK(source->CommitGroupOffsets(progress));
  }
  ASSERT_OK_AND_ASSIGN(std::vector<int64_t> committed, test::CommittedOffsets(topic, 3, group));
  EXPECT_EQ(committed, (std::vector<int64_t>{3, 1, -1}));

  // Partition 2 has no committed offset: auto.offset.reset (earliest by default) decides.
  Conf conf = BaseConf(topic, "group-offsets");
  conf.emplace_back("properties.group.id", group);
  auto source = OpenSource(conf);
  ASSERT_NE(source, nullptr);
  auto by_split = BySplit(PollCount(source.get(), 1 + 3 + 4));
  EXPECT_EQ(by_split[topic + "-0"], (std::vector<std::string>{"v3"}));
  EXPECT_EQ(by_split[topic + "-1"], (std::vector<std::string>{"v1", "v2", "v3"}));
  EXPECT_EQ(by_split[topic + "-2"], (std::vector<std::string>{"v0", "v1", "v2", "v3"}));

  conf.emplace_back("properties.auto.offset.reset", "latest");
  source = OpenSource(conf);
  ASSERT_NE(source, nullptr);
  by_split = BySplit(PollCount(source.get(), 1 + 3));
  EXPECT_EQ(by_split.count(topic + "-2"), 0u);

  conf.back().second = "none";
  ASSERT_OK_AND_ASSIGN(auto strict, KafkaSource::Make(conf));
  EXPECT_TRUE(test::HasError(strict->Open({}), StatusCode::kNotFound,
                             {group, topic + "-2", "auto.offset.reset is none"}));
}

TEST(KafkaSourceTest, ResumeOffsetsOverrideTheStartupMode) {
  std::string topic = test::UniqueTopicName();
  ASSERT_OK(test::CreateTopic(topic, 2));
  ASSERT_OK(test::ProduceValues(topic, 0, 5));
  ASSERT_OK(test::ProduceValues(topic, 1, 5));
  SourceOffsets resume;
  resume.next[topic + "-0"] = 2;
  resume.next["other-topic-0"] = 9;  // a split this source does not read: ignored
  auto source = OpenSource(BaseConf(topic, "latest-offset"), resume);
  ASSERT_NE(source, nullptr);
  auto by_split = BySplit(PollCount(source.get(), 3));
  EXPECT_EQ(by_split[topic + "-0"], (std::vector<std::string>{"v2", "v3", "v4"}));
  ExpectNothing(source.get(), 300ms);

  // A resumed split at its end, another at earliest.
  resume.next[topic + "-0"] = 5;
  source = OpenSource(BaseConf(topic, "earliest-offset"), resume);
  ASSERT_NE(source, nullptr);
  by_split = BySplit(PollCount(source.get(), 5));
  EXPECT_EQ(by_split.count(topic + "-0"), 0u);
  EXPECT_EQ(by_split[topic + "-1"].size(), 5u);
}

TEST(KafkaSourceTest, SeveralTopics) {
  std::string a = test::UniqueTopicName("a");
  std::string b = test::UniqueTopicName("b");
  ASSERT_OK(test::CreateTopic(a, 1));
  ASSERT_OK(test::CreateTopic(b, 2));
  ASSERT_OK(test::ProduceValues(a, 0, 2, "a"));
  ASSERT_OK(test::ProduceValues(b, 1, 3, "b"));
  auto source = OpenSource(BaseConf(a + " ; " + b, "earliest-offset"));
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(source->splits().size(), 3u);
  auto by_split = BySplit(PollCount(source.get(), 5));
  EXPECT_EQ(by_split[a + "-0"], (std::vector<std::string>{"a0", "a1"}));
  EXPECT_EQ(by_split[b + "-1"], (std::vector<std::string>{"b0", "b1", "b2"}));
}

TEST(KafkaSourceTest, TopicPatternReadsMatchingTopicsAndFindsNewOnes) {
  std::string prefix = test::UniqueTopicName("pattern");
  ASSERT_OK(test::CreateTopic(prefix + ".x", 2));
  ASSERT_OK(test::CreateTopic(prefix + ".y", 1));
  ASSERT_OK(test::CreateTopic(prefix + "-other", 1));
  ASSERT_OK(test::ProduceValues(prefix + ".x", 1, 2, "x"));
  ASSERT_OK(test::ProduceValues(prefix + ".y", 0, 1, "y"));
  ASSERT_OK(test::ProduceValues(prefix + "-other", 0, 1, "other"));
  Conf conf = {{"properties.bootstrap.servers", test::KafkaBootstrap()},
               {"topic-pattern", prefix + "\\.(x|y|z)"},
               {"scan.startup.mode", "earliest-offset"},
               {"scan.topic-partition-discovery.interval", "100 ms"}};
  auto source = OpenSource(conf);
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(source->splits(),
            (std::vector<std::string>{prefix + ".x-0", prefix + ".x-1", prefix + ".y-0"}));
  auto by_split = BySplit(PollCount(source.get(), 3));
  EXPECT_EQ(by_split[prefix + ".x-1"], (std::vector<std::string>{"x0", "x1"}));
  EXPECT_EQ(by_split[prefix + ".y-0"], (std::vector<std::string>{"y0"}));

  // A topic created while the source runs is read from its beginning.
  ASSERT_OK(test::CreateTopic(prefix + ".z", 1));
  ASSERT_OK(test::ProduceValues(prefix + ".z", 0, 2, "z"));
  ASSERT_OK(test::ProduceValues(prefix + ".x", 0, 1, "x"));
  by_split = BySplit(PollCount(source.get(), 3));
  EXPECT_EQ(by_split[prefix + ".z-0"], (std::vector<std::string>{"z0", "z1"}));
  EXPECT_EQ(by_split[prefix + ".x-0"], (std::vector<std::string>{"x0"}));
  EXPECT_EQ(source->splits().size(), 4u);
}

TEST(KafkaSourceTest, TombstonesAndNullKeys) {
  std::string topic = test::UniqueTopicName();
  ASSERT_OK(test::CreateTopic(topic, 1));
  ASSERT_OK(test::Produce(
      topic, {test::KafkaMessage("k1", std::nullopt, 0), test::KafkaMessage(std::nullopt, "v", 0),
              test::KafkaMessage("", "", 0)}));
  auto source = OpenSource(BaseConf(topic, "earliest-offset"));
  ASSERT_NE(source, nullptr);
  std::vector<SourceMessage> messages = PollCount(source.get(), 3);
  ASSERT_EQ(messages.size(), 3u);
  EXPECT_EQ(messages[0].key, "k1");
  EXPECT_EQ(messages[0].value, std::nullopt);
  EXPECT_EQ(messages[1].key, std::nullopt);
  EXPECT_EQ(messages[1].value, "v");
  EXPECT_EQ(messages[2].key, "");
  EXPECT_EQ(messages[2].value, "");
}

// Poll writes its messages over those of the vector it is given (the runtime's reuse): nothing
// of a stale message survives, and stale messages beyond the new ones are dropped.
TEST(KafkaSourceTest, PollReplacesTheMessagesItIsGiven) {
  std::string topic = test::UniqueTopicName();
  ASSERT_OK(test::CreateTopic(topic, 1));
  ASSERT_OK(test::Produce(
      topic, {test::KafkaMessage("k1", std::nullopt, 0), test::KafkaMessage(std::nullopt, "v", 0),
              test::KafkaMessage("", "", 0)}));
  auto source = OpenSource(BaseConf(topic, "earliest-offset"));
  ASSERT_NE(source, nullptr);
  SourceMessage stale;
  stale.split = "stale-0";
  stale.offset = 99;
  stale.key = "stale key";
  stale.value = "stale value";
  stale.topic = "stale";
  stale.timestamp_type = "stale";
  stale.records.emplace_back();
  stale.commit_point = false;
  stale.fact_database = "d";
  stale.fact_table = "t";
  std::vector<SourceMessage> batch(5, stale);
  const std::vector<std::pair<std::optional<std::string>, std::optional<std::string>>> expected = {
      {"k1", std::nullopt}, {std::nullopt, "v"}, {"", ""}};
  int64_t next = 0;
  auto deadline = std::chrono::steady_clock::now() + 30s;
  while (next < 3 && std::chrono::steady_clock::now() < deadline) {
    ASSERT_OK(source->Poll(200ms, 3, &batch));
    ASSERT_LE(batch.size(), 3u);
    for (const SourceMessage& m : batch) {
      ASSERT_EQ(m.offset, next);
      EXPECT_EQ(m.split, topic + "-0");
      EXPECT_EQ(m.key, expected[next].first);
      EXPECT_EQ(m.value, expected[next].second);
      EXPECT_EQ(m.topic, topic);
      EXPECT_EQ(m.partition, 0);
      EXPECT_EQ(m.timestamp_type, "CreateTime");
      EXPECT_TRUE(m.records.empty());
      EXPECT_TRUE(m.commit_point);
      EXPECT_EQ(m.fact_database, "");
      EXPECT_EQ(m.fact_table, "");
      ++next;
    }
  }
  EXPECT_EQ(next, 3);
  // A poll that finds nothing leaves nothing.
  ASSERT_OK(source->Poll(100ms, 3, &batch));
  EXPECT_TRUE(batch.empty());
}

TEST(KafkaSourceTest, LagFromHighWatermarks) {
  std::string topic = test::UniqueTopicName();
  ASSERT_OK(test::CreateTopic(topic, 2));
  ASSERT_OK(test::ProduceValues(topic, 0, 10));
  auto source = OpenSource(BaseConf(topic, "earliest-offset"));
  ASSERT_NE(source, nullptr);
  std::vector<SplitLag> lag = source->Lag();
  ASSERT_EQ(lag.size(), 2u);
  EXPECT_EQ(lag[0].split, topic + "-0");
  EXPECT_EQ(lag[0].next_offset, 0);
  EXPECT_EQ(lag[0].end_offset, 10);
  EXPECT_EQ(lag[1].next_offset, 0);
  EXPECT_EQ(lag[1].end_offset, 0);

  std::vector<SourceMessage> messages;
  std::vector<SourceMessage> batch;
  auto deadline = std::chrono::steady_clock::now() + 30s;
  while (messages.size() < 4 && std::chrono::steady_clock::now() < deadline) {
    ASSERT_OK(source->Poll(200ms, 4 - messages.size(), &batch));
    messages.insert(messages.end(), batch.begin(), batch.end());
  }
  ASSERT_EQ(messages.size(), 4u);
  lag = source->Lag();
  EXPECT_EQ(lag[0].next_offset, 4);
  EXPECT_EQ(lag[0].end_offset, 10);
}

TEST(KafkaSourceTest, PollWaitsAtMostTheTimeout) {
  std::string topic = test::UniqueTopicName();
  ASSERT_OK(test::CreateTopic(topic, 1));
  auto source = OpenSource(BaseConf(topic, "earliest-offset"));
  ASSERT_NE(source, nullptr);
  std::vector<SourceMessage> messages;
  auto start = std::chrono::steady_clock::now();
  ASSERT_OK(source->Poll(300ms, 10, &messages));
  auto took = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(messages.empty());
  EXPECT_GE(took, 250ms);
  EXPECT_LT(took, 5s);
}

TEST(KafkaSourceTest, UnknownTopicIsNotFound) {
  std::string topic = test::UniqueTopicName("missing");
  ASSERT_OK_AND_ASSIGN(auto source, KafkaSource::Make(BaseConf(topic, "earliest-offset")));
  EXPECT_TRUE(test::HasError(source->Open({}), StatusCode::kNotFound,
                             {topic, "does not exist", test::KafkaBootstrap()}));
}

TEST(KafkaSourceTest, DownBrokerFailsWithinTheRequestTimeout) {
  // Port 1 (tcpmux) has no listener here: every connection is refused.
  Conf conf = {{"properties.bootstrap.servers", "127.0.0.1:1"},
               {"topic", "orders"},
               {"scan.startup.mode", "earliest-offset"},
               {"properties.default.api.timeout.ms", "2000"},
               {"properties.sasl.password", "hunter2"},
               {"properties.ssl.truststore.password", "hunter3"}};
  ASSERT_OK_AND_ASSIGN(auto source, KafkaSource::Make(conf));
  ASSERT_EQ(source->warnings().size(), 1u);
  EXPECT_EQ(source->warnings()[0],
            "kafka_conf properties.ssl.truststore.password is not a librdkafka setting; skipped");
  auto start = std::chrono::steady_clock::now();
  Status st = source->Open({});
  auto took = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(test::HasError(st, StatusCode::kIOError, {"127.0.0.1:1", "orders", "2000 ms"}));
  EXPECT_EQ(st.ToString().find("hunter"), std::string::npos) << st.ToString();
  EXPECT_LT(took, 10s);
}

TEST(KafkaSourceTest, InvalidClientSettingIsAnError) {
  Conf conf = BaseConf("orders", "earliest-offset");
  conf.emplace_back("properties.sasl.password", "hunter2");
  conf.emplace_back("properties.security.protocol", "carrier-pigeon");
  auto made = KafkaSource::Make(conf);
  EXPECT_TRUE(test::HasError(made, StatusCode::kInvalidArgument,
                             {"properties.security.protocol", "carrier-pigeon"}));
  EXPECT_EQ(made.status().ToString().find("hunter2"), std::string::npos);
}

TEST(KafkaSourceTest, CallsBeforeOpen) {
  Conf conf = {{"properties.bootstrap.servers", "127.0.0.1:1"},
               {"topic", "orders"},
               {"scan.startup.mode", "earliest-offset"},
               {"properties.default.api.timeout.ms", "500"}};
  ASSERT_OK_AND_ASSIGN(auto source, KafkaSource::Make(conf));
  EXPECT_TRUE(source->Lag().empty());
  std::vector<SourceMessage> messages;
  EXPECT_TRUE(test::HasError(source->Poll(10ms, 1, &messages), StatusCode::kInvalidArgument,
                             {"Poll before Open"}));
  EXPECT_TRUE(test::HasError(source->CommitGroupOffsets({}), StatusCode::kInvalidArgument,
                             {"before Open"}));
}

}  // namespace
}  // namespace sluice
