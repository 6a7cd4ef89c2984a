// Postpone-bucket primary-key tables (`bucket` = -2, Java BucketMode.POSTPONE_MODE): rows land in
// `bucket-postpone` as Java writes them (avro key-value files at level 0, sequence number -1,
// `data--u-<user>-s-<writer>-w-` names, `_TOTAL_BUCKETS` -2), invisible to batch reads until a
// compaction replays them into real buckets (`postpone.default-bucket-num` of them for a new
// partition, the partition's own count after) as one COMPACT snapshot; merge engines, deletes
// and sequence.field as in fixed buckets; first-row refuses a retraction at write time.
#include <gtest/gtest.h>

#include <filesystem>
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
          DataField{2, "v", DataType::BigInt(), std::nullopt, std::nullopt}};
}

std::unique_ptr<FileStoreWrite> OpenWrite(const std::string& path, const std::string& user) {
  FileStoreWriteOptions options;
  options.commit_user = user;
  auto write = FileStoreWrite::Open(FileStoreTable::Open(LocalFileIO(), path).value(), options);
  EXPECT_OK(write);
  return std::move(write).value();
}

Status CompactAll(const std::string& path, int64_t identifier) {
  SLUICE_ASSIGN_OR_RETURN(auto table, FileStoreTable::Open(LocalFileIO(), path));
  auto write = OpenWrite(path, "compactor");
  ScanOptions scan;
  scan.bucket = kPostponeBucket;
  SLUICE_ASSIGN_OR_RETURN(ScanPlan plan, PlanScan(*table, scan));
  for (const DataSplit& split : plan.splits) {
    SLUICE_RETURN_NOT_OK(write->Compact(split.partition, split.bucket, false));
  }
  SLUICE_RETURN_NOT_OK(test::CommitAs(path, "compactor", write.get(), identifier));
  return write->Close();
}

// (p, k) -> v as the latest snapshot reads, and the buckets each key is read from.
std::map<std::pair<int32_t, int64_t>, int64_t> Rows(const std::string& path) {
  std::map<std::pair<int32_t, int64_t>, int64_t> out;
  auto table = FileStoreTable::Open(LocalFileIO(), path).value();
  const ScanPlan plan = PlanScan(*table, ScanOptions{}).value();
  for (const DataSplit& split : plan.splits) {
    EXPECT_GE(split.bucket, 0);
    auto reader = OpenSplitReader(*table, table->schema_ptr(), split, SplitReadOptions{}).value();
    ColumnBatch batch(reader->output_type());
    while (reader->Next(&batch).value()) {
      for (int64_t i = 0; i < batch.num_rows(); ++i) {
        const ValueList row = batch.GetRow(i).list();
        out[{row[0].int32(), row[1].int64()}] = row[2].is_null() ? -1 : row[2].int64();
      }
    }
  }
  return out;
}

Status WriteKv(FileStoreWrite* write, const DataTypePtr& type,
               const std::vector<std::tuple<int32_t, int64_t, int64_t, RowKind>>& rows) {
  std::vector<ValueList> values;
  std::vector<RowKind> kinds;
  for (const auto& [p, k, v, kind] : rows) {
    values.push_back({Value::Int32(p), Value::Int64(k), Value::Int64(v)});
    kinds.push_back(kind);
  }
  return test::WriteRows(write, type, values, kinds);
}

constexpr RowKind kI = RowKind::kInsert;
constexpr RowKind kD = RowKind::kDelete;

TEST(PostponeBucketTest, RowsWaitInThePostponeBucketUntilCompactionReplaysThem) {
  test::TempDir dir;
  const std::string path = dir.path() + "/db.db/t";
  auto table = test::CreateTestTable(path, Fields(), {"p"}, {"p", "k"},
                                     {{"bucket", "-2"}, {"postpone.default-bucket-num", "2"}});
  const DataTypePtr type = table->schema().LogicalRowType();
  std::map<std::pair<int32_t, int64_t>, int64_t> model;
  {
    auto write = OpenWrite(path, "writer-a");
    std::vector<std::tuple<int32_t, int64_t, int64_t, RowKind>> rows;
    for (int64_t k = 0; k < 40; ++k) rows.emplace_back(static_cast<int32_t>(k % 2), k, k, kI);
    rows.emplace_back(0, 2, 200, kI);  // a later version of a key in the same file
    rows.emplace_back(1, 3, 0, kD);
    ASSERT_OK(WriteKv(write.get(), type, rows));
    ASSERT_OK(test::CommitAs(path, "writer-a", write.get(), 1));
    ASSERT_OK(write->Close());
  }
  for (int64_t k = 0; k < 40; ++k) model[{static_cast<int32_t>(k % 2), k}] = k;
  model[{0, 2}] = 200;
  model.erase({1, 3});

  // Java's postpone layout, invisible to batch reads.
  std::vector<DataFileMeta> postpone_files;
  {
    ScanOptions scan;
    scan.bucket = kPostponeBucket;
    const ScanPlan plan = PlanScan(*table, scan).value();
    for (const DataSplit& split : plan.splits) {
      EXPECT_EQ(split.total_buckets, -2);
      EXPECT_NE(split.bucket_path.find("/bucket-postpone"), std::string::npos) << split.bucket_path;
      for (const DataFileMeta& f : split.data_files) {
        postpone_files.push_back(f);
        EXPECT_EQ(f.file_name.rfind("data--u-writer-a-s-", 0), 0u) << f.file_name;
        EXPECT_NE(f.file_name.find("-w-"), std::string::npos) << f.file_name;
        EXPECT_EQ(f.file_name.substr(f.file_name.size() - 5), ".avro") << f.file_name;
        EXPECT_EQ(f.level, 0);
        EXPECT_EQ(f.min_sequence_number, -1);
        EXPECT_EQ(f.max_sequence_number, -1);
      }
    }
  }
  ASSERT_EQ(postpone_files.size(), 2u);  // one per partition
  EXPECT_TRUE(Rows(path).empty());
  ASSERT_OK(CheckTable(*FileStoreTable::Open(LocalFileIO(), path).value()));

  ASSERT_OK(CompactAll(path, 1));
  auto latest = table->SelectSnapshot(TableVersion::Latest()).value();
  EXPECT_EQ(latest->commit_kind, CommitKind::kCompact);
  EXPECT_EQ(Rows(path), model);
  for (const auto& [key, buckets] : test::BucketsOfKeys(path)) {
    EXPECT_EQ(buckets.size(), 1u) << key.first << "/" << key.second;
    EXPECT_LT(*buckets.begin(), 2);
  }
  {
    ScanOptions scan;
    scan.bucket = kPostponeBucket;
    EXPECT_TRUE(PlanScan(*table, scan).value().splits.empty());
  }
  ASSERT_OK(CheckTable(*FileStoreTable::Open(LocalFileIO(), path).value()));

  // A second round: two writers' files replayed in creation order; partition 0 keeps its two
  // buckets although the default is now 3, partition 5 (new) gets 3.
  {
    auto first = OpenWrite(path, "writer-b");
    ASSERT_OK(WriteKv(first.get(), type, {{0, 1, 10, kI}, {0, 4, 0, kD}, {5, 1, 1, kI}}));
    ASSERT_OK(test::CommitAs(path, "writer-b", first.get(), 2));
    ASSERT_OK(first->Close());
    auto second = OpenWrite(path, "writer-c");
    ASSERT_OK(WriteKv(second.get(), type, {{0, 1, 11, kI}, {5, 1, 2, kI}, {5, 2, 2, kI}}));
    ASSERT_OK(test::CommitAs(path, "writer-c", second.get(), 3));
    ASSERT_OK(second->Close());
  }
  model[{0, 1}] = 11;
  model.erase({0, 4});
  model[{5, 1}] = 2;
  model[{5, 2}] = 2;
  {
    auto three = FileStoreTable::Open(LocalFileIO(), path, kMainBranch,
                                      {{"postpone.default-bucket-num", "3"}});
    ASSERT_OK(three);
    auto write = FileStoreWrite::Open(*three).value();
    ScanOptions scan;
    scan.bucket = kPostponeBucket;
    const ScanPlan plan = PlanScan(**three, scan).value();
    for (const DataSplit& split : plan.splits) {
      ASSERT_OK(write->Compact(split.partition, split.bucket, false));
    }
    ASSERT_OK(test::CommitAs(path, "compactor", write.get(), 2));
    ASSERT_OK(write->Close());
  }
  EXPECT_EQ(Rows(path), model);
  auto plan = PlanScan(*table, ScanOptions{}).value();
  for (const DataSplit& split : plan.splits) {
    EXPECT_EQ(split.total_buckets, split.partition_values[0].int32() == 5 ? 3 : 2);
  }
  ASSERT_OK(CheckTable(*FileStoreTable::Open(LocalFileIO(), path).value()));
}

TEST(PostponeBucketTest, MergeEnginesAndSequenceFieldApplyWhenReplayed) {
  struct Case {
    std::string name;
    TableOptions options;
    int64_t expected;  // v of key (0, 1) after the rows 5, 3, 4 (sequence field: v itself)
  };
  const std::vector<Case> cases = {
      {"deduplicate", {}, 4},
      {"aggregation",
       {{"merge-engine", "aggregation"}, {"fields.v.aggregate-function", "sum"}},
       12},
      {"first-row", {{"merge-engine", "first-row"}}, 5},
      {"sequence.field", {{"sequence.field", "v"}}, 5},
      {"partial-update", {{"merge-engine", "partial-update"}}, 4},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    test::TempDir dir;
    const std::string path = dir.path() + "/db.db/t";
    TableOptions options = c.options;
    options.emplace_back("bucket", "-2");
    auto table = test::CreateTestTable(path, Fields(), {"p"}, {"p", "k"}, options);
    const DataTypePtr type = table->schema().LogicalRowType();
    for (int64_t round = 0; round < 3; ++round) {
      auto write = OpenWrite(path, "w");
      const int64_t v = round == 0 ? 5 : round == 1 ? 3 : 4;
      ASSERT_OK(WriteKv(write.get(), type, {{0, 1, v, kI}, {0, 2 + round, v, kI}}));
      ASSERT_OK(test::CommitAs(path, "w", write.get(), round + 1));
      ASSERT_OK(write->Close());
      if (round == 1) ASSERT_OK(CompactAll(path, round + 1));  // one replay, then another
    }
    ASSERT_OK(CompactAll(path, 10));
    auto rows = Rows(path);
    EXPECT_EQ(rows.size(), 4u);
    EXPECT_EQ(rows[std::make_pair(0, int64_t{1})], c.expected);
    ASSERT_OK(CheckTable(*FileStoreTable::Open(LocalFileIO(), path).value()));
  }
}

TEST(PostponeBucketTest, FirstRowRefusesARetractionAtWriteTime) {
  test::TempDir dir;
  const std::string path = dir.path() + "/db.db/t";
  auto table = test::CreateTestTable(path, Fields(), {"p"}, {"p", "k"},
                                     {{"bucket", "-2"}, {"merge-engine", "first-row"}});
  auto write = OpenWrite(path, "w");
  EXPECT_TRUE(test::HasError(
      WriteKv(write.get(), table->schema().LogicalRowType(), {{0, 1, 1, kI}, {0, 1, 1, kD}}),
      StatusCode::kInvalidArgument, {"First row", "DELETE/UPDATE_BEFORE", "ignore-delete"}));
  ASSERT_OK(write->Close());
}

// Java 2.1.1 (apache/paimon#10582): a discarded compaction deletes only the files it wrote, never
// one it reused. A postpone compaction that no commit took is discarded when the write closes;
// its merge tree upgraded the real bucket's committed level-0 file to a higher level under the
// same name (compact before and after), and that file stays: the latest snapshot names it.
// Before the fix, FileStoreWrite::Close deleted every compact-after file, this one included.
TEST(PostponeBucketTest, ClosingAWriteKeepsTheFileAnUncommittedCompactionUpgraded) {
  test::TempDir dir;
  const std::string path = dir.path() + "/db.db/t";
  // Tiny target files make every file "large", so disjoint runs are upgraded, not rewritten;
  // two sorted runs trigger a compaction.
  auto table = test::CreateTestTable(path, Fields(), {"p"}, {"p", "k"},
                                     {{"bucket", "-2"},
                                      {"postpone.default-bucket-num", "1"},
                                      {"target-file-size", "1 b"},
                                      {"num-sorted-run.compaction-trigger", "2"}});
  const DataTypePtr type = table->schema().LogicalRowType();
  auto write_round = [&](int64_t first_key, int64_t identifier) {
    auto write = OpenWrite(path, "writer");
    std::vector<std::tuple<int32_t, int64_t, int64_t, RowKind>> rows;
    for (int64_t k = first_key; k < first_key + 10; ++k) rows.emplace_back(0, k, k, kI);
    ASSERT_OK(WriteKv(write.get(), type, rows));
    ASSERT_OK(test::CommitAs(path, "writer", write.get(), identifier));
    ASSERT_OK(write->Close());
  };
  write_round(0, 1);
  ASSERT_OK(CompactAll(path, 1));
  auto live = [&]() {
    std::vector<DataFileMeta> files;
    const ScanPlan plan = PlanScan(*table, ScanOptions{}).value();
    for (const DataSplit& split : plan.splits) {
      for (const DataFileMeta& f : split.data_files) files.push_back(f);
    }
    return files;
  };
  const std::vector<DataFileMeta> before = live();
  ASSERT_EQ(before.size(), 1u);
  ASSERT_EQ(before[0].level, 0);  // one sorted run: not compacted

  write_round(100, 2);
  {
    auto write = OpenWrite(path, "compactor");
    ScanOptions scan;
    scan.bucket = kPostponeBucket;
    const ScanPlan plan = PlanScan(*table, scan).value();
    ASSERT_EQ(plan.splits.size(), 1u);
    ASSERT_OK(write->Compact(plan.splits[0].partition, plan.splits[0].bucket, false));
    ASSERT_OK(write->Close());  // no PrepareCommit: the compaction is discarded
  }
  for (const DataFileMeta& f : before) {
    EXPECT_TRUE(*table->io()->Exists(path + "/p=0/bucket-0/" + f.file_name)) << f.file_name;
  }
  ASSERT_OK(CheckTable(*FileStoreTable::Open(LocalFileIO(), path).value()));
  std::map<std::pair<int32_t, int64_t>, int64_t> model;
  for (int64_t k = 0; k < 10; ++k) model[{0, k}] = k;
  EXPECT_EQ(Rows(path), model);
}

}  // namespace
}  // namespace sluice
