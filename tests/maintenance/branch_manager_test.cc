// Branches: created empty, from a tag or from a snapshot (staged and renamed into place), written
// and read on their own, dropped, renamed and fast-forwarded into main.

#include <gtest/gtest.h>

#include "maintenance/tags_test_util.h"
#include "sluice/maintenance/tag_operations.h"
#include "sluice/meta/branch_manager.h"

namespace sluice {
namespace {

using test::HasError;
using test::tags::CreateMaintenanceTable;
using test::tags::OpenBranch;
using test::tags::ReadRowsOf;
using test::tags::Row;
using test::tags::WriteAndCommit;

class BranchManagerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    io_ = std::make_shared<MemoryFileIO>();
    CreateMaintenanceTable(io_, /*append=*/false);
    ASSERT_OK(WriteAndCommit(io_, "main", {Row(1, "a", "one")}));
    ASSERT_OK(WriteAndCommit(io_, "main", {Row(2, "a", "two")}));
    auto table = OpenBranch(io_);
    ASSERT_OK(table);
    ASSERT_OK(CreateTag(**table, "t1", TagRequest{1, std::nullopt, false, std::nullopt}));
  }

  BranchManager Branches() { return BranchManager(io_, test::tags::kMaintenanceTable); }

  std::shared_ptr<MemoryFileIO> io_;
};

TEST_F(BranchManagerTest, FromTagReadsTheTaggedRowsAndWritesApart) {
  ASSERT_OK(Branches().CreateBranchFromTag("dev", "main", "t1"));
  auto names = Branches().ListBranches();
  ASSERT_OK(names);
  EXPECT_EQ(*names, std::vector<std::string>{"dev"});
  auto rows = ReadRowsOf(io_, "dev");
  ASSERT_OK(rows);
  EXPECT_EQ(rows->size(), 1u);
  // The branch holds the tag, the tagged snapshot and the schemas, as Java copies them.
  auto dev = OpenBranch(io_, "dev");
  ASSERT_OK(dev);
  EXPECT_TRUE(*(*dev)->tag_manager().TagExists("t1"));
  EXPECT_TRUE(*(*dev)->snapshot_manager().SnapshotExists(1));
  EXPECT_TRUE(*(*dev)->schema_manager().SchemaExists(0));

  ASSERT_OK(WriteAndCommit(io_, "dev", {Row(3, "b", "three")}));
  EXPECT_EQ(ReadRowsOf(io_, "dev")->size(), 2u);
  EXPECT_EQ(ReadRowsOf(io_, "main")->size(), 2u);
  auto latest = (*dev)->snapshot_manager().LatestSnapshotId();
  ASSERT_OK(latest);
  EXPECT_EQ(**latest, 2);  // the branch numbers its snapshots on from the fork
  EXPECT_TRUE(test::tags::CheckProblems(io_, "dev").empty());
}

TEST_F(BranchManagerTest, EmptyAndFromSnapshot) {
  ASSERT_OK(Branches().CreateBranch("empty", "main"));
  auto rows = ReadRowsOf(io_, "empty");
  ASSERT_OK(rows);
  EXPECT_TRUE(rows->empty());
  ASSERT_OK(Branches().CreateBranchFromSnapshot("s2", "main", 2));
  EXPECT_EQ(ReadRowsOf(io_, "s2")->size(), 2u);
  EXPECT_TRUE(HasError(Branches().CreateBranchFromSnapshot("s9", "main", 9), StatusCode::kNotFound,
                       {"snapshot 9"}));
  EXPECT_TRUE(HasError(Branches().CreateBranchFromTag("x", "main", "nope"), StatusCode::kNotFound,
                       {"nope"}));
  // Nothing of the failed creations is left as a branch.
  auto names = Branches().ListBranches();
  ASSERT_OK(names);
  EXPECT_EQ(*names, (std::vector<std::string>{"empty", "s2"}));
}

TEST_F(BranchManagerTest, NamesAreCheckedAsJavaChecksThem) {
  EXPECT_TRUE(
      HasError(Branches().CreateBranch("main", "main"), StatusCode::kInvalidArgument, {"main"}));
  EXPECT_TRUE(
      HasError(Branches().CreateBranch(" ", "main"), StatusCode::kInvalidArgument, {"blank"}));
  EXPECT_TRUE(HasError(Branches().CreateBranch("123", "main"), StatusCode::kInvalidArgument,
                       {"numeric", "123"}));
  ASSERT_OK(Branches().CreateBranch("b", "main"));
  EXPECT_TRUE(HasError(Branches().CreateBranch("b", "main"), StatusCode::kAlreadyExists, {"'b'"}));
  EXPECT_OK(Branches().CreateBranch("b", "main", /*ignore_if_exists=*/true));
}

TEST_F(BranchManagerTest, DropAndRename) {
  ASSERT_OK(Branches().CreateBranchFromTag("dev", "main", "t1"));
  ASSERT_OK(Branches().RenameBranch("dev", "feature"));
  EXPECT_EQ(ReadRowsOf(io_, "feature")->size(), 1u);
  EXPECT_TRUE(HasError(Branches().RenameBranch("dev", "x"), StatusCode::kNotFound, {"dev"}));
  EXPECT_TRUE(
      HasError(Branches().RenameBranch("main", "x"), StatusCode::kInvalidArgument, {"main"}));
  ASSERT_OK(Branches().DropBranch("feature"));
  EXPECT_TRUE(HasError(Branches().DropBranch("feature"), StatusCode::kNotFound, {"feature"}));
  EXPECT_TRUE(HasError(OpenBranch(io_, "feature"), StatusCode::kNotFound, {"feature"}));
  // Main's data is untouched.
  EXPECT_EQ(ReadRowsOf(io_, "main")->size(), 2u);
  EXPECT_TRUE(test::tags::CheckProblems(io_).empty());
}

TEST_F(BranchManagerTest, FastForwardMakesMainTheBranch) {
  ASSERT_OK(Branches().CreateBranchFromTag("dev", "main", "t1"));
  ASSERT_OK(WriteAndCommit(io_, "dev", {Row(7, "c", "seven")}));
  ASSERT_OK(WriteAndCommit(io_, "dev", {Row(8, "c", "eight")}));
  ASSERT_OK(Branches().FastForward("dev", "main"));
  auto main_rows = ReadRowsOf(io_, "main");
  ASSERT_OK(main_rows);
  EXPECT_EQ(*main_rows, *ReadRowsOf(io_, "dev"));
  EXPECT_EQ(main_rows->size(), 3u);  // one from the fork, two of the branch; main's second is gone
  auto table = OpenBranch(io_);
  ASSERT_OK(table);
  EXPECT_EQ(**(*table)->snapshot_manager().LatestSnapshotId(), 3);
  EXPECT_TRUE(test::tags::CheckProblems(io_).empty());
  EXPECT_TRUE(
      HasError(Branches().FastForward("main", "main"), StatusCode::kInvalidArgument, {"main"}));
}

}  // namespace
}  // namespace sluice
