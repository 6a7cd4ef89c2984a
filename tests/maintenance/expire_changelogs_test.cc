// Long-lived changelog expiry (ExpireChangelogImpl): changelogs go by their own retention,
// and with them the files only they kept.

#include "sluice/maintenance/expire_changelogs.h"

#include <gtest/gtest.h>

#include "maintenance/maintenance_test_util.h"

namespace sluice {
namespace {

using test::FilesOnDisk;
using test::ReferencedFiles;

std::vector<ValueList> Batch(int i) {
  std::vector<ValueList> rows{{Value::Int64(0), Value::String("u" + std::to_string(i))}};
  rows.push_back({Value::Int64(i), Value::String("v" + std::to_string(i))});
  return rows;
}

class ExpireChangelogsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_.path() + "/t";
    test::CreateKvTable(path_, false);
    for (int i = 1; i <= 5; ++i) {
      ASSERT_OK(test::WriteAndCommit(LocalFileIO(), path_, false, Batch(i), i));
    }
    config_.snapshot_retain_min = 1;
    config_.snapshot_retain_max = 2;
    config_.snapshot_time_retain_millis = 0;
    config_.changelog_retain_min = 1;
    config_.changelog_retain_max = 100;
    config_.changelog_time_retain_millis = 0;
    ASSERT_OK(ExpireSnapshotsImpl(Table()).Expire(config_, CurrentTimeMillis()));
    ASSERT_OK_AND_ASSIGN(changelog_ids_, Changelogs().ListChangelogIds());
    ASSERT_GE(changelog_ids_.size(), 5u);
  }
  std::shared_ptr<FileStoreTable> Table() {
    auto table = FileStoreTable::Open(LocalFileIO(), path_);
    EXPECT_OK(table);
    return *table;
  }
  ChangelogManager Changelogs() { return ChangelogManager(LocalFileIO(), path_); }
  void ExpectIntact() {
    test::ExpectCheckClean(*Table());
    EXPECT_EQ(FilesOnDisk(path_), ReferencedFiles(*Table()));
  }

  test::TempDir dir_;
  std::string path_;
  ExpireConfig config_;
  std::vector<int64_t> changelog_ids_;
};

TEST_F(ExpireChangelogsTest, RetainMaxCountsFromTheLatestSnapshot) {
  ExpectIntact();
  const std::set<std::string> before = FilesOnDisk(path_);
  ASSERT_OK_AND_ASSIGN(std::optional<int64_t> latest_snapshot,
                       Table()->snapshot_manager().LatestSnapshotId());
  config_.changelog_retain_max = static_cast<int32_t>(*latest_snapshot - changelog_ids_[2] + 1);
  // Younger than an hour: the time keeps what `max` does not expire.
  config_.changelog_time_retain_millis = 3600 * 1000;
  ASSERT_OK_AND_ASSIGN(ExpireSummary summary,
                       ExpireChangelogImpl(Table()).Expire(config_, CurrentTimeMillis()));
  EXPECT_EQ(summary.expired, 2);
  EXPECT_GT(summary.files_deleted, 0);
  ASSERT_OK_AND_ASSIGN(std::vector<int64_t> left, Changelogs().ListChangelogIds());
  EXPECT_EQ(left, std::vector<int64_t>(changelog_ids_.begin() + 2, changelog_ids_.end()));
  EXPECT_EQ(Changelogs().EarliestLongLivedChangelogId().ValueOr(std::nullopt), changelog_ids_[2]);
  EXPECT_LT(FilesOnDisk(path_).size(), before.size());
  ExpectIntact();
}

TEST_F(ExpireChangelogsTest, TheLatestLongLivedChangelogStaysAsInJava) {
  config_.changelog_retain_max = 1;
  ASSERT_OK(ExpireChangelogImpl(Table()).Expire(config_, CurrentTimeMillis()));
  ASSERT_OK_AND_ASSIGN(std::vector<int64_t> left, Changelogs().ListChangelogIds());
  EXPECT_EQ(left, std::vector<int64_t>{changelog_ids_.back()});
  ExpectIntact();
}

TEST_F(ExpireChangelogsTest, ExpireAllDeletesEveryChangelogAndTheHints) {
  ASSERT_OK_AND_ASSIGN(ExpireSummary summary, ExpireChangelogImpl(Table()).ExpireAll(config_));
  EXPECT_EQ(summary.expired, static_cast<int64_t>(changelog_ids_.size()));
  EXPECT_TRUE(Changelogs().ListChangelogIds().ValueOr({1}).empty());
  EXPECT_FALSE(std::filesystem::exists(LatestHintPath(Changelogs().changelog_dir())));
  ExpectIntact();
}

}  // namespace
}  // namespace sluice
