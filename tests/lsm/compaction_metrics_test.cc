#include "sluice/lsm/compaction_metrics.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace sluice {
namespace {

// Occurrences of `needle` in `text`.
size_t Count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

TEST(CompactionMetricsTest, BucketLabelsAreBoundedAndAggregatesCoverEveryBucket) {
  MetricRegistryImpl registry;
  MetricGroup table = registry.Group({{"database", "db"}, {"table", "t"}});
  auto metrics = CompactionMetrics::Of(table);
  EXPECT_EQ(metrics, CompactionMetrics::Of(table));  // one per table and registry
  std::vector<std::unique_ptr<CompactionMetrics::Reporter>> reporters;
  // Buckets 0..39, each in two partitions; bucket b holds b level-0 files in one partition and
  // 1 in the other.
  for (int32_t bucket = 0; bucket < 40; ++bucket) {
    for (int64_t level0 : {int64_t{bucket}, int64_t{1}}) {
      reporters.push_back(metrics->CreateReporter(bucket));
      reporters.back()->ReportLevel0FileCount(level0);
      reporters.back()->ReportTotalFileSize(100);
    }
  }
  std::string text = registry.PrometheusText();
  EXPECT_EQ(Count(text, "paimon_compaction_level0FileCount{"),
            static_cast<size_t>(CompactionMetrics::kLabelledBuckets));
  EXPECT_EQ(Count(text, "paimon_compaction_totalFileSize{"),
            static_cast<size_t>(CompactionMetrics::kLabelledBuckets));
  EXPECT_NE(
      text.find("paimon_compaction_level0FileCount{database=\"db\",table=\"t\",bucket=\"15\"} "
                "15\n"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("paimon_compaction_level0FileCount{database=\"db\",table=\"t\",bucket=\"0\"} "
                      "1\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("bucket=\"16\""), std::string::npos) << text;
  // Max and mean over all 80 reporters: max 39, mean (0+..+39 + 40) / 80 = 10.25.
  EXPECT_NE(text.find("paimon_compaction_maxLevel0FileCount{database=\"db\",table=\"t\"} 39\n"),
            std::string::npos);
  EXPECT_NE(text.find("paimon_compaction_avgLevel0FileCount{database=\"db\",table=\"t\"} 10.25\n"),
            std::string::npos);
  // Unregistered reporters leave the figures; none left: Java's -1.
  reporters.clear();
  text = registry.PrometheusText();
  EXPECT_NE(text.find("paimon_compaction_maxLevel0FileCount{database=\"db\",table=\"t\"} -1\n"),
            std::string::npos);
  EXPECT_NE(text.find("paimon_compaction_level0FileCount{database=\"db\",table=\"t\",bucket=\"3\"} "
                      "-1\n"),
            std::string::npos);
}

TEST(CompactionMetricsTest, CountsCompactionsAndTheirSizes) {
  MetricRegistryImpl registry;
  auto metrics = CompactionMetrics::Of(registry.Group({{"table", "t"}}));
  auto reporter = metrics->CreateReporter(0);
  reporter->CompactionQueued();
  reporter->CompactionQueued();
  auto start = reporter->CompactionStarted();
  reporter->CompactionFinished(start, /*ok=*/true, 300, 200);
  start = reporter->CompactionStarted();
  reporter->CompactionFinished(start, /*ok=*/false, 0, 0);
  const std::string text = registry.PrometheusText();
  EXPECT_NE(text.find("paimon_compaction_compactionTotalCount{table=\"t\"} 2\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("paimon_compaction_compactionCompletedCount{table=\"t\"} 1\n"),
            std::string::npos);
  EXPECT_NE(text.find("paimon_compaction_compactionQueuedCount{table=\"t\"} 0\n"),
            std::string::npos);
  EXPECT_NE(text.find("paimon_compaction_maxCompactionInputSize{table=\"t\"} 300\n"),
            std::string::npos);
  EXPECT_NE(text.find("paimon_compaction_avgCompactionOutputSize{table=\"t\"} 200\n"),
            std::string::npos);
}

}  // namespace
}  // namespace sluice
