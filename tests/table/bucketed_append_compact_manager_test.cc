// Append-table compaction: the picks of Java's BucketedAppendCompactManagerTest (min.file-num 4,
// target-file-size 1024, files named by their sequence ranges and sized by them), full
// compaction rules, and a real bucket whose small files are rewritten, committed and read back.
#include "sluice/table/sink/bucketed_append_compact_manager.h"

#include <gtest/gtest.h>

#include "compaction_test_util.h"
#include "sluice/table/sink/append_compact_rewriter.h"
#include "sluice/table/table_checker.h"
#include "test_util.h"

namespace sluice {
namespace {

// Java DataFileTestUtils.newFile(minSeq, maxSeq): size maxSeq - minSeq + 1.
DataFileMeta NewFile(int64_t min_seq, int64_t max_seq) {
  DataFileMeta meta;
  meta.file_name = std::to_string(min_seq) + "-" + std::to_string(max_seq);
  meta.file_size = max_seq - min_seq + 1;
  meta.min_sequence_number = min_seq;
  meta.max_sequence_number = max_seq;
  meta.min_key = EmptySerializedRow();
  meta.max_key = EmptySerializedRow();
  return meta;
}

std::vector<std::string> Names(const std::vector<DataFileMeta>& files) {
  std::vector<std::string> names;
  for (const DataFileMeta& f : files) names.push_back(f.file_name);
  return names;
}

BucketedAppendCompactManager::Options JavaTestOptions() {
  BucketedAppendCompactManager::Options options;
  options.min_file_num = 4;
  options.target_file_size = 1024;
  options.compaction_file_size = 1024 / 10 * 7;
  return options;
}

void ExpectPick(const std::vector<DataFileMeta>& before_pick,
                const std::optional<std::vector<std::string>>& picked,
                const std::vector<std::string>& left) {
  BucketedAppendCompactManager manager(
      before_pick, [](const std::vector<DataFileMeta>&) { return std::vector<DataFileMeta>{}; },
      JavaTestOptions());
  std::optional<std::vector<DataFileMeta>> actual = manager.PickCompactBefore();
  ASSERT_EQ(actual.has_value(), picked.has_value());
  if (picked) EXPECT_EQ(Names(*actual), *picked);
  EXPECT_EQ(Names(manager.to_compact()), left);
}

TEST(BucketedAppendCompactManagerTest, PickEmptyAndHold) {
  ExpectPick({NewFile(1, 50)}, std::nullopt, {"1-50"});
  ExpectPick({NewFile(1, 500), NewFile(501, 1000)}, std::nullopt, {"1-500", "501-1000"});
}

TEST(BucketedAppendCompactManagerTest, PickEmptyAndRelease) {
  ExpectPick({NewFile(1, 2048)}, std::nullopt, {});
  ExpectPick({NewFile(1, 2048), NewFile(2049, 2100)}, std::nullopt, {"2049-2100"});
  ExpectPick({NewFile(1, 2048), NewFile(2049, 2100), NewFile(2101, 2110)}, std::nullopt,
             {"2049-2100", "2101-2110"});
  ExpectPick({NewFile(1, 2048), NewFile(2049, 4096), NewFile(4097, 5000)}, std::nullopt,
             {"4097-5000"});
  ExpectPick({NewFile(1, 1024), NewFile(1025, 2049), NewFile(2050, 2500), NewFile(2501, 4096),
              NewFile(4097, 6000), NewFile(6001, 7000), NewFile(7001, 7600)},
             std::nullopt, {"6001-7000", "7001-7600"});
  // A single small file in the middle is passed over.
  ExpectPick({NewFile(1, 2048), NewFile(2049, 4096), NewFile(4097, 4100), NewFile(4101, 6150)},
             std::nullopt, {"4101-6150"});
  ExpectPick({NewFile(1, 2048), NewFile(2049, 4096), NewFile(4097, 5000), NewFile(5001, 6144),
              NewFile(6145, 7048)},
             std::nullopt, {"6145-7048"});
  ExpectPick({NewFile(1, 500), NewFile(501, 1000), NewFile(1001, 2048)}, std::nullopt,
             {"501-1000", "1001-2048"});
  ExpectPick({NewFile(1, 2050), NewFile(2051, 2100), NewFile(2101, 2110)}, std::nullopt,
             {"2051-2100", "2101-2110"});
}

TEST(BucketedAppendCompactManagerTest, PicksMinFileNumConsecutiveFiles) {
  // Restored out of order: waiting files are ordered by min sequence number.
  ExpectPick({NewFile(21, 30), NewFile(1, 10), NewFile(11, 20), NewFile(31, 40), NewFile(41, 50)},
             std::vector<std::string>{"1-10", "11-20", "21-30", "31-40"}, {"41-50"});
  ExpectPick({NewFile(1, 2048), NewFile(2049, 2060), NewFile(2061, 2070), NewFile(2071, 2080),
              NewFile(2081, 2090)},
             std::vector<std::string>{"2049-2060", "2061-2070", "2071-2080", "2081-2090"}, {});
}

struct Recorder {
  std::vector<std::vector<std::string>> calls;
  BucketedAppendCompactManager::Rewrite Rewrite(int64_t out_size) {
    return [this, out_size](const std::vector<DataFileMeta>& files) {
      calls.push_back(Names(files));
      DataFileMeta out =
          NewFile(files.front().min_sequence_number, files.back().max_sequence_number);
      out.file_name = "out" + std::to_string(calls.size());
      out.file_size = out_size;
      return Result<std::vector<DataFileMeta>>(std::vector<DataFileMeta>{out});
    };
  }
};

TEST(BucketedAppendCompactManagerTest, NormalCompactionRewritesPickAndRequeuesSmallOutput) {
  Recorder rec;
  BucketedAppendCompactManager manager({}, rec.Rewrite(100), JavaTestOptions());
  for (int i = 0; i < 4; ++i) ASSERT_OK(manager.AddNewFile(NewFile(i * 10 + 1, i * 10 + 10)));
  ASSERT_OK(manager.TriggerCompaction(false));
  auto result = manager.GetCompactionResult(true);
  ASSERT_OK(result);
  ASSERT_TRUE(result->has_value());
  EXPECT_EQ(Names((*result)->before),
            (std::vector<std::string>{"1-10", "11-20", "21-30", "31-40"}));
  EXPECT_EQ(Names((*result)->after), (std::vector<std::string>{"out1"}));
  // The output is still small: it waits for the next compaction.
  EXPECT_EQ(Names(manager.AllFiles()), (std::vector<std::string>{"out1"}));
  EXPECT_FALSE(manager.ShouldWaitForLatestCompaction());
}

TEST(BucketedAppendCompactManagerTest, FullCompaction) {
  {
    // Fewer than 3 files: nothing to do.
    Recorder rec;
    BucketedAppendCompactManager manager({NewFile(1, 10), NewFile(11, 20)}, rec.Rewrite(10),
                                         JavaTestOptions());
    ASSERT_OK(manager.TriggerCompaction(true));
    EXPECT_FALSE(manager.CompactNotCompleted());
  }
  {
    // Leading large files are skipped; small ones outnumber the rest: rewritten.
    Recorder rec;
    BucketedAppendCompactManager manager(
        {NewFile(1, 2000), NewFile(2001, 2010), NewFile(2011, 2020), NewFile(2021, 4000)},
        rec.Rewrite(2000), JavaTestOptions());
    ASSERT_OK(manager.TriggerCompaction(true));
    auto result = manager.GetCompactionResult(true);
    ASSERT_OK(result);
    ASSERT_TRUE(result->has_value());
    ASSERT_EQ(rec.calls.size(), 1u);
    EXPECT_EQ(rec.calls[0], (std::vector<std::string>{"2001-2010", "2011-2020", "2021-4000"}));
    EXPECT_TRUE(manager.AllFiles().empty());
  }
  {
    // As many large files as small ones: no rewrite.
    Recorder rec;
    BucketedAppendCompactManager manager(
        {NewFile(1, 10), NewFile(11, 2000), NewFile(2001, 2010), NewFile(2011, 4000)},
        rec.Rewrite(10), JavaTestOptions());
    ASSERT_OK(manager.TriggerCompaction(true));
    auto result = manager.GetCompactionResult(true);
    ASSERT_OK(result);
    ASSERT_TRUE(result->has_value());
    EXPECT_TRUE((*result)->empty());
    EXPECT_TRUE(rec.calls.empty());
  }
}

TEST(BucketedAppendCompactManagerTest, RewritesRealFilesAndTheTableReadsTheSame) {
  test::TempDir dir;
  const std::string path = dir.path() + "/t";
  auto table = test::CreateTestTable(
      path,
      {DataField{0, "id", DataType::BigInt(), std::nullopt, std::nullopt},
       DataField{1, "name", DataType::String(), std::nullopt, std::nullopt}},
      {}, {}, {{"bucket", "1"}, {"bucket-key", "id"}, {"compaction.min.file-num", "3"}});
  const DataTypePtr row_type = table->schema().LogicalRowType();
  std::vector<std::string> expected;
  for (int64_t commit = 1; commit <= 4; ++commit) {
    auto write = FileStoreWrite::Open(table).value();
    std::vector<ValueList> rows;
    for (int64_t i = 0; i < 10; ++i) {
      rows.push_back({Value::Int64(commit * 100 + i), Value::String("r" + std::to_string(i))});
      expected.push_back(Value::Row(rows.back()).DebugString());
    }
    ASSERT_OK(test::WriteRows(write.get(), row_type, rows, {}));
    ASSERT_OK(test::Commit(path, write.get(), commit));
    ASSERT_OK(write->Close());
  }
  std::sort(expected.begin(), expected.end());
  std::vector<DataFileMeta> files = test::LiveFiles(path);
  ASSERT_EQ(files.size(), 4u);

  auto writers = DataFileWriterFactory::Make(table->io(), table->schema_ptr(), table->options(),
                                             BucketPath(path, "", 0))
                     .value();
  auto manager =
      MakeBucketedAppendCompactManager(table, EmptySerializedRow(), 0, files, writers).value();
  ASSERT_OK(manager->TriggerCompaction(false));
  auto result = manager->GetCompactionResult(true);
  ASSERT_OK(result);
  ASSERT_TRUE(result->has_value());
  ASSERT_EQ((*result)->before.size(), 3u);
  ASSERT_EQ((*result)->after.size(), 1u);
  const DataFileMeta& out = (*result)->after[0];
  EXPECT_EQ(out.row_count, 30);
  EXPECT_EQ(out.file_source, FileSource::kCompact);
  EXPECT_EQ(out.min_sequence_number, (*result)->before[0].min_sequence_number);
  EXPECT_EQ(out.max_sequence_number, (*result)->before[2].max_sequence_number);

  CommitMessageImpl message;
  message.partition = EmptySerializedRow();
  message.bucket = 0;
  message.total_buckets = 1;
  message.compact.compact_before = (*result)->before;
  message.compact.compact_after = (*result)->after;
  auto commit = FileStoreCommit::Make(table, "compaction-test").value();
  ManifestCommittable committable;
  committable.identifier = 5;
  committable.messages = {message};
  ASSERT_OK(commit->Commit(committable));
  EXPECT_EQ(test::LiveFiles(path).size(), 2u);
  EXPECT_EQ(test::ReadAll(path), expected);
  Status st = CheckTable(*FileStoreTable::Open(LocalFileIO(), path).value());
  EXPECT_OK(st);
}

}  // namespace
}  // namespace sluice
