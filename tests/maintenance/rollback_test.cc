// Rollback (RollbackHelper) to a snapshot, a tag (also one whose snapshot expired) and a time:
// the table reads as that snapshot, later snapshots and tags are gone, and so are the files
// only they used.

#include "sluice/maintenance/rollback.h"

#include <gtest/gtest.h>

#include "maintenance/maintenance_test_util.h"
#include "sluice/maintenance/expire_snapshots.h"

namespace sluice {
namespace {

using test::FilesOnDisk;
using test::ReadAll;
using test::ReferencedFiles;

std::vector<ValueList> Batch(int i) {
  return {{Value::Int64(0), Value::String("u" + std::to_string(i))},
          {Value::Int64(i), Value::String("v" + std::to_string(i))}};
}

class RollbackTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_.path() + "/t";
    test::CreateKvTable(path_, false);
    for (int i = 1; i <= 5; ++i) {
      ASSERT_OK(test::WriteAndCommit(LocalFileIO(), path_, false, Batch(i), i));
    }
  }
  std::shared_ptr<FileStoreTable> Table() {
    auto table = FileStoreTable::Open(LocalFileIO(), path_);
    EXPECT_OK(table);
    return *table;
  }
  std::vector<int64_t> SnapshotIds() {
    return Table()->snapshot_manager().ListSnapshotIds().ValueOr({});
  }
  void ExpectIntact() {
    test::ExpectCheckClean(*Table());
    EXPECT_EQ(FilesOnDisk(path_), ReferencedFiles(*Table()));
  }

  test::TempDir dir_;
  std::string path_;
};

TEST_F(RollbackTest, ToSnapshotDeletesLaterSnapshotsTagsAndTheirFiles) {
  const std::vector<std::string> at3 = ReadAll(path_, LocalFileIO(), TableVersion::SnapshotId(3));
  test::WriteTag(*Table(), "early", 2);
  test::WriteTag(*Table(), "late", 6);
  const size_t files_before = FilesOnDisk(path_).size();
  ASSERT_OK_AND_ASSIGN(int64_t deleted, RollbackHelper(Table()).RollbackTo(3));
  EXPECT_GT(deleted, 0);
  EXPECT_EQ(SnapshotIds(), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(ReadAll(path_), at3);
  EXPECT_EQ(Table()->tag_manager().ListTagNames().ValueOr({}), std::vector<std::string>{"early"});
  EXPECT_LT(FilesOnDisk(path_).size(), files_before);
  ExpectIntact();
  // The table takes commits again, from snapshot 4.
  ASSERT_OK(test::WriteAndCommit(LocalFileIO(), path_, false, Batch(9), 9));
  EXPECT_EQ(SnapshotIds().at(3), 4);
  ExpectIntact();
}

TEST_F(RollbackTest, ToTagWhoseSnapshotExpiredRestoresTheSnapshotFile) {
  test::WriteTag(*Table(), "t2", 2);
  const std::vector<std::string> at2 = ReadAll(path_, LocalFileIO(), TableVersion::Tag("t2"));
  ExpireConfig config;
  config.snapshot_retain_min = 1;
  config.snapshot_retain_max = 1;
  config.snapshot_time_retain_millis = 0;
  ASSERT_OK(ExpireSnapshotsImpl(Table()).Expire(config, CurrentTimeMillis()));
  ASSERT_FALSE(Table()->snapshot_manager().SnapshotExists(2).ValueOr(true));
  ASSERT_OK(RollbackHelper(Table()).RollbackToTag("t2"));
  EXPECT_EQ(SnapshotIds(), std::vector<int64_t>{2});
  EXPECT_EQ(Table()->snapshot_manager().EarliestSnapshotId().ValueOr(std::nullopt), 2);
  EXPECT_EQ(ReadAll(path_), at2);
  ExpectIntact();
}

TEST_F(RollbackTest, ToTimestampPicksTheLatestSnapshotAtOrBefore) {
  ASSERT_OK_AND_ASSIGN(Snapshot s4, Table()->snapshot_manager().LoadSnapshot(4));
  std::map<int64_t, std::vector<std::string>> reads;
  for (int64_t id : SnapshotIds()) {
    reads[id] = ReadAll(path_, LocalFileIO(), TableVersion::SnapshotId(id));
  }
  ASSERT_OK_AND_ASSIGN(int64_t id, RollbackHelper(Table()).RollbackToTimestamp(s4.time_millis));
  // Snapshots committed in the same millisecond as 4 may follow it; the latest of them wins.
  EXPECT_GE(id, 4);
  EXPECT_EQ(SnapshotIds().back(), id);
  EXPECT_EQ(ReadAll(path_), reads[id]);
  ExpectIntact();
}

TEST_F(RollbackTest, UnknownSnapshotTagOrTimeIsNotFound) {
  const std::vector<int64_t> before = SnapshotIds();
  EXPECT_TRUE(test::HasError(RollbackHelper(Table()).RollbackTo(99).status(), StatusCode::kNotFound,
                             {"99"}));
  EXPECT_TRUE(test::HasError(RollbackHelper(Table()).RollbackToTag("nope").status(),
                             StatusCode::kNotFound, {"nope"}));
  EXPECT_TRUE(test::HasError(RollbackHelper(Table()).RollbackToTimestamp(1000).status(),
                             StatusCode::kNotFound, {"1000"}));
  EXPECT_EQ(SnapshotIds(), before);
}

}  // namespace
}  // namespace sluice
