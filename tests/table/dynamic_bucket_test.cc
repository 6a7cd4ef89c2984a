// Dynamic-bucket primary-key tables (bucket = -1): hash index files and their index manifest
// entries, assignment kept across writer restarts, compaction, overwrite, conflicts between
// writers, the options Java refuses, and the checker's hash index checks.
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

std::vector<ValueList> Rows(int32_t p, int64_t from, int64_t to, const std::string& v) {
  std::vector<ValueList> rows;
  for (int64_t k = from; k < to; ++k) {
    rows.push_back({Value::Int32(p), Value::Int64(k), Value::String(v)});
  }
  return rows;
}

TEST(DynamicBucketTest, HashIndexFilesRecordEachBucketsKeysAndSurviveRestarts) {
  test::TempDir dir;
  const std::string path = dir.path() + "/db.db/t";
  auto table = test::CreateDynamicBucketTable(path, {{"dynamic-bucket.target-row-num", "3"}});
  const DataTypePtr row_type = table->schema().LogicalRowType();
  {
    auto write = test::OpenDynamicWrite(path, 1, 0);
    ASSERT_OK(test::WriteRows(write.get(), row_type, Rows(1, 0, 10, "a"), {}));
    ASSERT_OK(test::WriteRows(write.get(), row_type, Rows(2, 0, 2, "a"), {}));
    ASSERT_OK(test::CommitAs(path, "u", write.get(), 1));
    ASSERT_OK(write->Close());
  }
  std::vector<IndexManifestEntry> hash = test::LatestHashEntries(path);
  std::map<std::pair<int32_t, int32_t>, int64_t> counts;  // (p, bucket) -> hashes
  for (const IndexManifestEntry& e : hash) {
    const int32_t p = BinaryRowView::FromSerialized(e.partition).value().GetInt(0);
    counts[{p, e.bucket}] = e.row_count;
    EXPECT_EQ(e.file_size, 4 * e.row_count);
    EXPECT_EQ(e.file_name.rfind("index-", 0), 0u) << e.file_name;
    EXPECT_TRUE(LocalFileIO()->Exists(path + "/index/" + e.file_name).value());
  }
  EXPECT_EQ(counts, (std::map<std::pair<int32_t, int32_t>, int64_t>{
                        {{1, 0}, 3}, {{1, 1}, 3}, {{1, 2}, 3}, {{1, 3}, 1}, {{2, 0}, 2}}));
  const auto before = test::BucketsOfKeys(path);

  // A new writer: the keys keep their buckets, new keys fill bucket 3 first.
  {
    auto write = test::OpenDynamicWrite(path, 1, 0);
    ASSERT_OK(test::WriteRows(write.get(), row_type, Rows(1, 0, 12, "b"), {}));
    ASSERT_OK(test::CommitAs(path, "u", write.get(), 2));
    ASSERT_OK(write->Close());
  }
  const auto after = test::BucketsOfKeys(path);
  for (const auto& [key, buckets] : before) EXPECT_EQ(after.at(key), buckets);
  EXPECT_EQ(after.at({1, 10}), std::set<int32_t>{3});
  EXPECT_EQ(after.at({1, 11}), std::set<int32_t>{3});
  EXPECT_EQ(test::ReadAll(path).size(), 14u);
  // Only bucket 3 of p=1 gained keys: one new HASH file replaced its old one.
  std::vector<IndexManifestEntry> now = test::LatestHashEntries(path);
  ASSERT_EQ(now.size(), hash.size());
  int changed = 0;
  for (size_t i = 0; i < now.size(); ++i) {
    bool same = false;
    for (const IndexManifestEntry& e : hash) same |= e.file_name == now[i].file_name;
    if (!same) {
      ++changed;
      EXPECT_EQ(now[i].bucket, 3);
      EXPECT_EQ(now[i].row_count, 3);
    }
  }
  EXPECT_EQ(changed, 1);
  ASSERT_OK(CheckTable(*FileStoreTable::Open(LocalFileIO(), path).value()));
}

TEST(DynamicBucketTest, DeletesKeepTheirHashAndCompactionKeepsTheIndex) {
  test::TempDir dir;
  const std::string path = dir.path() + "/db.db/t";
  auto table = test::CreateDynamicBucketTable(path, {{"dynamic-bucket.target-row-num", "4"}});
  const DataTypePtr row_type = table->schema().LogicalRowType();
  auto write = test::OpenDynamicWrite(path, 1, 0);
  ASSERT_OK(test::WriteRows(write.get(), row_type, Rows(0, 0, 6, "a"), {}));
  ASSERT_OK(test::CommitAs(path, "u", write.get(), 1));
  // A delete of a key never written still claims a bucket (Java hashes every record).
  const std::vector<RowKind> deletes(2, RowKind::kDelete);
  std::vector<ValueList> rows = Rows(0, 4, 5, "a");
  rows.push_back({Value::Int32(0), Value::Int64(100), Value::String("a")});
  ASSERT_OK(test::WriteRows(write.get(), row_type, rows, deletes));
  ASSERT_OK(test::CommitAs(path, "u", write.get(), 2));
  int64_t hashes = 0;
  for (const auto& e : test::LatestHashEntries(path)) hashes += e.row_count;
  EXPECT_EQ(hashes, 7);
  const std::vector<IndexManifestEntry> index = test::LatestHashEntries(path);

  for (int32_t bucket : {0, 1}) {
    ASSERT_OK(write->Compact(
        SerializeBinaryRow(
            EncodeBinaryRow({Value::Int32(0)}, *table->schema().LogicalPartitionType()).value(), 1),
        bucket, /*full_compaction=*/true));
  }
  ASSERT_OK(test::CommitAs(path, "u", write.get(), 3));
  ASSERT_OK(write->Close());
  auto latest = FileStoreTable::Open(LocalFileIO(), path)
                    .value()
                    ->SelectSnapshot(TableVersion::Latest())
                    .value();
  EXPECT_EQ(latest->commit_kind, CommitKind::kCompact);
  EXPECT_EQ(test::LatestHashEntries(path), index);
  EXPECT_EQ(test::ReadAll(path).size(), 5u);
  ASSERT_OK(CheckTable(*FileStoreTable::Open(LocalFileIO(), path).value()));
}

TEST(DynamicBucketTest, TwoWritersOfTheSameKeysConflictOnTheHashIndex) {
  test::TempDir dir;
  const std::string path = dir.path() + "/db.db/t";
  auto table = test::CreateDynamicBucketTable(path, {});
  const DataTypePtr row_type = table->schema().LogicalRowType();
  {
    auto seed = test::OpenDynamicWrite(path, 1, 0);
    ASSERT_OK(test::WriteRows(seed.get(), row_type, Rows(0, 0, 3, "a"), {}));
    ASSERT_OK(test::CommitAs(path, "seed", seed.get(), 1));
  }
  // Two uncoordinated writers (each believing it is the only assigner) add keys to bucket 0.
  auto first = test::OpenDynamicWrite(path, 1, 0);
  auto second = test::OpenDynamicWrite(path, 1, 0);
  ASSERT_OK(test::WriteRows(first.get(), row_type, Rows(0, 10, 12, "b"), {}));
  ASSERT_OK(test::WriteRows(second.get(), row_type, Rows(0, 20, 22, "c"), {}));
  ASSERT_OK(test::CommitAs(path, "first", first.get(), 1));
  EXPECT_TRUE(test::HasError(test::CommitAs(path, "second", second.get(), 1), StatusCode::kConflict,
                             {"HASH index file", "bucket 0", "not live"}));
  EXPECT_EQ(test::ReadAll(path).size(), 5u);
  ASSERT_OK(CheckTable(*FileStoreTable::Open(LocalFileIO(), path).value()));
}

TEST(DynamicBucketTest, WritersSharingTheHashSpaceCommitSeparately) {
  test::TempDir dir;
  const std::string path = dir.path() + "/db.db/t";
  auto table = test::CreateDynamicBucketTable(path, {{"dynamic-bucket.target-row-num", "5"}});
  const DataTypePtr row_type = table->schema().LogicalRowType();
  auto w0 = test::OpenDynamicWrite(path, 2, 0);
  auto w1 = test::OpenDynamicWrite(path, 2, 1);
  std::vector<ValueList> rows0, rows1;
  for (int64_t k = 0; k < 40; ++k) {
    ValueList row{Value::Int32(3), Value::Int64(k), Value::String("x")};
    (ComputeAssigner(test::PartitionHash(3), test::KeyHash(k), 2, 2) == 0 ? rows0 : rows1)
        .push_back(row);
  }
  ASSERT_FALSE(rows0.empty());
  ASSERT_FALSE(rows1.empty());
  // A row of the other writer's share is refused.
  EXPECT_TRUE(test::HasError(test::WriteRows(w0.get(), row_type, {rows1[0]}, {}),
                             StatusCode::kInvalidArgument, {"bucket assigner 1 of 2"}));
  ASSERT_OK(test::WriteRows(w0.get(), row_type, rows0, {}));
  ASSERT_OK(test::WriteRows(w1.get(), row_type, rows1, {}));
  ASSERT_OK(test::CommitAs(path, "w1", w1.get(), 1));
  ASSERT_OK(test::CommitAs(path, "w0", w0.get(), 1));
  for (const auto& [key, buckets] : test::BucketsOfKeys(path)) {
    ASSERT_EQ(buckets.size(), 1u);
    const int32_t owner = ComputeAssigner(test::PartitionHash(3), test::KeyHash(key.second), 2, 2);
    EXPECT_EQ(*buckets.begin() % 2, owner);
  }
  EXPECT_EQ(test::ReadAll(path).size(), 40u);
  ASSERT_OK(CheckTable(*FileStoreTable::Open(LocalFileIO(), path).value()));
}

TEST(DynamicBucketTest, WritersGivenEveryRowEachWriteTheirShareOnce) {
  test::TempDir dir;
  const std::string path = dir.path() + "/db.db/t";
  auto table = test::CreateDynamicBucketTable(path, {{"dynamic-bucket.target-row-num", "4"}});
  const DataTypePtr row_type = table->schema().LogicalRowType();
  std::vector<ValueList> rows;
  for (int32_t p = 0; p < 3; ++p) {
    for (const ValueList& row : Rows(p, 0, 30, "x")) rows.push_back(row);
  }
  for (int round = 0; round < 2; ++round) {
    std::vector<std::unique_ptr<FileStoreWrite>> writers;
    for (int32_t id = 0; id < 3; ++id) {
      FileStoreWriteOptions options;
      options.dynamic_bucket_writers = 3;
      options.dynamic_bucket_assign_id = id;
      options.dynamic_bucket_skip_others = true;
      writers.push_back(
          FileStoreWrite::Open(FileStoreTable::Open(LocalFileIO(), path).value(), options).value());
      ASSERT_OK(test::WriteRows(writers.back().get(), row_type, rows, {}));
    }
    for (int32_t id = 2; id >= 0; --id) {
      ASSERT_OK(test::CommitAs(path, "w" + std::to_string(id), writers[id].get(), round + 1));
      ASSERT_OK(writers[id]->Close());
    }
    for (const auto& [key, buckets] : test::BucketsOfKeys(path)) {
      ASSERT_EQ(buckets.size(), 1u) << key.first << "/" << key.second;
      const int32_t owner =
          ComputeAssigner(test::PartitionHash(key.first), test::KeyHash(key.second), 3, 3);
      EXPECT_EQ(*buckets.begin() % 3, owner);
    }
    EXPECT_EQ(test::ReadAll(path).size(), 90u);
    ASSERT_OK(CheckTable(*FileStoreTable::Open(LocalFileIO(), path).value()));
  }
}

TEST(DynamicBucketTest, MergeEnginesSequenceFieldAndDeletesAcrossBucketsAndRestarts) {
  struct Case {
    std::string name;
    TableOptions options;
    int64_t expected;  // v of every key after the rounds 5, 3, 4 (sequence field: v itself)
    bool deletes;      // the engine takes -D (key 0 is deleted last)
  };
  const std::vector<Case> cases = {
      {"deduplicate", {}, 4, true},
      {"aggregation",
       {{"merge-engine", "aggregation"}, {"fields.v.aggregate-function", "sum"}},
       12,
       false},
      {"first-row", {{"merge-engine", "first-row"}}, 5, false},
      {"sequence.field", {{"sequence.field", "v"}}, 5, true},
      {"partial-update", {{"merge-engine", "partial-update"}}, 4, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    test::TempDir dir;
    const std::string path = dir.path() + "/db.db/t";
    TableOptions options = c.options;
    options.emplace_back("bucket", "-1");
    options.emplace_back("dynamic-bucket.target-row-num", "3");
    auto table = test::CreateTestTable(
        path,
        {DataField{0, "p", DataType::Int(false), std::nullopt, std::nullopt},
         DataField{1, "k", DataType::BigInt(false), std::nullopt, std::nullopt},
         DataField{2, "v", DataType::BigInt(), std::nullopt, std::nullopt}},
        {"p"}, {"p", "k"}, options);
    const DataTypePtr row_type = table->schema().LogicalRowType();
    for (int64_t round = 0; round < 4; ++round) {
      if (round == 3 && !c.deletes) break;
      auto write = test::OpenDynamicWrite(path, 1, 0);
      std::vector<ValueList> rows;
      std::vector<RowKind> kinds;
      const int64_t v = round == 0 ? 5 : round == 1 ? 3 : 4;
      for (int64_t k = 0; k < 10; ++k) {
        if (round == 3 && k > 0) break;
        rows.push_back({Value::Int32(1), Value::Int64(k), Value::Int64(round == 3 ? 9 : v)});
        kinds.push_back(round == 3 ? RowKind::kDelete : RowKind::kInsert);
      }
      ASSERT_OK(test::WriteRows(write.get(), row_type, rows, kinds));
      ASSERT_OK(test::CommitAs(path, "u", write.get(), round + 1));
      ASSERT_OK(write->Close());
    }
    const std::vector<std::string> read = test::ReadAll(path);
    ASSERT_EQ(read.size(), c.deletes ? 9u : 10u);
    for (const std::string& row : read) {
      EXPECT_NE(row.find(", " + std::to_string(c.expected) + ")"), std::string::npos) << row;
    }
    const auto buckets = test::BucketsOfKeys(path);
    std::set<int32_t> used;
    for (const auto& [key, in] : buckets) {
      ASSERT_EQ(in.size(), 1u) << key.second;
      used.insert(*in.begin());
    }
    EXPECT_EQ(used.size(), 4u);  // ten keys, three per bucket
    ASSERT_OK(CheckTable(*FileStoreTable::Open(LocalFileIO(), path).value()));
  }
}

TEST(DynamicBucketTest, OverwriteReplacesThePartitionsIndex) {
  test::TempDir dir;
  const std::string path = dir.path() + "/db.db/t";
  auto table = test::CreateDynamicBucketTable(path, {{"dynamic-bucket.target-row-num", "2"}});
  const DataTypePtr row_type = table->schema().LogicalRowType();
  {
    auto write = test::OpenDynamicWrite(path, 1, 0);
    ASSERT_OK(test::WriteRows(write.get(), row_type, Rows(0, 0, 6, "a"), {}));
    ASSERT_OK(test::WriteRows(write.get(), row_type, Rows(1, 0, 2, "a"), {}));
    ASSERT_OK(test::CommitAs(path, "u", write.get(), 1));
  }
  auto write = test::OpenDynamicWrite(path, 1, 0, /*overwrite=*/true);
  ASSERT_OK(test::WriteRows(write.get(), row_type, Rows(0, 100, 103, "b"), {}));
  ASSERT_OK_AND_ASSIGN(std::vector<CommitMessageImpl> messages, write->PrepareCommit(2));
  auto commit = FileStoreCommit::Make(FileStoreTable::Open(LocalFileIO(), path).value(), "u");
  ASSERT_OK(commit);
  ManifestCommittable committable;
  committable.identifier = 2;
  committable.messages = std::move(messages);
  ASSERT_OK((*commit)->Overwrite(committable, std::nullopt));  // dynamic: partition p=0
  std::map<int32_t, int64_t> hashes_of_partition;
  std::set<std::pair<int32_t, int32_t>> buckets;
  for (const IndexManifestEntry& e : test::LatestHashEntries(path)) {
    const int32_t p = BinaryRowView::FromSerialized(e.partition).value().GetInt(0);
    hashes_of_partition[p] += e.row_count;
    buckets.insert({p, e.bucket});
  }
  EXPECT_EQ(hashes_of_partition, (std::map<int32_t, int64_t>{{0, 3}, {1, 2}}));
  EXPECT_EQ(buckets, (std::set<std::pair<int32_t, int32_t>>{{0, 0}, {0, 1}, {1, 0}}));
  EXPECT_EQ(test::ReadAll(path).size(), 5u);
  ASSERT_OK(CheckTable(*FileStoreTable::Open(LocalFileIO(), path).value()));
}

TEST(DynamicBucketTest, CombinationsJavaRefusesAreErrorsNamingTheOption) {
  test::TempDir dir;
  for (const auto& [key, value] :
       std::vector<std::pair<std::string, std::string>>{{"dynamic-bucket.max-buckets", "0"},
                                                        {"dynamic-bucket.target-row-num", "0"},
                                                        {"dynamic-bucket.initial-buckets", "-2"}}) {
    const std::string path = dir.path() + "/db.db/" + key;
    auto table = test::CreateDynamicBucketTable(path, {{key, value}});
    EXPECT_TRUE(
        test::HasError(FileStoreWrite::Open(table).status(), StatusCode::kInvalidArgument, {key}));
  }
}

TEST(DynamicBucketTest, CheckerFindsAKeyMissingFromItsBucketsHashIndex) {
  test::TempDir dir;
  const std::string path = dir.path() + "/db.db/t";
  auto table = test::CreateDynamicBucketTable(path, {});
  const DataTypePtr row_type = table->schema().LogicalRowType();
  auto write = test::OpenDynamicWrite(path, 1, 0);
  ASSERT_OK(test::WriteRows(write.get(), row_type, Rows(0, 0, 4, "a"), {}));
  ASSERT_OK(test::CommitAs(path, "u", write.get(), 1));
  const std::vector<IndexManifestEntry> hash = test::LatestHashEntries(path);
  ASSERT_EQ(hash.size(), 1u);
  // Same size, one hash replaced: only the key check can notice.
  const std::string file = path + "/index/" + hash[0].file_name;
  std::vector<int32_t> hashes = ReadHashIndexFile(*LocalFileIO(), file).value();
  hashes[0] ^= 0x5a5a5a5a;
  ASSERT_OK(LocalFileIO()->Delete(file, false));
  ASSERT_OK(WriteHashIndexFile(*LocalFileIO(), file, hashes).status());
  ASSERT_OK_AND_ASSIGN(CheckReport report,
                       RunTableCheck(*FileStoreTable::Open(LocalFileIO(), path).value()));
  ASSERT_FALSE(report.problems.empty());
  EXPECT_NE(report.problems[0].find("does not hold"), std::string::npos) << report.problems[0];
  EXPECT_NE(report.problems[0].find(hash[0].file_name), std::string::npos);
}

}  // namespace
}  // namespace sluice
