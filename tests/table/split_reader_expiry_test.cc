// A read whose planned snapshot expires under it (issue #38): another process's snapshot expiry
// deletes the snapshot file and then the files only it used, between the plan and the read. The
// reader's error names the snapshot, says it expired during the read and what to do about it;
// a file missing for another reason keeps its own error.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "sluice/fs/memory_file_io.h"
#include "sluice/meta/file_paths.h"
#include "table/compaction_test_util.h"
#include "test_util.h"

namespace sluice {
namespace {

constexpr char kTable[] = "/wh/db.db/t";

DataTypePtr RowType() {
  return DataType::Row({DataField{0, "k", DataType::BigInt(false), std::nullopt, std::nullopt},
                        DataField{1, "v", DataType::String(), std::nullopt, std::nullopt}});
}

class SplitReaderExpiryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    test::CreateTestTable(kTable, RowType()->fields(), {}, {"k"}, {{"bucket", "1"}}, io_);
    auto table = FileStoreTable::Open(io_, kTable);
    ASSERT_OK(table);
    auto write = FileStoreWrite::Open(*table);
    ASSERT_OK(write);
    ASSERT_OK(test::WriteRows(
        write->get(), RowType(),
        {{Value::Int64(1), Value::String("a")}, {Value::Int64(2), Value::String("b")}}, {}));
    auto messages = (*write)->PrepareCommit(1, /*wait_compaction=*/true);
    ASSERT_OK(messages);
    ASSERT_OK((*write)->Close());
    auto commit = FileStoreCommit::Make(*table, "expiry-test");
    ASSERT_OK(commit);
    ManifestCommittable committable;
    committable.identifier = 1;
    committable.messages = std::move(messages).value();
    ASSERT_OK((*commit)->Commit(committable));
    table_ = *FileStoreTable::Open(io_, kTable);
    auto plan = PlanScan(*table_, ScanOptions{});
    ASSERT_OK(plan);
    ASSERT_EQ(plan->splits.size(), 1u);
    split_ = plan->splits[0];
    ASSERT_EQ(split_.snapshot_id, 1);
    ASSERT_FALSE(split_.data_file_paths.empty());
  }

  // The first error of reading the split whole (OK when it reads).
  Status Read() {
    auto reader = OpenSplitReader(*table_, table_->schema_ptr(), split_, {});
    if (!reader.ok()) return reader.status();
    ColumnBatch batch((*reader)->output_type());
    while (true) {
      auto more = (*reader)->Next(&batch);
      if (!more.ok()) return more.status();
      if (!*more) return Status::OK();
    }
  }

  std::shared_ptr<MemoryFileIO> io_ = std::make_shared<MemoryFileIO>();
  std::shared_ptr<FileStoreTable> table_;
  DataSplit split_;
};

TEST_F(SplitReaderExpiryTest, AFileExpiredUnderTheReadNamesThePlannedSnapshot) {
  ASSERT_OK(Read());
  // What expiry does: the snapshot goes first, then its files.
  ASSERT_OK(io_->Delete(SnapshotPath(kTable, 1), /*recursive=*/false));
  ASSERT_OK(io_->Delete(split_.data_file_paths[0], /*recursive=*/false));
  EXPECT_TRUE(
      test::HasError(Read(), StatusCode::kNotFound,
                     {"snapshot 1 of /wh/db.db/t, which this read planned, expired during the read",
                      split_.data_file_paths[0], "consumer-id", "snapshot.time-retained"}));
}

TEST_F(SplitReaderExpiryTest, AFileMissingUnderALiveSnapshotKeepsItsOwnError) {
  ASSERT_OK(io_->Delete(split_.data_file_paths[0], /*recursive=*/false));
  Status st = Read();
  EXPECT_TRUE(test::HasError(st, StatusCode::kNotFound, {split_.data_file_paths[0]}));
  EXPECT_EQ(st.message().find("expired"), std::string::npos) << st.ToString();
}

}  // namespace
}  // namespace sluice
