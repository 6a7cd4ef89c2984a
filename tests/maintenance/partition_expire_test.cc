// Partition expiry and dropping: Java's partition time extraction, the values-time and
// update-time strategies, the max-num bound, and DropPartitions as one OVERWRITE snapshot.

#include "sluice/maintenance/partition_expire.h"

#include <gtest/gtest.h>

#include "maintenance/maintenance_test_util.h"
#include "sluice/maintenance/expire_snapshots.h"
#include "sluice/table/sink/file_store_commit.h"

namespace sluice {
namespace {

constexpr int64_t kDay = 24LL * 3600 * 1000;

int64_t Millis(int y, unsigned m, unsigned d, int64_t hour = 0) {
  return DaysFromCivil(y, m, d) * kDay + hour * 3600 * 1000;
}

TEST(PartitionTimeTest, DefaultFormatsAsJava) {
  EXPECT_EQ(ParsePartitionTime("2024-01-02", std::nullopt).ValueOr(0), Millis(2024, 1, 2));
  EXPECT_EQ(ParsePartitionTime("2024-1-2 3:04:05", std::nullopt).ValueOr(0),
            Millis(2024, 1, 2, 3) + 4 * 60000 + 5000);
  EXPECT_EQ(ParsePartitionTime("2024-01-02 00:00:00.25", std::nullopt).ValueOr(0),
            Millis(2024, 1, 2) + 250);
  EXPECT_TRUE(test::HasError(ParsePartitionTime("20240102", std::nullopt).status(),
                             StatusCode::kInvalidArgument, {"20240102"}));
}

TEST(PartitionTimeTest, FormatterPatterns) {
  EXPECT_EQ(ParsePartitionTime("20240102", std::string("yyyyMMdd")).ValueOr(0), Millis(2024, 1, 2));
  EXPECT_EQ(ParsePartitionTime("2024-01-02 07", std::string("yyyy-MM-dd HH")).ValueOr(0),
            Millis(2024, 1, 2, 7));
  EXPECT_EQ(ParsePartitionTime("2024/01/02T07", std::string("yyyy/MM/dd'T'HH")).ValueOr(0),
            Millis(2024, 1, 2, 7));
  EXPECT_TRUE(test::HasError(ParsePartitionTime("2024013", std::string("yyyyMMdd")).status(),
                             StatusCode::kInvalidArgument, {"2024013"}));
  EXPECT_TRUE(test::HasError(ParsePartitionTime("20241302", std::string("yyyyMMdd")).status(),
                             StatusCode::kInvalidArgument, {"out of range"}));
}

TEST(PartitionExpireConfigTest, ReadsTheOptions) {
  auto options = CoreOptions::Make({{"partition.expiration-time", "7 d"},
                                    {"partition.expiration-check-interval", "10 min"},
                                    {"partition.timestamp-formatter", "yyyyMMdd"},
                                    {"partition.timestamp-pattern", "$dt"},
                                    {"partition.expiration-strategy", "update-time"},
                                    {"partition.expiration-max-num", "3"}});
  ASSERT_OK(options);
  ASSERT_OK_AND_ASSIGN(PartitionExpireConfig config, PartitionExpireConfig::FromOptions(*options));
  EXPECT_EQ(config.expiration_millis, 7 * kDay);
  EXPECT_EQ(config.check_interval_millis, 600000);
  EXPECT_EQ(config.timestamp_formatter, "yyyyMMdd");
  EXPECT_EQ(config.timestamp_pattern, "$dt");
  EXPECT_EQ(config.strategy, PartitionExpireStrategy::kUpdateTime);
  EXPECT_EQ(config.max_expires, 3);

  auto bad = CoreOptions::Make({{"partition.expiration-strategy", "sometimes"}});
  ASSERT_OK(bad);
  EXPECT_TRUE(test::HasError(PartitionExpireConfig::FromOptions(*bad).status(),
                             StatusCode::kInvalidArgument,
                             {"partition.expiration-strategy", "sometimes"}));
}

class PartitionExpireTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_.path() + "/t";
    test::CreateKvTable(path_, /*partitioned=*/true);
    int i = 0;
    for (const char* dt : {"20240101", "20240105", "20240110", "not-a-date"}) {
      ++i;
      ASSERT_OK(test::WriteAndCommit(LocalFileIO(), path_, true,
                                     {{Value::String(dt), Value::Int64(i), Value::String("v")}},
                                     i));
    }
  }
  std::shared_ptr<FileStoreTable> Table() {
    auto table = FileStoreTable::Open(LocalFileIO(), path_);
    EXPECT_OK(table);
    return *table;
  }
  // Each partition holds one row.
  size_t PartitionCount() { return test::ReadAll(path_).size(); }
  PartitionExpireConfig Config() {
    PartitionExpireConfig config;
    config.expiration_millis = 3 * kDay;
    config.timestamp_formatter = "yyyyMMdd";
    return config;
  }

  test::TempDir dir_;
  std::string path_;
};

TEST_F(PartitionExpireTest, ValuesTimeDropsOldPartitionsOldestFirst) {
  ASSERT_EQ(PartitionCount(), 4u);
  PartitionExpireConfig config = Config();
  config.max_expires = 1;
  // 2024-01-09: 01-01 and 01-05 are older than three days; one at a time, the oldest first.
  ASSERT_OK_AND_ASSIGN(auto first,
                       PartitionExpire(Table(), config).Expire(Millis(2024, 1, 9), "expire"));
  EXPECT_EQ(first, (std::vector<PartitionSpec>{{{"dt", "20240101"}}}));
  ASSERT_OK_AND_ASSIGN(std::optional<Snapshot> latest,
                       Table()->snapshot_manager().LatestSnapshot());
  ASSERT_TRUE(latest.has_value());
  EXPECT_EQ(latest->commit_kind, CommitKind::kOverwrite);
  ASSERT_OK_AND_ASSIGN(auto second,
                       PartitionExpire(Table(), Config()).Expire(Millis(2024, 1, 9), "expire"));
  EXPECT_EQ(second, (std::vector<PartitionSpec>{{{"dt", "20240105"}}}));
  EXPECT_EQ(PartitionCount(), 2u);  // 20240110 and the unreadable one stay
  test::ExpectCheckClean(*Table());
}

TEST_F(PartitionExpireTest, UpdateTimeUsesTheLatestFileCreationTime) {
  PartitionExpireConfig config = Config();
  config.strategy = PartitionExpireStrategy::kUpdateTime;
  // Every file was written just now: nothing is three days old yet, everything is in a week.
  ASSERT_OK_AND_ASSIGN(auto none,
                       PartitionExpire(Table(), config).ExpiredPartitions(CurrentTimeMillis()));
  EXPECT_TRUE(none.empty());
  ASSERT_OK_AND_ASSIGN(
      auto all, PartitionExpire(Table(), config).ExpiredPartitions(CurrentTimeMillis() + 7 * kDay));
  EXPECT_EQ(all.size(), 4u);
}

TEST_F(PartitionExpireTest, DropPartitionsIsOneOverwriteSnapshot) {
  ASSERT_OK_AND_ASSIGN(auto commit, FileStoreCommit::Make(Table(), "drop"));
  ASSERT_OK_AND_ASSIGN(CommitResult result,
                       commit->DropPartitions({{{"dt", "20240101"}}, {{"dt", "20240110"}}}));
  ASSERT_EQ(result.snapshot_ids.size(), 1u);
  EXPECT_EQ(PartitionCount(), 2u);
  // Nothing left to drop: no snapshot.
  ASSERT_OK_AND_ASSIGN(CommitResult again, commit->DropPartitions({{{"dt", "20240101"}}}));
  EXPECT_TRUE(again.snapshot_ids.empty());
  EXPECT_TRUE(test::HasError(commit->DropPartitions({{{"nope", "1"}}}).status(),
                             StatusCode::kInvalidArgument, {"nope"}));
  test::ExpectCheckClean(*Table());
}

}  // namespace
}  // namespace sluice
