// Branch merge: non-conflicting changes of a branch and its target give the union of both
// sides' rows (a model over random rounds of writes and merges); conflicting ones are refused
// naming what conflicts, with nothing changed; the branch's schema changes come along.

#include <gtest/gtest.h>

#include <random>

#include "maintenance/tags_test_util.h"
#include "sluice/maintenance/branch_merge.h"
#include "sluice/maintenance/tag_operations.h"
#include "sluice/meta/branch_manager.h"

namespace sluice {
namespace {

using test::HasError;
using test::tags::ApplyRows;
using test::tags::CreateMaintenanceTable;
using test::tags::OpenBranch;
using test::tags::ReadRowsOf;
using test::tags::Render;
using test::tags::Row;
using test::tags::RowModel;
using test::tags::WriteAndCommit;

class BranchMergeTest : public ::testing::Test {
 protected:
  void Create(bool append, TableOptions options = {}) {
    io_ = std::make_shared<MemoryFileIO>();
    CreateMaintenanceTable(io_, append, std::move(options));
  }

  Result<BranchMergeResult> Merge(const std::string& branch, const std::string& into = "main") {
    SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> target, OpenBranch(io_, into));
    return MergeBranch(target, branch);
  }

  // Every file under the table, for "nothing changed" checks.
  std::vector<std::string> AllFiles() {
    std::vector<std::string> out;
    std::vector<std::string> dirs{test::tags::kMaintenanceTable};
    while (!dirs.empty()) {
      std::string dir = dirs.back();
      dirs.pop_back();
      auto entries = io_->ListDir(dir);
      if (!entries.ok()) continue;
      for (const FileStatus& e : *entries) {
        if (e.is_dir) {
          dirs.push_back(e.path);
        } else {
          out.push_back(e.path);
        }
      }
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  BranchManager Branches() { return BranchManager(io_, test::tags::kMaintenanceTable); }

  std::shared_ptr<MemoryFileIO> io_;
};

TEST_F(BranchMergeTest, DisjointPartitionsMergeToTheUnionOfBothSides) {
  Create(/*append=*/false);
  RowModel model;
  std::vector<ValueList> base{Row(1, "a", "base"), Row(2, "b", "base")};
  ASSERT_OK(WriteAndCommit(io_, "main", base));
  ApplyRows(base, &model);
  ASSERT_OK(Branches().CreateBranchFromSnapshot("dev", "main", 1));

  std::vector<ValueList> on_dev{Row(1, "a", "dev"), Row(10, "a", "dev")};
  std::vector<ValueList> on_main{Row(2, "b", "main"), Row(20, "c", "main")};
  ASSERT_OK(WriteAndCommit(io_, "dev", on_dev));
  ASSERT_OK(WriteAndCommit(io_, "main", on_main));
  ApplyRows(on_dev, &model);
  ApplyRows(on_main, &model);

  auto merged = Merge("dev");
  ASSERT_OK(merged);
  ASSERT_TRUE(merged->snapshot_id.has_value());
  EXPECT_EQ(merged->base_snapshot_id, 1);
  EXPECT_GT(merged->files_added, 0);
  EXPECT_EQ(*ReadRowsOf(io_, "main"), Render(model));
  EXPECT_TRUE(test::tags::CheckProblems(io_).empty());

  // Merging again with nothing new does nothing.
  auto again = Merge("dev");
  ASSERT_OK(again);
  EXPECT_FALSE(again->snapshot_id.has_value());
}

TEST_F(BranchMergeTest, SameBucketOnBothSidesIsRefusedAndNothingChanges) {
  Create(/*append=*/false, {{"bucket", "1"}});
  ASSERT_OK(WriteAndCommit(io_, "main", {Row(1, "a", "base")}));
  ASSERT_OK(Branches().CreateBranchFromSnapshot("dev", "main", 1));
  ASSERT_OK(WriteAndCommit(io_, "dev", {Row(2, "a", "dev")}));
  ASSERT_OK(WriteAndCommit(io_, "main", {Row(3, "a", "main")}));
  const std::vector<std::string> before = AllFiles();
  const auto rows_before = ReadRowsOf(io_, "main");
  ASSERT_OK(rows_before);

  auto merged = Merge("dev");
  EXPECT_TRUE(HasError(merged, StatusCode::kConflict, {"partition {p=\"a\"}", "bucket 0", "data-"}))
      << merged.status().ToString();
  EXPECT_EQ(AllFiles(), before);
  EXPECT_EQ(*ReadRowsOf(io_, "main"), *rows_before);
}

TEST_F(BranchMergeTest, AppendTablesMergeUnlessBothRemovedTheSameFile) {
  Create(/*append=*/true, {{"bucket", "-1"}});
  ASSERT_OK(WriteAndCommit(io_, "main", {Row(1, "a", "base")}));
  ASSERT_OK(Branches().CreateBranchFromSnapshot("dev", "main", 1));
  ASSERT_OK(WriteAndCommit(io_, "dev", {Row(2, "a", "dev")}));
  ASSERT_OK(WriteAndCommit(io_, "main", {Row(3, "a", "main")}));
  auto merged = Merge("dev");
  ASSERT_OK(merged);
  auto rows = ReadRowsOf(io_, "main");
  ASSERT_OK(rows);
  EXPECT_EQ(rows->size(), 3u);  // the same partition and bucket on both sides: appends merge
  EXPECT_TRUE(test::tags::CheckProblems(io_).empty());
}

TEST_F(BranchMergeTest, TheBranchSchemaComesAlongTheTargetsMustNotChange) {
  Create(/*append=*/false);
  ASSERT_OK(WriteAndCommit(io_, "main", {Row(1, "a", "base")}));
  ASSERT_OK(Branches().CreateBranchFromSnapshot("dev", "main", 1));
  // The branch's own next schema (same columns, one more option).
  auto dev = OpenBranch(io_, "dev");
  ASSERT_OK(dev);
  ASSERT_OK((*dev)->schema_manager().CommitChanges({SchemaChange::SetOption("x.note", "dev")}));
  ASSERT_OK(WriteAndCommit(io_, "dev", {Row(5, "d", "dev")}));
  auto merged = Merge("dev");
  ASSERT_OK(merged);
  EXPECT_EQ(merged->schemas_copied, std::vector<int64_t>{1});
  auto main = OpenBranch(io_);
  ASSERT_OK(main);
  EXPECT_EQ((*main)->schema().id(), 1);
  EXPECT_EQ(ReadRowsOf(io_, "main")->size(), 2u);

  // Now main changes its schema: a later merge of the branch is refused.
  ASSERT_OK((*main)->schema_manager().CommitChanges({SchemaChange::SetOption("x.note", "main")}));
  ASSERT_OK(WriteAndCommit(io_, "dev", {Row(6, "d", "dev")}));
  EXPECT_TRUE(HasError(Merge("dev"), StatusCode::kConflict, {"schema changed", "schema 2"}));
}

TEST_F(BranchMergeTest, AnEmptyBranchMergesEverythingItWrote) {
  Create(/*append=*/false);
  ASSERT_OK(WriteAndCommit(io_, "main", {Row(1, "a", "base")}));
  ASSERT_OK(Branches().CreateBranch("fresh", "main"));
  ASSERT_OK(WriteAndCommit(io_, "fresh", {Row(9, "z", "fresh")}));
  auto merged = Merge("fresh");
  ASSERT_OK(merged);
  EXPECT_FALSE(merged->base_snapshot_id.has_value());
  EXPECT_EQ(ReadRowsOf(io_, "main")->size(), 2u);
}

TEST_F(BranchMergeTest, ItselfAndUnknownBranchesAreErrors) {
  Create(/*append=*/false);
  ASSERT_OK(WriteAndCommit(io_, "main", {Row(1, "a", "base")}));
  EXPECT_TRUE(HasError(Merge("main"), StatusCode::kInvalidArgument, {"itself"}));
  EXPECT_TRUE(HasError(Merge("ghost"), StatusCode::kNotFound, {"ghost"}));
}

// The model: rounds of random writes on main and on the branch, each side in the partitions it
// owns (a random split per seed, so no bucket changes on both sides since the branch forked),
// merged into main after every round. Main always reads as the union of both sides' rows.
TEST_F(BranchMergeTest, ModelOfRepeatedMergesOfDisjointWrites) {
  for (uint32_t seed = 1; seed <= 4; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Create(/*append=*/false, {{"bucket", "2"}});
    std::mt19937 rng(seed);
    RowModel main_model;
    RowModel dev_model;
    std::vector<ValueList> base;
    for (int k = 0; k < 8; ++k) base.push_back(Row(k, "p" + std::to_string(k % 4), "base"));
    ASSERT_OK(WriteAndCommit(io_, "main", base));
    ApplyRows(base, &main_model);
    ApplyRows(base, &dev_model);
    auto main = OpenBranch(io_);
    ASSERT_OK(main);
    ASSERT_OK(CreateTag(**main, "fork", TagRequest{1, std::nullopt, false, std::nullopt}));
    ASSERT_OK(Branches().CreateBranchFromTag("dev", "main", "fork"));
    std::vector<std::string> dev_parts;
    std::vector<std::string> main_parts;
    for (int p = 0; p < 4; ++p) {
      (rng() % 2 ? dev_parts : main_parts).push_back("p" + std::to_string(p));
    }
    auto random_rows = [&](const std::vector<std::string>& parts, const std::string& tag) {
      std::vector<ValueList> rows;
      if (parts.empty()) return rows;
      for (int i = 0; i < 6; ++i) {
        rows.push_back(Row(static_cast<int64_t>(rng() % 12), parts[rng() % parts.size()], tag));
      }
      return rows;
    };
    for (int round = 0; round < 3; ++round) {
      SCOPED_TRACE("round " + std::to_string(round));
      const auto dev_rows = random_rows(dev_parts, "dev" + std::to_string(round));
      const auto main_rows = random_rows(main_parts, "main" + std::to_string(round));
      if (!dev_rows.empty()) {
        ASSERT_OK(WriteAndCommit(io_, "dev", dev_rows));
      }
      if (!main_rows.empty()) {
        ASSERT_OK(WriteAndCommit(io_, "main", main_rows));
      }
      ApplyRows(dev_rows, &dev_model);
      ApplyRows(dev_rows, &main_model);
      ApplyRows(main_rows, &main_model);
      auto merged = Merge("dev");
      ASSERT_OK(merged);
      EXPECT_EQ(*ReadRowsOf(io_, "main"), Render(main_model));
      EXPECT_EQ(*ReadRowsOf(io_, "dev"), Render(dev_model));
    }
    EXPECT_TRUE(test::tags::CheckProblems(io_).empty());
  }
}

// A later merge takes the target's changes from before the last merge into account: the branch
// never saw them, so a branch write in a bucket the target changed back then conflicts.
TEST_F(BranchMergeTest, ARepeatedMergeSeesTheTargetsEarlierChanges) {
  Create(/*append=*/false, {{"bucket", "1"}});
  ASSERT_OK(WriteAndCommit(io_, "main", {Row(1, "a", "base")}));
  ASSERT_OK(Branches().CreateBranchFromSnapshot("dev", "main", 1));
  ASSERT_OK(WriteAndCommit(io_, "dev", {Row(2, "b", "dev")}));
  ASSERT_OK(WriteAndCommit(io_, "main", {Row(1, "a", "main")}));
  ASSERT_OK(Merge("dev"));
  // The branch still holds the fork's row of partition a; its write there would hide main's.
  ASSERT_OK(WriteAndCommit(io_, "dev", {Row(1, "a", "dev-late")}));
  EXPECT_TRUE(HasError(Merge("dev"), StatusCode::kConflict, {"partition {p=\"a\"}"}));
}

}  // namespace
}  // namespace sluice
