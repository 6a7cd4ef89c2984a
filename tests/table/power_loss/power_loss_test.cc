// Power-loss tests (labelled scenario): commits of a primary-key table written by FileStoreWrite
// and committed by FileStoreCommit on a FaultInjectionFileIO over a MemoryFileIO. The power fails
// at every mutating FileIO call of a write + commit, and at every step of the commit; after
// FaultInjectionFileIO::DropUnsynced() (everything not durably synced is gone):
//   - every commit that was acknowledged (Commit returned OK) is there, and reads back its rows;
//   - the commit in flight is either wholly there or not at all: every snapshot reads back, and
//     the table checker finds nothing;
//   - the table takes the next commit.

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sluice/fs/fault_injection_file_io.h"
#include "sluice/fs/memory_file_io.h"
#include "sluice/table/sink/file_store_commit.h"
#include "sluice/table/sink/file_store_write.h"
#include "sluice/table/table_checker.h"
#include "table/compaction_test_util.h"
#include "test_util.h"

namespace sluice {
namespace {

using test::CreateTestTable;
using test::ReadAll;
using test::RenderModel;
using test::WriteRows;

constexpr char kTable[] = "/warehouse/db.db/t";

using Model = std::map<int64_t, ValueList>;

DataTypePtr RowType() {
  return DataType::Row({DataField{0, "k", DataType::BigInt(false), std::nullopt, std::nullopt},
                        DataField{1, "v", DataType::String(), std::nullopt, std::nullopt}});
}

// Batch `i`: five new keys and an update of key 0, so that every batch after the first
// overlaps the files before it and its commit compacts (APPEND, then COMPACT snapshot).
std::vector<ValueList> Batch(int i) {
  std::vector<ValueList> rows{{Value::Int64(0), Value::String("update-" + std::to_string(i))}};
  for (int j = 1; j <= 5; ++j) {
    rows.push_back({Value::Int64(i * 10 + j), Value::String("v" + std::to_string(i))});
  }
  return rows;
}

void Apply(const std::vector<ValueList>& rows, Model* model) {
  for (const ValueList& row : rows) (*model)[row[0].AsInt64()] = row;
}

class PowerLossTest : public ::testing::Test {
 protected:
  // A fresh table on a fresh file system.
  void Reset() {
    memory_ = std::make_shared<MemoryFileIO>();
    io_ = std::make_shared<FaultInjectionFileIO>(memory_);
    // Every commit compacts (two sorted runs trigger), in one bucket.
    CreateTestTable(kTable, RowType()->fields(), {}, {"k"},
                    {{"bucket", "1"}, {"num-sorted-run.compaction-trigger", "2"}}, io_);
  }

  // Writes batch `i` and commits it as identifier `i`; `step_hook` sees the commit's steps.
  Result<CommitResult> WriteAndCommit(int i,
                                      std::function<void(std::string_view)> step_hook = nullptr) {
    SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> table,
                            FileStoreTable::Open(io_, kTable));
    SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<FileStoreWrite> write, FileStoreWrite::Open(table));
    Result<CommitResult> result = [&]() -> Result<CommitResult> {
      SLUICE_RETURN_NOT_OK(WriteRows(write.get(), RowType(), Batch(i), {}));
      SLUICE_ASSIGN_OR_RETURN(std::vector<CommitMessageImpl> messages,
                              write->PrepareCommit(i, /*wait_compaction=*/true));
      SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<FileStoreCommit> commit,
                              FileStoreCommit::Make(table, "writer"));
      if (step_hook) commit->SetStepHookForTesting(std::move(step_hook));
      ManifestCommittable committable;
      committable.identifier = i;
      committable.messages = std::move(messages);
      return commit->Commit(committable);
    }();
    write->Close().IgnoreError();  // after a crash, Close fails too; the commit's outcome counts
    return result;
  }

  // After a power loss: every snapshot is whole and reads back the batches up to its commit
  // identifier; the latest one holds at least the acknowledged batches. Sets
  // `*latest_identifier` to the latest snapshot's commit identifier (0 without snapshots).
  void ExpectConsistent(const std::string& where, int acknowledged, int64_t* latest_identifier) {
    SCOPED_TRACE(where);
    *latest_identifier = 0;
    auto table = FileStoreTable::Open(io_, kTable);
    ASSERT_OK(table);
    auto snapshots = (*table)->snapshot_manager().ListSnapshots();
    ASSERT_OK(snapshots);
    for (const Snapshot& s : *snapshots) {
      Model model;
      for (int i = 1; i <= s.commit_identifier; ++i) Apply(Batch(i), &model);
      EXPECT_EQ(ReadAll(kTable, io_, TableVersion::SnapshotId(s.id)), RenderModel(model))
          << "snapshot " << s.id << " (" << CommitKindName(s.commit_kind) << ", identifier "
          << s.commit_identifier << ")";
      *latest_identifier = s.commit_identifier;
    }
    EXPECT_GE(*latest_identifier, acknowledged) << "an acknowledged commit was lost";
    auto report = RunTableCheck(**table);
    ASSERT_OK(report);
    for (const auto& p : report->problems) ADD_FAILURE() << p;
  }

  // One run: batch 1 committed, then batch 2 with the power failing as `arm` sets up (it may
  // return a step hook), then power loss and checks; then the restarted writer commits what
  // is missing of batches 2 and 3 on the recovered table. Returns whether the crash struck.
  bool RunWithPowerLoss(const std::string& where,
                        const std::function<std::function<void(std::string_view)>()>& arm) {
    Reset();
    auto first = WriteAndCommit(1);
    EXPECT_OK(first);
    auto hook = arm();
    auto second = WriteAndCommit(2, hook);
    const bool crashed = io_->crashed();
    EXPECT_TRUE(second.ok() || crashed) << where << ": " << second.status().ToString();
    EXPECT_OK(io_->DropUnsynced());
    int64_t latest = 0;
    ExpectConsistent(where, second.ok() ? 2 : 1, &latest);
    for (int i = static_cast<int>(latest) + 1; i <= 3; ++i) {
      auto again = WriteAndCommit(i);
      EXPECT_OK(again) << where << ": the table takes commits after the power loss: "
                       << again.status().ToString();
    }
    ExpectConsistent(where + ", then the restarted writer", 3, &latest);
    return crashed;
  }

  std::shared_ptr<MemoryFileIO> memory_;
  std::shared_ptr<FaultInjectionFileIO> io_;
};

TEST_F(PowerLossTest, AtEveryFileIOCallOfAWriteAndCommit) {
  int crashes = 0;
  for (int64_t calls = 0;; ++calls) {
    const bool crashed = RunWithPowerLoss("power lost after " + std::to_string(calls) + " calls",
                                          [&]() -> std::function<void(std::string_view)> {
                                            io_->CrashAfter(calls);
                                            return nullptr;
                                          });
    if (HasFailure()) break;
    if (!crashed) break;  // the whole write and commit ran before the power failed
    ++crashes;
  }
  EXPECT_GT(crashes, 20);
  RecordProperty("power_losses", crashes);
  std::cout << crashes << " power losses, one per FileIO call of a write and commit\n";
}

TEST_F(PowerLossTest, AtEveryStepOfACommit) {
  int crashes = 0;
  std::vector<std::string> steps_hit;
  for (int step = 1;; ++step) {
    std::string name;
    const bool crashed = RunWithPowerLoss("power lost at commit step " + std::to_string(step),
                                          [&]() -> std::function<void(std::string_view)> {
                                            return [&, seen = 0](std::string_view s) mutable {
                                              if (++seen == step) {
                                                name = std::string(s);
                                                io_->CrashAfter(0);
                                              }
                                            };
                                          });
    if (HasFailure()) break;
    if (!crashed) break;  // fewer steps than `step` in the commit
    steps_hit.push_back(name);
    ++crashes;
  }
  // APPEND and COMPACT snapshots, each through every step up to the hint.
  EXPECT_GE(crashes, 10);
  std::string joined;
  for (const auto& s : steps_hit) joined += " " + s;
  std::cout << crashes << " power losses at commit steps:" << joined << "\n";
}

}  // namespace
}  // namespace sluice
