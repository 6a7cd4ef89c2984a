// The source metrics of a Kafka sync job against the real broker (docs/metrics.md,
// source_metrics.h): messages in and records out, each split's offset and pending messages,
// the fetch lag from the messages' timestamps, and the table's commit metrics, all agreeing
// with the messages the test produced.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "kafka_test_util.h"
#include "sluice/base/metric_registry_impl.h"
#include "sluice/cdc/kafka_sync_action.h"
#include "test_util.h"

namespace sluice {
namespace {

// The value of the sample `series` (name and labels as rendered) in `text`; NaN when missing.
double Sample(const std::string& text, const std::string& series) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.size() > series.size() && line.compare(0, series.size(), series) == 0 &&
        line[series.size()] == ' ') {
      return std::stod(line.substr(series.size() + 1));
    }
  }
  ADD_FAILURE() << "no sample " << series << " in\n" << text;
  return std::nan("");
}

TEST(KafkaSyncMetricsTest, SourceMetricsAgreeWithTheMessagesSent) {
  const std::string topic = test::UniqueTopicName("metrics");
  ASSERT_OK(test::CreateTopic(topic, 2));
  // Five messages in partition 0 and three in partition 1, stamped a minute ago.
  const int64_t minute_ago = std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::system_clock::now().time_since_epoch())
                                 .count() -
                             60000;
  std::vector<test::KafkaTestMessage> messages;
  for (int i = 0; i < 8; ++i) {
    messages.push_back(test::KafkaMessage("k" + std::to_string(i),
                                          R"({"id": )" + std::to_string(i) + R"(, "v": "x"})",
                                          i < 5 ? 0 : 1, minute_ago));
  }
  ASSERT_OK(test::Produce(topic, messages));

  test::TempDir warehouse;
  MetricRegistryImpl registry;  // outlives the job, which reports into it
  registry.SetConstantLabel("job", "sync");
  auto job = NewKafkaSyncJob(
      "kafka_sync_table",
      {"--warehouse", warehouse.path(), "--database", "db", "--table", "t", "--primary_keys", "id",
       "--kafka_conf", "properties.bootstrap.servers=" + test::KafkaBootstrap(), "--kafka_conf",
       "topic=" + topic, "--kafka_conf", "value.format=json", "--kafka_conf",
       "scan.startup.mode=earliest-offset", "--stop_at_end", "true"},
      {});
  ASSERT_OK(job);
  (*job)->WithMetricRegistry(&registry);
  std::atomic<bool> stop{false};
  ASSERT_OK((*job)->Run(stop));

  const std::string text = registry.PrometheusText();
  EXPECT_EQ(Sample(text, "paimon_source_numRecordsIn{job=\"sync\"}"), 8);
  EXPECT_EQ(Sample(text, "paimon_source_numRecordsOut{job=\"sync\"}"), 8);
  EXPECT_EQ(Sample(text, "paimon_source_numTables{job=\"sync\"}"), 1);
  EXPECT_GE(Sample(text, "paimon_source_commitRounds_total{job=\"sync\"}"), 1);
  EXPECT_EQ(Sample(text, "paimon_source_deadLetters_total{job=\"sync\"}"), 0);
  EXPECT_EQ(Sample(text, "paimon_source_currentOffset{job=\"sync\",split=\"" + topic + "-0\"}"), 5);
  EXPECT_EQ(Sample(text, "paimon_source_currentOffset{job=\"sync\",split=\"" + topic + "-1\"}"), 3);
  EXPECT_EQ(Sample(text, "paimon_source_pendingRecords{job=\"sync\",split=\"" + topic + "-0\"}"),
            0);
  EXPECT_EQ(Sample(text, "paimon_source_pendingRecords{job=\"sync\",split=\"\"}"), 0);
  // Fetched at least a minute after the messages' time, and well within the test's run.
  const double lag = Sample(text, "paimon_source_currentFetchEventTimeLag{job=\"sync\"}");
  EXPECT_GE(lag, 60000);
  EXPECT_LT(lag, 60000 + 120000);
  EXPECT_GE(Sample(text, "paimon_source_sourceIdleTime{job=\"sync\"}"), 0);
  // The table's own metrics reach the same registry.
  EXPECT_EQ(Sample(text,
                   "paimon_commit_deltaRecordsAppended_total{job=\"sync\",database=\"db\","
                   "table=\"t\"}"),
            8);
  EXPECT_GE(Sample(text,
                   "paimon_commit_commits_total{job=\"sync\",database=\"db\",table=\"t\","
                   "kind=\"append\"}"),
            1);
  ASSERT_OK(test::DeleteTopic(topic));
}

}  // namespace
}  // namespace sluice
