#include "sluice/cdc/kafka/kafka_source_options.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace sluice {
namespace {

using Conf = std::vector<std::pair<std::string, std::string>>;

Conf Base() {
  return {{"properties.bootstrap.servers", "broker:9092"},
          {"topic", "orders"},
          {"properties.group.id", "g"}};
}

TEST(KafkaSourceOptionsTest, Defaults) {
  ASSERT_OK_AND_ASSIGN(KafkaSourceOptions options, KafkaSourceOptions::Parse(Base()));
  EXPECT_EQ(options.bootstrap_servers, "broker:9092");
  EXPECT_EQ(options.topics, std::vector<std::string>{"orders"});
  EXPECT_EQ(options.group_id, "g");
  EXPECT_EQ(options.startup_mode, KafkaStartupMode::kGroupOffsets);
  EXPECT_EQ(options.offset_reset, KafkaOffsetReset::kEarliest);
  EXPECT_EQ(options.request_timeout, std::chrono::milliseconds(20000));
  EXPECT_EQ(options.discovery_interval, std::chrono::milliseconds(10000));
  EXPECT_TRUE(options.client_properties.empty());
}

TEST(KafkaSourceOptionsTest, TopicsAndClientProperties) {
  Conf conf = {{"properties.bootstrap.servers", "b:1"},
               {"topic", " a ;b;; c "},
               {"scan.startup.mode", "earliest-offset"},
               {"value.format", "canal-json"},
               {"properties.client.id", "me"},
               {"properties.enable.auto.commit", "true"},
               {"properties.default.api.timeout.ms", "1500"},
               {"properties.auto.offset.reset", "latest"},
               {"scan.topic-partition-discovery.interval", "2 min"}};
  ASSERT_OK_AND_ASSIGN(KafkaSourceOptions options, KafkaSourceOptions::Parse(conf));
  EXPECT_EQ(options.topics, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(options.startup_mode, KafkaStartupMode::kEarliest);
  EXPECT_EQ(options.request_timeout, std::chrono::milliseconds(1500));
  EXPECT_EQ(options.discovery_interval, std::chrono::minutes(2));
  EXPECT_EQ(options.offset_reset, KafkaOffsetReset::kLatest);
  // enable.auto.commit is the source's own business.
  EXPECT_EQ(options.client_properties,
            (std::vector<std::pair<std::string, std::string>>{{"client.id", "me"}}));
}

TEST(KafkaSourceOptionsTest, JaasConfigBecomesSaslCredentials) {
  Conf conf = Base();
  conf.emplace_back("properties.sasl.jaas.config",
                    "org.apache.kafka.common.security.plain.PlainLoginModule required "
                    "username=\"alice\" password=\"s3cret\";");
  ASSERT_OK_AND_ASSIGN(KafkaSourceOptions options, KafkaSourceOptions::Parse(conf));
  EXPECT_EQ(options.client_properties,
            (std::vector<std::pair<std::string, std::string>>{{"sasl.username", "alice"},
                                                              {"sasl.password", "s3cret"}}));
}

TEST(KafkaSourceOptionsTest, StartupModes) {
  Conf conf = Base();
  conf.emplace_back("scan.startup.mode", "timestamp");
  conf.emplace_back("scan.startup.timestamp-millis", "1700000000000");
  ASSERT_OK_AND_ASSIGN(KafkaSourceOptions options, KafkaSourceOptions::Parse(conf));
  EXPECT_EQ(options.startup_mode, KafkaStartupMode::kTimestamp);
  EXPECT_EQ(options.startup_timestamp_ms, 1700000000000);

  conf = Base();
  conf.emplace_back("scan.startup.mode", "specific-offsets");
  conf.emplace_back("scan.startup.specific-offsets", "partition:0,offset:42;partition:3,offset:7");
  ASSERT_OK_AND_ASSIGN(options, KafkaSourceOptions::Parse(conf));
  EXPECT_EQ(options.startup_mode, KafkaStartupMode::kSpecificOffsets);
  EXPECT_EQ(options.specific_offsets, (std::map<int32_t, int64_t>{{0, 42}, {3, 7}}));
  EXPECT_STREQ(KafkaStartupModeName(options.startup_mode), "specific-offsets");

  conf = Base();
  conf.emplace_back("scan.startup.mode", "latest-offset");
  ASSERT_OK_AND_ASSIGN(options, KafkaSourceOptions::Parse(conf));
  EXPECT_EQ(options.startup_mode, KafkaStartupMode::kLatest);
}

TEST(KafkaSourceOptionsTest, SpecificOffsetsSyntax) {
  ASSERT_OK_AND_ASSIGN(
      auto offsets, ParseKafkaSpecificOffsets(" partition:1 , offset:300 ;partition:0,offset:0;"));
  EXPECT_EQ(offsets, (std::map<int32_t, int64_t>{{0, 0}, {1, 300}}));
  for (const char* bad : {"", "partition:0", "partition:0,offset:x", "offset:1,partition:0",
                          "partition:-1,offset:3", "partition:0,offset:1,extra:2"}) {
    EXPECT_TRUE(test::HasError(ParseKafkaSpecificOffsets(bad), StatusCode::kInvalidArgument,
                               {"scan.startup.specific-offsets", "partition:0,offset:42"}))
        << bad;
  }
}

TEST(KafkaSourceOptionsTest, Errors) {
  auto parse = [](Conf conf) { return KafkaSourceOptions::Parse(conf); };
  EXPECT_TRUE(test::HasError(parse({{"topic", "t"}}), StatusCode::kInvalidArgument,
                             {"properties.bootstrap.servers"}));
  EXPECT_TRUE(test::HasError(parse({{"properties.bootstrap.servers", "b:1"}}),
                             StatusCode::kInvalidArgument, {"topic", "topic-pattern"}));
  EXPECT_TRUE(test::HasError(
      parse({{"properties.bootstrap.servers", "b:1"}, {"topic", "t"}, {"topic-pattern", "t.*"}}),
      StatusCode::kInvalidArgument, {"exactly one"}));
  EXPECT_TRUE(test::HasError(parse({{"properties.bootstrap.servers", "b:1"},
                                    {"topic-pattern", "t(["},
                                    {"scan.startup.mode", "earliest-offset"}}),
                             StatusCode::kInvalidArgument,
                             {"topic-pattern", "regular expression"}));
  EXPECT_TRUE(test::HasError(parse({{"properties.bootstrap.servers", "b:1"}, {"topic", "t"}}),
                             StatusCode::kInvalidArgument,
                             {"group-offsets", "properties.group.id"}));
  Conf conf = Base();
  conf.emplace_back("scan.startup.mode", "earliest");
  EXPECT_TRUE(test::HasError(parse(conf), StatusCode::kInvalidArgument,
                             {"scan.startup.mode='earliest'", "earliest-offset"}));
  conf = Base();
  conf.emplace_back("scan.startup.mode", "timestamp");
  EXPECT_TRUE(
      test::HasError(parse(conf), StatusCode::kInvalidArgument, {"scan.startup.timestamp-millis"}));
  conf.emplace_back("scan.startup.timestamp-millis", "yesterday");
  EXPECT_TRUE(test::HasError(parse(conf), StatusCode::kInvalidArgument,
                             {"scan.startup.timestamp-millis='yesterday'"}));
  conf = Base();
  conf.emplace_back("scan.startup.mode", "specific-offsets");
  EXPECT_TRUE(
      test::HasError(parse(conf), StatusCode::kInvalidArgument, {"scan.startup.specific-offsets"}));
  conf = Base();
  conf.emplace_back("properties.auto.offset.reset", "sometimes");
  EXPECT_TRUE(test::HasError(parse(conf), StatusCode::kInvalidArgument,
                             {"auto.offset.reset", "earliest, latest or none"}));
  conf = Base();
  conf.emplace_back("scan.topic-partition-discovery.interval", "5 fortnights");
  EXPECT_TRUE(test::HasError(parse(conf), StatusCode::kInvalidArgument, {"fortnights"}));
}

}  // namespace
}  // namespace sluice
