// Cross-partition upsert tables (bucket = -1, primary key k, partitioned by p): each merge
// engine's rule for a key arriving in another partition, deletes, a writer restarted
// (bootstrap), and a table holding a key twice refused at bootstrap and by the checker.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "sluice/table/table_checker.h"
#include "table/cross_partition_test_util.h"
#include "test_util.h"

namespace sluice {
namespace {

using test::Row;

std::string Rendered(int32_t p, int64_t k, int64_t v) {
  return Value::Row(Row(p, k, v)).DebugString();
}

class CrossPartitionTest : public ::testing::Test {
 protected:
  void Create(TableOptions options, const std::string& target_row_num = "2") {
    path_ = dir_.path() + "/db.db/t";
    tmp_ = dir_.path() + "/tmp";
    std::filesystem::create_directories(tmp_);
    options.emplace_back("dynamic-bucket.target-row-num", target_row_num);
    table_ = test::CreateCrossPartitionTable(path_, std::move(options));
  }
  std::unique_ptr<FileStoreWrite> Open() {
    auto write = test::OpenCrossPartitionWrite(path_, tmp_);
    EXPECT_OK(write);
    return write.ok() ? std::move(write).value() : nullptr;
  }
  Status Write(FileStoreWrite* write, const std::vector<ValueList>& rows,
               const std::vector<RowKind>& kinds = {}) {
    return test::WriteRows(write, table_->schema().LogicalRowType(), rows, kinds);
  }
  Status Commit(FileStoreWrite* write) { return test::Commit(path_, write, ++identifier_); }

  test::TempDir dir_;
  std::string path_;
  std::string tmp_;
  std::shared_ptr<const FileStoreTable> table_;
  int64_t identifier_ = 0;
};

TEST_F(CrossPartitionTest, DeduplicateRetractsAMovedKeyFromItsOldPartition) {
  Create({});
  auto write = Open();
  ASSERT_OK(Write(write.get(), {Row(1, 1, 10), Row(1, 2, 20), Row(1, 3, 30)}));
  ASSERT_OK(Commit(write.get()));
  ASSERT_OK(Write(write.get(), {Row(2, 1, 11)}));
  ASSERT_OK(Commit(write.get()));
  EXPECT_EQ(test::ReadAll(path_),
            (std::vector<std::string>{Rendered(1, 2, 20), Rendered(1, 3, 30), Rendered(2, 1, 11)}));
  ASSERT_OK(write->Close());
  // A new writer knows where key 1 lives from the table alone.
  write = Open();
  ASSERT_OK(Write(write.get(), {Row(3, 1, 12), Row(3, 2, 21)}));
  ASSERT_OK(Commit(write.get()));
  ASSERT_OK(write->Close());
  EXPECT_EQ(test::ReadAll(path_),
            (std::vector<std::string>{Rendered(1, 3, 30), Rendered(3, 1, 12), Rendered(3, 2, 21)}));
  for (const auto& [k, places] : test::PlacesOfKeys(path_)) EXPECT_EQ(places.size(), 1u) << k;
  ASSERT_OK(CheckTable(*FileStoreTable::Open(LocalFileIO(), path_).value()));
}

TEST_F(CrossPartitionTest, AKeyMovingAwayAndBackInOneBatchKeepsItsLastRow) {
  Create({});
  auto write = Open();
  ASSERT_OK(
      Write(write.get(), {Row(1, 7, 1), Row(2, 7, 2), Row(1, 7, 3), Row(1, 8, 4), Row(2, 8, 5)}));
  ASSERT_OK(Commit(write.get()));
  ASSERT_OK(write->Close());
  EXPECT_EQ(test::ReadAll(path_), (std::vector<std::string>{Rendered(1, 7, 3), Rendered(2, 8, 5)}));
  ASSERT_OK(CheckTable(*FileStoreTable::Open(LocalFileIO(), path_).value()));
}

TEST_F(CrossPartitionTest, ADeleteGoesToWhereTheKeyLives) {
  Create({});
  auto write = Open();
  ASSERT_OK(Write(write.get(), {Row(1, 1, 10), Row(1, 2, 20)}));
  ASSERT_OK(Commit(write.get()));
  ASSERT_OK(
      Write(write.get(), {Row(2, 1, 10), Row(1, 2, 20)}, {RowKind::kDelete, RowKind::kDelete}));
  ASSERT_OK(Commit(write.get()));
  ASSERT_OK(write->Close());
  EXPECT_TRUE(test::ReadAll(path_).empty());
  ASSERT_OK(CheckTable(*FileStoreTable::Open(LocalFileIO(), path_).value()));
}

TEST_F(CrossPartitionTest, AggregationUpdatesTheKeyInItsOldPartition) {
  Create({{"merge-engine", "aggregation"}, {"fields.v.aggregate-function", "sum"}});
  auto write = Open();
  ASSERT_OK(Write(write.get(), {Row(1, 1, 10)}));
  ASSERT_OK(Commit(write.get()));
  ASSERT_OK(write->Close());
  write = Open();
  ASSERT_OK(Write(write.get(), {Row(2, 1, 5), Row(3, 1, 1), Row(2, 2, 7)}));
  ASSERT_OK(Commit(write.get()));
  ASSERT_OK(write->Close());
  EXPECT_EQ(test::ReadAll(path_),
            (std::vector<std::string>{Rendered(1, 1, 16), Rendered(2, 2, 7)}));
  ASSERT_OK(CheckTable(*FileStoreTable::Open(LocalFileIO(), path_).value()));
}

TEST_F(CrossPartitionTest, PartialUpdateUpdatesTheKeyInItsOldPartition) {
  Create({{"merge-engine", "partial-update"}});
  auto write = Open();
  ASSERT_OK(Write(write.get(), {Row(1, 1, 10)}));
  ASSERT_OK(Write(write.get(), {Row(2, 1, 11)}));
  ASSERT_OK(Commit(write.get()));
  ASSERT_OK(write->Close());
  EXPECT_EQ(test::ReadAll(path_), (std::vector<std::string>{Rendered(1, 1, 11)}));
}

TEST_F(CrossPartitionTest, FirstRowSkipsTheRowOfAKeyLivingElsewhere) {
  Create({{"merge-engine", "first-row"}});
  auto write = Open();
  ASSERT_OK(Write(write.get(), {Row(1, 1, 10), Row(2, 1, 11), Row(1, 1, 12)}));
  ASSERT_OK(Commit(write.get()));
  ASSERT_OK(write->Close());
  write = Open();
  ASSERT_OK(Write(write.get(), {Row(3, 1, 13), Row(3, 2, 20)}));
  ASSERT_OK(Commit(write.get()));
  ASSERT_OK(write->Close());
  EXPECT_EQ(test::ReadAll(path_),
            (std::vector<std::string>{Rendered(1, 1, 10), Rendered(3, 2, 20)}));
  ASSERT_OK(CheckTable(*FileStoreTable::Open(LocalFileIO(), path_).value()));
}

TEST_F(CrossPartitionTest, TheKeyIndexSpillsAndItsDirectoryGoesAtClose) {
  Create({}, /*target_row_num=*/"1000");
  auto opened = test::OpenCrossPartitionWrite(path_, tmp_, /*memory_bytes=*/8 << 10);
  ASSERT_OK(opened);
  std::unique_ptr<FileStoreWrite> write = std::move(opened).value();
  EXPECT_FALSE(std::filesystem::is_empty(tmp_));
  constexpr int64_t kKeys = 1500;
  std::vector<ValueList> rows;
  for (int64_t k = 0; k < kKeys; ++k) rows.push_back(Row(static_cast<int32_t>(k % 3), k, k));
  ASSERT_OK(Write(write.get(), rows));
  rows.clear();
  for (int64_t k = 0; k < kKeys; k += 2)
    rows.push_back(Row(static_cast<int32_t>(k % 3) + 1, k, -k));
  ASSERT_OK(Write(write.get(), rows));
  ASSERT_OK(Commit(write.get()));
  EXPECT_GT(write->key_index_spills(), 5);
  ASSERT_OK(write->Close());
  EXPECT_TRUE(std::filesystem::is_empty(tmp_));
  const auto places = test::PlacesOfKeys(path_);
  ASSERT_EQ(places.size(), static_cast<size_t>(kKeys));
  for (const auto& [k, where] : places) {
    ASSERT_EQ(where.size(), 1u) << k;
    EXPECT_EQ(where.begin()->first, static_cast<int32_t>(k % 3) + (k % 2 == 0 ? 1 : 0)) << k;
  }
}

TEST_F(CrossPartitionTest, AKeyInTwoPartitionsIsRefusedAtBootstrapAndByTheChecker) {
  Create({});
  // Two writers that never saw each other's keys (Java allows one writing job only).
  auto first = Open();
  auto second = Open();
  ASSERT_OK(Write(first.get(), {Row(1, 5, 1)}));
  ASSERT_OK(Write(second.get(), {Row(2, 5, 2)}));
  ASSERT_OK(Commit(first.get()));
  ASSERT_OK(Commit(second.get()));
  ASSERT_OK(first->Close());
  ASSERT_OK(second->Close());
  EXPECT_TRUE(test::HasError(test::OpenCrossPartitionWrite(path_, tmp_), StatusCode::kCorruption,
                             {"primary key", "5", "p=1", "p=2", "holds each key once"}));
  ASSERT_OK_AND_ASSIGN(CheckReport report,
                       RunTableCheck(*FileStoreTable::Open(LocalFileIO(), path_).value()));
  ASSERT_FALSE(report.problems.empty());
  EXPECT_NE(report.problems.back().find("is live in bucket"), std::string::npos)
      << report.problems.back();
}

TEST_F(CrossPartitionTest, BadWriterIdsAndTtlsAreErrorsNamingThem) {
  Create({});
  EXPECT_TRUE(test::HasError(test::OpenCrossPartitionWrite(path_, tmp_, 1 << 20, 2, 2),
                             StatusCode::kInvalidArgument, {"cross-partition assigner 2 of 2"}));
  EXPECT_TRUE(test::HasError(CoreOptions::Make({{"cross-partition-upsert.index-ttl", "forever"}}),
                             StatusCode::kInvalidArgument, {"cross-partition-upsert.index-ttl"}));
}

}  // namespace
}  // namespace sluice
