// Power-loss tests (labelled scenario) of tag creation, branch creation and branch merge, on a
// FaultInjectionFileIO over a MemoryFileIO as tests/table/power_loss does: the power fails after
// every mutating FileIO call of the operation; after FaultInjectionFileIO::DropUnsynced() the
// operation is wholly there or not at all, the table checker finds nothing, and the operation
// runs again to completion.

#include <gtest/gtest.h>

#include <functional>
#include <iostream>

#include "maintenance/tags_test_util.h"
#include "sluice/fs/fault_injection_file_io.h"
#include "sluice/maintenance/branch_merge.h"
#include "sluice/maintenance/tag_operations.h"
#include "sluice/meta/branch_manager.h"

namespace sluice {
namespace {

using test::tags::ApplyRows;
using test::tags::CreateMaintenanceTable;
using test::tags::OpenBranch;
using test::tags::ReadRowsOf;
using test::tags::Render;
using test::tags::Row;
using test::tags::RowModel;
using test::tags::WriteAndCommit;

class TagsBranchesPowerLossTest : public ::testing::Test {
 protected:
  // A table with two snapshots on main, tag t1 at snapshot 1, and, with `branched`, branch dev
  // from t1 with one commit of its own and main one more commit in another partition.
  void Reset(bool branched) {
    memory_ = std::make_shared<MemoryFileIO>();
    io_ = std::make_shared<FaultInjectionFileIO>(memory_);
    CreateMaintenanceTable(io_, /*append=*/false);
    before_ = {};
    after_ = {};
    const std::vector<ValueList> first{Row(1, "a", "one")};
    ASSERT_OK(WriteAndCommit(io_, "main", first));
    ApplyRows(first, &before_);
    auto table = OpenBranch(io_);
    ASSERT_OK(table);
    ASSERT_OK(CreateTag(**table, "t1", TagRequest{1, std::nullopt, false, std::nullopt}));
    if (!branched) return;
    ASSERT_OK(
        BranchManager(io_, test::tags::kMaintenanceTable).CreateBranchFromTag("dev", "main", "t1"));
    const std::vector<ValueList> dev{Row(2, "b", "dev")};
    const std::vector<ValueList> main{Row(3, "c", "main")};
    ASSERT_OK(WriteAndCommit(io_, "dev", dev));
    ASSERT_OK(WriteAndCommit(io_, "main", main));
    ApplyRows(main, &before_);
    after_ = before_;
    ApplyRows(dev, &after_);
  }

  // Runs `op` with the power failing after `calls` mutating calls; returns whether it struck.
  bool RunWithPowerLoss(int64_t calls, const std::function<Status()>& op) {
    io_->CrashAfter(calls);
    Status st = op();
    const bool crashed = io_->crashed();
    EXPECT_TRUE(st.ok() || crashed) << st.ToString();
    EXPECT_OK(io_->DropUnsynced());
    return crashed;
  }

  void ExpectClean(const std::string& branch = "main") {
    for (const std::string& p : test::tags::CheckProblems(io_, branch)) ADD_FAILURE() << p;
  }

  std::shared_ptr<MemoryFileIO> memory_;
  std::shared_ptr<FaultInjectionFileIO> io_;
  RowModel before_;
  RowModel after_;
};

TEST_F(TagsBranchesPowerLossTest, AtEveryFileIOCallOfTagCreation) {
  int crashes = 0;
  for (int64_t calls = 0;; ++calls) {
    SCOPED_TRACE("power lost after " + std::to_string(calls) + " calls");
    Reset(/*branched=*/false);
    TagRequest request;
    request.time_retained_millis = 3600000;
    const bool crashed = RunWithPowerLoss(calls, [&]() -> Status {
      SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> table, OpenBranch(io_));
      return CreateTag(*table, "t2", request).status();
    });
    auto table = OpenBranch(io_);
    ASSERT_OK(table);
    auto exists = (*table)->tag_manager().TagExists("t2");
    ASSERT_OK(exists);
    if (*exists) {
      auto tag = (*table)->tag_manager().LoadTag("t2");
      ASSERT_OK(tag);  // whole, never torn
      EXPECT_EQ(tag->snapshot.id, 1);
    } else {
      EXPECT_TRUE(crashed) << "an acknowledged tag was lost";
      ASSERT_OK(CreateTag(**table, "t2", request));
    }
    EXPECT_EQ(*ReadRowsOf(io_, "main", TableVersion::Tag("t2")), Render(before_));
    ExpectClean();
    if (HasFailure() || !crashed) break;
    ++crashes;
  }
  EXPECT_GE(crashes, 2);
  std::cout << crashes << " power losses during tag creation\n";
}

TEST_F(TagsBranchesPowerLossTest, AtEveryFileIOCallOfBranchCreation) {
  int crashes = 0;
  for (int64_t calls = 0;; ++calls) {
    SCOPED_TRACE("power lost after " + std::to_string(calls) + " calls");
    Reset(/*branched=*/false);
    BranchManager branches(io_, test::tags::kMaintenanceTable);
    const bool crashed = RunWithPowerLoss(
        calls, [&]() { return branches.CreateBranchFromTag("dev", "main", "t1"); });
    auto names = branches.ListBranches();
    ASSERT_OK(names);
    if (names->empty()) {
      EXPECT_TRUE(crashed) << "an acknowledged branch was lost";
      ASSERT_OK(branches.CreateBranchFromTag("dev", "main", "t1"));
    }
    // The branch is whole: its snapshot, schema and tag read.
    auto rows = ReadRowsOf(io_, "dev");
    ASSERT_OK(rows);
    EXPECT_EQ(*rows, Render(before_));
    ExpectClean("dev");
    if (HasFailure() || !crashed) break;
    ++crashes;
  }
  EXPECT_GE(crashes, 5);
  std::cout << crashes << " power losses during branch creation\n";
}

TEST_F(TagsBranchesPowerLossTest, AtEveryFileIOCallOfBranchMerge) {
  int crashes = 0;
  for (int64_t calls = 0;; ++calls) {
    SCOPED_TRACE("power lost after " + std::to_string(calls) + " calls");
    Reset(/*branched=*/true);
    const bool crashed = RunWithPowerLoss(calls, [&]() -> Status {
      SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> table, OpenBranch(io_));
      return MergeBranch(table, "dev").status();
    });
    // One committed state: before the merge or after it.
    auto rows = ReadRowsOf(io_, "main");
    ASSERT_OK(rows);
    if (*rows == Render(before_)) {
      EXPECT_TRUE(crashed) << "an acknowledged merge was lost";
      auto table = OpenBranch(io_);
      ASSERT_OK(table);
      ASSERT_OK(MergeBranch(*table, "dev"));  // the merge runs again after the restart
    }
    EXPECT_EQ(*ReadRowsOf(io_, "main"), Render(after_));
    ExpectClean();
    if (HasFailure() || !crashed) break;
    ++crashes;
  }
  EXPECT_GE(crashes, 5);
  std::cout << crashes << " power losses during branch merge\n";
}

}  // namespace
}  // namespace sluice
