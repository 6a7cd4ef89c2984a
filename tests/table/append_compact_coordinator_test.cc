// Small-file compaction of bucket-unaware append tables (AppendCompactCoordinator): small files
// written over several commits into a partitioned `bucket = -1` table are planned into tasks
// (at least `compaction.min.file-num` small files per partition, every small file on full
// compaction, files of `target-file-size` left alone), rewritten, and committed as COMPACT
// snapshots through FileStoreWrite::Compact; the rows, their order and their sequence numbers
// survive and the structural check passes.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "compaction_test_util.h"
#include "sluice/row/binary_row.h"
#include "sluice/table/sink/append_compact_coordinator.h"
#include "sluice/table/table_checker.h"
#include "test_util.h"

namespace sluice {
namespace {

using test::Commit;
using test::CreateTestTable;
using test::LiveFiles;
using test::ReadAll;
using test::WriteRows;

std::vector<DataField> Fields() {
  return {DataField{0, "id", DataType::BigInt(), std::nullopt, std::nullopt},
          DataField{1, "dt", DataType::String(), std::nullopt, std::nullopt},
          DataField{2, "v", DataType::String(), std::nullopt, std::nullopt}};
}

std::vector<ValueList> Rows(const std::string& dt, int64_t first, int n) {
  std::vector<ValueList> rows;
  for (int i = 0; i < n; ++i) {
    rows.push_back({Value::Int64(first + i), Value::String(dt),
                    Value::String("value-" + std::to_string(first + i))});
  }
  return rows;
}

std::vector<std::string> Render(const std::vector<ValueList>& rows, bool sorted) {
  std::vector<std::string> out;
  for (const ValueList& r : rows) out.push_back(Value::Row(r).DebugString());
  if (sorted) std::sort(out.begin(), out.end());
  return out;
}

// The live files of one partition of the latest snapshot.
std::vector<DataFileMeta> FilesOf(const std::string& path, const std::string& dt) {
  std::vector<DataFileMeta> out;
  auto table = FileStoreTable::Open(LocalFileIO(), path).value();
  auto plan = PlanScan(*table, ScanOptions{});
  EXPECT_OK(plan);
  if (!plan.ok()) return out;
  for (const DataSplit& split : plan->splits) {
    if (split.partition_values[0].bytes() != dt) continue;
    out.insert(out.end(), split.data_files.begin(), split.data_files.end());
  }
  return out;
}

// The rows of one partition in the order its splits yield them.
std::vector<std::string> ReadPartitionInOrder(const std::string& path, const std::string& dt) {
  std::vector<std::string> out;
  auto table = FileStoreTable::Open(LocalFileIO(), path).value();
  auto plan = PlanScan(*table, ScanOptions{}).value();
  for (DataSplit& split : plan.splits) {
    if (split.partition_values[0].bytes() != dt) continue;
    auto reader = OpenSplitReader(*table, table->schema_ptr(), split, SplitReadOptions{});
    EXPECT_OK(reader);
    if (!reader.ok()) return out;
    ColumnBatch batch((*reader)->output_type());
    while (true) {
      auto more = (*reader)->Next(&batch);
      EXPECT_OK(more);
      if (!more.ok() || !*more) break;
      for (int64_t i = 0; i < batch.num_rows(); ++i) out.push_back(batch.GetRow(i).DebugString());
    }
  }
  return out;
}

std::string PartitionRow(const std::string& dt) {
  auto row = EncodeBinaryRow(
      {Value::String(dt)},
      *DataType::Row({DataField{1, "dt", DataType::String(), std::nullopt, std::nullopt}}));
  EXPECT_OK(row);
  return SerializeBinaryRow(*row, 1);
}

Snapshot Latest(const std::string& path) {
  auto table = FileStoreTable::Open(LocalFileIO(), path).value();
  return *table->SelectSnapshot(TableVersion::Latest()).value();
}

void ExpectSound(const std::string& path) {
  auto table = FileStoreTable::Open(LocalFileIO(), path).value();
  Status st = CheckTable(*table);
  EXPECT_OK(st);
}

TEST(AppendCompactCoordinatorTest, CompactsSmallFilesPerPartitionKeepingRowsAndSequence) {
  test::TempDir dir;
  const std::string path = dir.path() + "/db.db/t";
  CreateTestTable(path, Fields(), {"dt"}, {}, {{"bucket", "-1"}, {"file.format", "parquet"}});
  const DataTypePtr row_type =
      FileStoreTable::Open(LocalFileIO(), path).value()->schema().LogicalRowType();
  // d1 gets a file from each of 6 commits, d2 from 3 (fewer than compaction.min.file-num 5).
  std::vector<ValueList> all, d1, d2;
  for (int commit = 0; commit < 6; ++commit) {
    auto table = FileStoreTable::Open(LocalFileIO(), path).value();
    auto write = FileStoreWrite::Open(table).value();
    std::vector<ValueList> rows = Rows("d1", commit * 100, 40);
    d1.insert(d1.end(), rows.begin(), rows.end());
    if (commit % 2 == 0) {
      std::vector<ValueList> more = Rows("d2", 10000 + commit * 100, 30);
      d2.insert(d2.end(), more.begin(), more.end());
      rows.insert(rows.end(), more.begin(), more.end());
    }
    all.insert(all.end(), rows.begin(), rows.end());
    ASSERT_OK(WriteRows(write.get(), row_type, rows, {}));
    Status st = Commit(path, write.get(), commit);
    ASSERT_OK(st);
    ASSERT_OK(write->Close());
  }
  ASSERT_EQ(FilesOf(path, "d1").size(), 6u);
  ASSERT_EQ(FilesOf(path, "d2").size(), 3u);

  auto table = FileStoreTable::Open(LocalFileIO(), path).value();
  auto tasks = PlanAppendCompaction(*table, std::nullopt, /*full_compaction=*/false);
  ASSERT_OK(tasks);
  ASSERT_EQ(tasks->size(), 1u);
  EXPECT_EQ((*tasks)[0].partition, PartitionRow("d1"));
  EXPECT_EQ((*tasks)[0].files.size(), 6u);
  EXPECT_EQ((*tasks)[0].total_buckets, -1);

  // Not full: only d1 has enough small files.
  {
    auto write = FileStoreWrite::Open(table).value();
    // d1 twice: the second call finds d1's compaction pending and adds nothing.
    for (const std::string dt : {"d1", "d2", "d1"}) {
      Status st = write->Compact(PartitionRow(dt), 0, /*full_compaction=*/false);
      ASSERT_OK(st);
    }
    Status st = Commit(path, write.get(), 100);
    ASSERT_OK(st);
    ASSERT_OK(write->Close());
  }
  EXPECT_EQ(Latest(path).commit_kind, CommitKind::kCompact);
  std::vector<DataFileMeta> files = FilesOf(path, "d1");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].file_source, FileSource::kCompact);
  EXPECT_EQ(files[0].row_count, 240);
  EXPECT_EQ(files[0].min_sequence_number, 0);
  EXPECT_EQ(files[0].max_sequence_number, 239);
  EXPECT_EQ(FilesOf(path, "d2").size(), 3u);
  EXPECT_EQ(ReadAll(path), Render(all, /*sorted=*/true));
  // The compacted file holds d1's rows in the order they were committed.
  EXPECT_EQ(ReadPartitionInOrder(path, "d1"), Render(d1, /*sorted=*/false));
  ExpectSound(path);

  // Full compaction of d2 only; d1's one file is left alone.
  {
    auto write = FileStoreWrite::Open(FileStoreTable::Open(LocalFileIO(), path).value()).value();
    Status st = write->Compact(PartitionRow("d2"), 0, /*full_compaction=*/true);
    ASSERT_OK(st);
    st = write->Compact(PartitionRow("d1"), 0, /*full_compaction=*/true);
    ASSERT_OK(st);
    auto messages = write->PrepareCommit(101);
    ASSERT_OK(messages);
    ASSERT_EQ(messages->size(), 1u);
    EXPECT_EQ((*messages)[0].bucket, 0);
    EXPECT_EQ((*messages)[0].total_buckets, -1);
    EXPECT_EQ((*messages)[0].compact.compact_before.size(), 3u);
    auto commit =
        FileStoreCommit::Make(FileStoreTable::Open(LocalFileIO(), path).value(), "compaction-test")
            .value();
    ManifestCommittable committable;
    committable.identifier = 101;
    committable.messages = std::move(messages).value();
    ASSERT_OK(commit->Commit(committable));
    ASSERT_OK(write->Close());
  }
  ASSERT_EQ(FilesOf(path, "d2").size(), 1u);
  EXPECT_EQ(FilesOf(path, "d2")[0].min_sequence_number, 0);
  EXPECT_EQ(FilesOf(path, "d2")[0].max_sequence_number, 89);
  EXPECT_EQ(FilesOf(path, "d1").size(), 1u);
  EXPECT_EQ(ReadAll(path), Render(all, /*sorted=*/true));
  EXPECT_EQ(ReadPartitionInOrder(path, "d2"), Render(d2, /*sorted=*/false));
  ExpectSound(path);

  // A later write numbers after the compacted files.
  {
    auto write = FileStoreWrite::Open(FileStoreTable::Open(LocalFileIO(), path).value()).value();
    ASSERT_OK(WriteRows(write.get(), row_type, Rows("d1", 5000, 5), {}));
    ASSERT_OK(Commit(path, write.get(), 102));
    ASSERT_OK(write->Close());
  }
  int64_t max_seq = -1;
  for (const DataFileMeta& f : FilesOf(path, "d1"))
    max_seq = std::max(max_seq, f.max_sequence_number);
  EXPECT_EQ(max_seq, 244);
  ExpectSound(path);
}

TEST(AppendCompactCoordinatorTest, LeavesLargeFilesAndBoundsTaskSize) {
  test::TempDir dir;
  const std::string path = dir.path() + "/db.db/t";
  CreateTestTable(path, Fields(), {"dt"}, {},
                  {{"bucket", "-1"},
                   {"file.format", "avro"},
                   {"target-file-size", "2 kb"},
                   {"source.split.open-file-cost", "0"},
                   {"compaction.min.file-num", "2"}});
  const DataTypePtr row_type =
      FileStoreTable::Open(LocalFileIO(), path).value()->schema().LogicalRowType();
  std::vector<ValueList> all;
  // One large commit rolls into files of about 2.5 kb (not small), then 11 small commits (about
  // 1 kb each): bins of 4 reach twice the target size, the 3 left over are a task too.
  for (int commit = 0; commit < 12; ++commit) {
    auto write = FileStoreWrite::Open(FileStoreTable::Open(LocalFileIO(), path).value()).value();
    std::vector<ValueList> rows = Rows("d1", commit * 100000, commit == 0 ? 4000 : 300);
    all.insert(all.end(), rows.begin(), rows.end());
    ASSERT_OK(WriteRows(write.get(), row_type, rows, {}));
    ASSERT_OK(Commit(path, write.get(), commit));
    ASSERT_OK(write->Close());
  }
  auto table = FileStoreTable::Open(LocalFileIO(), path).value();
  const int64_t small = static_cast<int64_t>(2 * 1024 * 0.7);
  std::set<std::string> large;
  std::vector<DataFileMeta> before = LiveFiles(path);
  for (const DataFileMeta& f : before) {
    if (f.file_size >= small) large.insert(f.file_name);
  }
  ASSERT_FALSE(large.empty());
  auto tasks = PlanAppendCompaction(*table, PartitionRow("d1"), /*full_compaction=*/false);
  ASSERT_OK(tasks);
  ASSERT_EQ(tasks->size(), 3u);
  for (const AppendCompactTask& task : *tasks) {
    EXPECT_GE(task.files.size(), 2u);
    int64_t size = 0;
    for (size_t i = 0; i < task.files.size(); ++i) {
      EXPECT_EQ(large.count(task.files[i].file_name), 0u);
      if (i > 0) {
        EXPECT_LT(task.files[i - 1].min_sequence_number, task.files[i].min_sequence_number);
      }
      size += task.files[i].file_size;
    }
    // A bin is cut as soon as it reaches twice the target size.
    EXPECT_LT(size - task.files.back().file_size, 2 * 2 * 1024);
  }
  {
    auto write = FileStoreWrite::Open(table).value();
    ASSERT_OK(write->Compact(PartitionRow("d1"), 0, false));
    Status st = Commit(path, write.get(), 100);
    ASSERT_OK(st);
    ASSERT_OK(write->Close());
  }
  std::vector<DataFileMeta> after = LiveFiles(path);
  EXPECT_LT(after.size(), before.size());
  for (const std::string& name : large) {
    EXPECT_TRUE(std::any_of(after.begin(), after.end(), [&](const DataFileMeta& f) {
      return f.file_name == name;
    })) << name;
  }
  EXPECT_EQ(ReadAll(path), Render(all, /*sorted=*/true));
  ExpectSound(path);
}

TEST(AppendCompactCoordinatorTest, RejectsOtherTablesAndUncommittedCompactionsLeaveNoFiles) {
  test::TempDir dir;
  const std::string path = dir.path() + "/db.db/t";
  CreateTestTable(path, Fields(), {"dt"}, {}, {{"bucket", "2"}, {"bucket-key", "id"}});
  auto table = FileStoreTable::Open(LocalFileIO(), path).value();
  EXPECT_TRUE(test::HasError(PlanAppendCompaction(*table, std::nullopt, false),
                             StatusCode::kInvalidArgument,
                             {"table " + path + " is not a bucket-unaware append table"}));

  const std::string unaware = dir.path() + "/db.db/u";
  CreateTestTable(unaware, Fields(), {"dt"}, {}, {{"bucket", "-1"}});
  const DataTypePtr row_type =
      FileStoreTable::Open(LocalFileIO(), unaware).value()->schema().LogicalRowType();
  for (int commit = 0; commit < 5; ++commit) {
    auto write = FileStoreWrite::Open(FileStoreTable::Open(LocalFileIO(), unaware).value()).value();
    ASSERT_OK(WriteRows(write.get(), row_type, Rows("d1", commit * 10, 10), {}));
    ASSERT_OK(Commit(unaware, write.get(), commit));
    ASSERT_OK(write->Close());
  }
  const size_t files_before = test::ListFilesRecursive(unaware).size();
  auto write = FileStoreWrite::Open(FileStoreTable::Open(LocalFileIO(), unaware).value()).value();
  ASSERT_OK(write->Compact(PartitionRow("d1"), 0, true));
  EXPECT_GT(test::ListFilesRecursive(unaware).size(), files_before);
  ASSERT_OK(write->Close());
  EXPECT_EQ(test::ListFilesRecursive(unaware).size(), files_before);
}

}  // namespace
}  // namespace sluice
