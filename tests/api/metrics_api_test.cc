// Metrics through the public API (metrics.h, docs/metrics.md): a registry handed to a write,
// its commits and a scan holds the figures of what the test did: files and records committed,
// snapshots by kind, level-0 files before and after a full compaction, compactions run, the
// write buffer's budget, snapshots expired, files a scan planned.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "api/api_test_util.h"
#include "sluice/catalog.h"
#include "sluice/metrics.h"
#include "sluice/read_builder.h"
#include "sluice/write_builder.h"
#include "test_util.h"
#include "types/field_util.h"

namespace sluice {
namespace {

using test::Field;

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

const std::string kTable = "{job=\"j\",database=\"db\",table=\"pk\"";

std::string Series(const std::string& name, const std::string& extra = "") {
  return name + kTable + extra + "}";
}

class MetricsApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Catalog catalog = Catalog::Filesystem(dir_.path());
    ASSERT_OK(catalog.CreateDatabase("db"));
    NewTableSpec spec;
    spec.columns = {Field(0, "id", DataType::BigInt(false)), Field(1, "v", DataType::String())};
    spec.primary_keys = {"id"};
    // One bucket, no compaction before the test asks for one, two snapshots kept.
    spec.options = {{"bucket", "1"},
                    {"num-sorted-run.compaction-trigger", "10"},
                    {"write-buffer-size", "1 mb"},
                    {"snapshot.num-retained.min", "1"},
                    {"snapshot.num-retained.max", "2"}};
    ASSERT_OK(catalog.CreateTable("db.pk", spec));
    auto table = catalog.GetTable("db.pk");
    ASSERT_OK(table);
    table_.emplace(*table);
    metrics_.SetConstantLabel("job", "j");
  }

  ColumnBatch Rows(int64_t from, int64_t count) {
    ColumnBatch batch(table_->row_type());
    for (int64_t id = from; id < from + count; ++id) {
      EXPECT_OK(batch.AppendRow({Value::Int64(id), Value::String("v")}));
    }
    return batch;
  }

  test::TempDir dir_;
  std::optional<Table> table_;
  MetricRegistry metrics_;
};

TEST_F(MetricsApiTest, WriteCommitCompactionAndScanReportWhatTheyDid) {
  WriteBuilder builder = table_->NewWriteBuilder();
  builder.WithMetricRegistry(&metrics_);
  auto write = builder.NewWrite();
  ASSERT_OK(write);
  auto commit = builder.NewCommit();
  ASSERT_OK(commit);
  // Three commits of 10 rows each: three level-0 files in bucket 0.
  for (int64_t i = 0; i < 3; ++i) {
    ASSERT_OK((*write)->Write(Rows(i * 10, 10)));
    auto messages = (*write)->PrepareCommit(i);
    ASSERT_OK(messages);
    ASSERT_OK((*commit)->Commit(std::move(*messages), i));
  }
  std::string text = metrics_.PrometheusText();
  EXPECT_EQ(Sample(text, Series("paimon_commit_commits_total", ",kind=\"append\"")), 3);
  EXPECT_EQ(Sample(text, Series("paimon_commit_deltaRecordsAppended_total")), 30);
  EXPECT_EQ(Sample(text, Series("paimon_commit_tableFilesAdded_total")), 3);
  EXPECT_EQ(Sample(text, Series("paimon_commit_lastTableFilesAdded")), 1);
  EXPECT_EQ(Sample(text, Series("paimon_commit_lastTableFilesAppended")), 1);
  EXPECT_EQ(Sample(text, Series("paimon_commit_lastDeltaRecordsAppended")), 10);
  EXPECT_EQ(Sample(text, Series("paimon_commit_lastGeneratedSnapshots")), 1);
  EXPECT_EQ(Sample(text, Series("paimon_commit_lastCommitAttempts")), 1);
  EXPECT_EQ(Sample(text, Series("paimon_commit_lastBucketsWritten")), 1);
  EXPECT_EQ(Sample(text, Series("paimon_commit_lastPartitionsWritten")), 1);
  EXPECT_EQ(Sample(text, Series("paimon_commit_commitDuration_count")), 3);
  EXPECT_EQ(Sample(text, Series("paimon_compaction_level0FileCount", ",bucket=\"0\"")), 3);
  EXPECT_EQ(Sample(text, Series("paimon_compaction_maxLevel0FileCount")), 3);
  EXPECT_EQ(Sample(text, Series("paimon_compaction_compactionCompletedCount")), 0);
  EXPECT_EQ(Sample(text, Series("paimon_writerBuffer_totalWriteBufferSizeByte")), 1 << 20);
  EXPECT_EQ(Sample(text, Series("paimon_writerBuffer_numWriters")), 1);
  // Snapshot 3 left 2 and 3.
  EXPECT_EQ(Sample(text, Series("paimon_expire_snapshotsExpired_total")), 1);

  // A full compaction rewrites the three files into one above level 0.
  ASSERT_OK((*write)->Compact({}, /*full=*/true));
  auto messages = (*write)->PrepareCommit(3, /*wait_compaction=*/true);
  ASSERT_OK(messages);
  ASSERT_OK((*commit)->Commit(std::move(*messages), 3));
  text = metrics_.PrometheusText();
  EXPECT_EQ(Sample(text, Series("paimon_commit_commits_total", ",kind=\"compact\"")), 1);
  EXPECT_EQ(Sample(text, Series("paimon_commit_lastTableFilesCommitCompacted")), 4);
  EXPECT_EQ(Sample(text, Series("paimon_commit_lastTableFilesDeleted")), 3);
  EXPECT_EQ(Sample(text, Series("paimon_commit_lastTableFilesAdded")), 1);
  EXPECT_EQ(Sample(text, Series("paimon_commit_lastDeltaRecordsCommitCompacted")), 60);
  EXPECT_GT(Sample(text, Series("paimon_commit_lastCompactionInputFileSize")), 0);
  EXPECT_EQ(Sample(text, Series("paimon_compaction_compactionCompletedCount")), 1);
  EXPECT_EQ(Sample(text, Series("paimon_compaction_compactionTotalCount")), 1);
  EXPECT_EQ(Sample(text, Series("paimon_compaction_compactionQueuedCount")), 0);
  EXPECT_EQ(Sample(text, Series("paimon_compaction_level0FileCount", ",bucket=\"0\"")), 0);
  EXPECT_GT(Sample(text, Series("paimon_compaction_maxCompactionInputSize")), 0);
  EXPECT_GT(Sample(text, Series("paimon_compaction_totalFileSize", ",bucket=\"0\"")), 0);
  EXPECT_EQ(Sample(text, Series("paimon_expire_snapshotsExpired_total")), 2);
  ASSERT_OK((*write)->Close());

  // A scan of snapshot 4 plans the one compacted file.
  ReadBuilder read = table_->NewReadBuilder();
  read.WithMetricRegistry(&metrics_);
  auto plan = test::PlanOf(read);
  ASSERT_OK(plan);
  text = metrics_.PrometheusText();
  EXPECT_EQ(Sample(text, Series("paimon_scan_scans_total")), 1);
  EXPECT_EQ(Sample(text, Series("paimon_scan_lastScannedSnapshotId")), 4);
  EXPECT_EQ(Sample(text, Series("paimon_scan_lastScanResultedTableFiles")), 1);
  EXPECT_GE(Sample(text, Series("paimon_scan_lastScannedManifests")), 1);
  EXPECT_EQ(Sample(text, Series("paimon_scan_scanDuration_count")), 1);
}

TEST_F(MetricsApiTest, BackgroundCompactionsAreCounted) {
  WriteBuilder builder = table_->NewWriteBuilder();
  builder.WithMetricRegistry(&metrics_).WithBackgroundCompaction(true).WithOption(
      "num-sorted-run.compaction-trigger", "2");
  auto write = builder.NewWrite();
  ASSERT_OK(write);
  auto commit = builder.NewCommit();
  ASSERT_OK(commit);
  for (int64_t i = 0; i < 4; ++i) {
    ASSERT_OK((*write)->Write(Rows(i * 10, 10)));
    auto messages = (*write)->PrepareCommit(i, /*wait_compaction=*/true);
    ASSERT_OK(messages);
    ASSERT_OK((*commit)->Commit(std::move(*messages), i));
  }
  ASSERT_OK((*write)->Close());
  const std::string text = metrics_.PrometheusText();
  const double completed = Sample(text, Series("paimon_compaction_compactionCompletedCount"));
  EXPECT_GE(completed, 1);
  EXPECT_EQ(Sample(text, Series("paimon_compaction_compactionTotalCount")), completed);
  EXPECT_EQ(Sample(text, Series("paimon_compaction_compactionQueuedCount")), 0);
  // Each commit takes the compactions finished before it: one COMPACT snapshot for one or more.
  const double compact_snapshots =
      Sample(text, Series("paimon_commit_commits_total", ",kind=\"compact\""));
  EXPECT_GE(compact_snapshots, 1);
  EXPECT_LE(compact_snapshots, completed);
  EXPECT_GT(Sample(text, Series("paimon_compaction_avgCompactionTime")), 0);
}

// A table whose writes all closed shows 0 in its writer-buffer series (a sync closes an idle
// table's writers; the dashboard shows 0 rather than nothing).
TEST_F(MetricsApiTest, ClosedWritesLeaveTheWriterSeriesAtZero) {
  {
    WriteBuilder builder = table_->NewWriteBuilder();
    builder.WithMetricRegistry(&metrics_);
    auto write = builder.NewWrite();
    ASSERT_OK(write);
    ASSERT_OK((*write)->Write(Rows(0, 5)));
    EXPECT_GT(
        Sample(metrics_.PrometheusText(), Series("paimon_writerBuffer_usedWriteBufferSizeByte")),
        0);
    ASSERT_OK((*write)->Close());
  }
  std::string text = metrics_.PrometheusText();
  for (const char* name :
       {"paimon_writerBuffer_numWriters", "paimon_writerBuffer_usedWriteBufferSizeByte",
        "paimon_writerBuffer_totalWriteBufferSizeByte", "paimon_writerBuffer_bufferPreemptCount"}) {
    EXPECT_EQ(Sample(text, Series(name)), 0) << name << "\n" << text;
  }
  // The table's compaction group stays, over no bucket: Java's -1.
  EXPECT_EQ(Sample(text, Series("paimon_compaction_maxLevel0FileCount")), -1);
}

}  // namespace
}  // namespace sluice
