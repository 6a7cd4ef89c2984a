// Rescale (table/rescale.h, Java's `rescale` procedure): a fixed-bucket table or one of its
// partitions rewritten into a new bucket count as one OVERWRITE snapshot: the rows stay, the
// rewritten files carry the new `_TOTAL_BUCKETS` with each key in one bucket, other partitions
// keep their files, the snapshot before still reads the old layout, later writes at the old
// bucket count are refused as Java refuses them, and the combinations Java refuses.
#include "sluice/table/rescale.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "sluice/table/table_checker.h"
#include "table/dynamic_bucket_test_util.h"
#include "test_util.h"

namespace sluice {
namespace {

std::vector<DataField> Fields() {
  return {DataField{0, "p", DataType::Int(false), std::nullopt, std::nullopt},
          DataField{1, "k", DataType::BigInt(false), std::nullopt, std::nullopt},
          DataField{2, "v", DataType::String(), std::nullopt, std::nullopt}};
}

std::vector<ValueList> Rows(int32_t p, int64_t from, int64_t to, const std::string& v) {
  std::vector<ValueList> rows;
  for (int64_t k = from; k < to; ++k) {
    rows.push_back({Value::Int32(p), Value::Int64(k), Value::String(v)});
  }
  return rows;
}

// (partition p, bucket) -> `_TOTAL_BUCKETS` of its splits in the latest snapshot.
std::map<std::pair<int32_t, int32_t>, int32_t> Layout(const std::string& path) {
  std::map<std::pair<int32_t, int32_t>, int32_t> out;
  auto table = FileStoreTable::Open(LocalFileIO(), path).value();
  const ScanPlan plan = PlanScan(*table, ScanOptions{}).value();
  for (const DataSplit& split : plan.splits) {
    out[{split.partition_values[0].int32(), split.bucket}] = split.total_buckets;
  }
  return out;
}

std::set<std::string> FileNamesOf(const std::string& path, int32_t p) {
  std::set<std::string> out;
  auto table = FileStoreTable::Open(LocalFileIO(), path).value();
  const ScanPlan plan = PlanScan(*table, ScanOptions{}).value();
  for (const DataSplit& split : plan.splits) {
    if (split.partition_values[0].int32() != p) continue;
    for (const DataFileMeta& f : split.data_files) out.insert(f.file_name);
  }
  return out;
}

class RescaleTest : public ::testing::TestWithParam<std::string> {};

TEST_P(RescaleTest, RewritesOnePartitionIntoNewBucketsInOneOverwrite) {
  test::TempDir dir;
  const std::string path = dir.path() + "/db.db/t";
  auto table = test::CreateTestTable(path, Fields(), {"p"}, {"p", "k"},
                                     {{"bucket", "2"}, {"merge-engine", GetParam()}});
  const DataTypePtr row_type = table->schema().LogicalRowType();
  {
    auto write = test::OpenCompactingWrite(path);
    ASSERT_OK(test::WriteRows(write.get(), row_type, Rows(1, 0, 60, "a"), {}));
    ASSERT_OK(test::WriteRows(write.get(), row_type, Rows(2, 0, 20, "a"), {}));
    ASSERT_OK(test::Commit(path, write.get(), 1));
    ASSERT_OK(test::WriteRows(write.get(), row_type, Rows(1, 40, 80, "b"), {}));
    ASSERT_OK(test::Commit(path, write.get(), 2));
    ASSERT_OK(write->Close());
  }
  const std::vector<std::string> rows = test::ReadAll(path);
  const int64_t before_id = table->SelectSnapshot(TableVersion::Latest()).value()->id;
  const std::set<std::string> p2_files = FileNamesOf(path, 2);

  RescaleOptions options;
  options.bucket = 5;
  options.partition = {{"p", "1"}};
  auto result = Rescale(FileStoreTable::Open(LocalFileIO(), path).value(), options);
  ASSERT_OK(result);
  EXPECT_EQ(result->rows, 80);
  EXPECT_EQ(result->previous_bucket, 2);
  auto latest = table->SelectSnapshot(TableVersion::Latest()).value();
  EXPECT_EQ(latest->id, before_id + 1);
  EXPECT_EQ(latest->commit_kind, CommitKind::kOverwrite);

  EXPECT_EQ(test::ReadAll(path), rows);
  EXPECT_EQ(test::ReadAll(path, LocalFileIO(), TableVersion::SnapshotId(before_id)), rows);
  std::set<int32_t> p1_buckets;
  for (const auto& [where, total] : Layout(path)) {
    EXPECT_EQ(total, where.first == 1 ? 5 : 2) << where.first << "/" << where.second;
    if (where.first == 1) p1_buckets.insert(where.second);
  }
  EXPECT_GT(p1_buckets.size(), 2u);
  EXPECT_EQ(FileNamesOf(path, 2), p2_files);
  for (const auto& [key, buckets] : test::BucketsOfKeys(path)) {
    EXPECT_EQ(buckets.size(), 1u) << key.first << "/" << key.second;
  }
  ASSERT_OK(CheckTable(*FileStoreTable::Open(LocalFileIO(), path).value()));

  // The table still says bucket = 2: p = 2 takes writes, p = 1 refuses them (Java
  // scanExistingFileMetas); with `bucket` = 5 p = 1 takes them.
  {
    auto write = test::OpenCompactingWrite(path);
    ASSERT_OK(test::WriteRows(write.get(), row_type, Rows(2, 0, 5, "c"), {}));
    EXPECT_TRUE(test::HasError(test::WriteRows(write.get(), row_type, Rows(1, 0, 5, "c"), {}),
                               StatusCode::kInvalidArgument,
                               {"new bucket num 2", "previous bucket num is 5", "rescale"}));
    ASSERT_OK(write->Close());
  }
  {
    auto five = FileStoreTable::Open(LocalFileIO(), path, kMainBranch, {{"bucket", "5"}}).value();
    auto write = FileStoreWrite::Open(five).value();
    ASSERT_OK(test::WriteRows(write.get(), row_type, Rows(1, 0, 5, "d"), {}));
    ASSERT_OK(test::Commit(path, write.get(), 3));
    ASSERT_OK(write->Close());
  }
  EXPECT_EQ(test::ReadAll(path).size(), rows.size());
}

INSTANTIATE_TEST_SUITE_P(MergeEngines, RescaleTest,
                         ::testing::Values("deduplicate", "first-row", "partial-update"));

TEST(RescaleTableTest, WholeTableAndTheCombinationsJavaRefuses) {
  test::TempDir dir;
  const std::string path = dir.path() + "/db.db/t";
  auto table = test::CreateTestTable(path, Fields(), {"p"}, {"p", "k"}, {{"bucket", "3"}});
  const DataTypePtr row_type = table->schema().LogicalRowType();
  RescaleOptions options;
  options.bucket = 2;
  EXPECT_TRUE(test::HasError(Rescale(table, options), StatusCode::kInvalidArgument,
                             {"no snapshot", "No need to rescale"}));
  {
    auto write = test::OpenCompactingWrite(path);
    ASSERT_OK(test::WriteRows(write.get(), row_type, Rows(1, 0, 30, "a"), {}));
    ASSERT_OK(test::WriteRows(write.get(), row_type, Rows(2, 0, 30, "a"), {}));
    ASSERT_OK(test::Commit(path, write.get(), 1));
    ASSERT_OK(write->Close());
  }
  const std::vector<std::string> rows = test::ReadAll(path);
  options.bucket = 0;
  EXPECT_TRUE(
      test::HasError(Rescale(table, options), StatusCode::kInvalidArgument, {"at least 1", "0"}));
  options.bucket = 2;
  options.partition = {{"p", "9"}};
  EXPECT_TRUE(test::HasError(Rescale(table, options), StatusCode::kInvalidArgument,
                             {"p=9", "does not have any data files"}));
  options.partition = {};
  auto result = Rescale(table, options);
  ASSERT_OK(result);
  EXPECT_EQ(result->rows, 60);
  EXPECT_EQ(test::ReadAll(path), rows);
  for (const auto& [where, total] : Layout(path)) EXPECT_EQ(total, 2);

  const std::string dynamic_path = dir.path() + "/db.db/d";
  auto dynamic = test::CreateDynamicBucketTable(dynamic_path, {});
  EXPECT_TRUE(test::HasError(Rescale(dynamic, options), StatusCode::kInvalidArgument,
                             {"bucket = -1", "fixed-bucket"}));
}

}  // namespace
}  // namespace sluice
