// LookupLevels over in-memory data files: the newest record of a key at or above a level, the
// row position and file it lives in, lookup files built once and dropped with their data file;
// and the LookupFileCache's retention and disk bound.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lsm/compaction_test_util.h"
#include "sluice/fs/file_io.h"
#include "sluice/io/key_value_layout.h"
#include "sluice/lsm/lookup/lookup_levels.h"
#include "sluice/row/binary_row.h"
#include "test_util.h"
#include "types/field_util.h"

namespace sluice {
namespace {

struct Record {
  int64_t key;
  std::string value;
  int64_t sequence;
  RowKind kind = RowKind::kInsert;
};

DataTypePtr RecordType() {
  return DataType::Row(
      {test::Field(0, "k", DataType::BigInt(false)), test::Field(1, "v", DataType::String()),
       test::Field(kSequenceNumberFieldId, kSequenceNumberFieldName, DataType::BigInt(false)),
       test::Field(kValueKindFieldId, kValueKindFieldName, DataType::TinyInt(false))});
}

// Yields one file's records in batches of two rows.
class VectorReader final : public SortedRunReader {
 public:
  VectorReader(std::vector<Record> records, int32_t level)
      : records_(std::move(records)), level_(level) {}
  Result<bool> Next(ColumnBatch* batch) override {
    batch->Clear();
    if (next_ >= records_.size()) return false;
    for (int i = 0; i < 2 && next_ < records_.size(); ++i, ++next_) {
      const Record& r = records_[next_];
      SLUICE_RETURN_NOT_OK(
          batch->AppendRow({Value::Int64(r.key), Value::String(r.value), Value::Int64(r.sequence),
                            Value::Int8(static_cast<int8_t>(r.kind))}));
    }
    return true;
  }
  int32_t level() const override { return level_; }

 private:
  std::vector<Record> records_;
  size_t next_ = 0;
  int32_t level_;
};

class LookupLevelsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK_AND_ASSIGN(
        cache_, LookupFileCache::Make(LocalFileIO(), dir_.path(), {}, [this] { return now_; }));
    ASSERT_OK_AND_ASSIGN(
        levels_,
        LookupLevels::Make(test::BigIntKeyType(), RecordType(), {0},
                           KeyValueMergeOrder({DataType::BigInt(false)}, std::nullopt),
                           [this](const DataFileMeta& meta) { return Open(meta); }, cache_, {}));
  }

  Result<std::unique_ptr<SortedRunReader>> Open(const DataFileMeta& meta) {
    ++opened_[meta.file_name];
    auto it = files_.find(meta.file_name);
    if (it == files_.end()) return Status::NotFound("data file " + meta.file_name);
    return std::unique_ptr<SortedRunReader>(std::make_unique<VectorReader>(it->second, meta.level));
  }

  // A data file on `level` holding `records` (in key order).
  LevelFilePtr AddFile(const std::string& name, int level, std::vector<Record> records) {
    LevelFilePtr file = test::File(name, level, records.front().key, records.back().key, 100);
    files_[name] = std::move(records);
    return file;
  }

  std::optional<PositionedKeyValue> Find(int64_t key, int start_level) {
    Result<std::optional<PositionedKeyValue>> found =
        levels_->Lookup({Value::Int64(key)}, start_level);
    EXPECT_OK(found);
    return found.ok() ? *found : std::nullopt;
  }

  test::TempDir dir_;
  int64_t now_ = 0;
  std::shared_ptr<LookupFileCache> cache_;
  std::unique_ptr<LookupLevels> levels_;
  std::map<std::string, std::vector<Record>> files_;
  std::map<std::string, int> opened_;
};

TEST_F(LookupLevelsTest, NewestRecordAtOrAboveTheStartLevel) {
  LevelFilePtr l0_new = AddFile("l0-new", 0, {{5, "five-l0-new", 30}});
  LevelFilePtr l0_old = AddFile("l0-old", 0, {{1, "one-l0", 20}, {5, "five-l0-old", 21}});
  LevelFilePtr l1_a = AddFile("l1-a", 1, {{1, "one-l1", 10}, {3, "three-l1", 11}});
  LevelFilePtr l1_b = AddFile("l1-b", 1, {{6, "six-l1", 12, RowKind::kDelete}, {9, "nine", 13}});
  LevelFilePtr l3 = AddFile("l3", 3, {{2, "two", 1}, {3, "three-l3", 2}, {6, "six-l3", 3}});
  levels_->SetRuns({SortedRun::FromSingle(l0_new), SortedRun::FromSingle(l0_old),
                    SortedRun::FromSorted({l1_a, l1_b}), SortedRun::FromSingle(l3)});

  std::optional<PositionedKeyValue> five = Find(5, 0);
  ASSERT_TRUE(five);
  EXPECT_EQ(five->key_value.value[1], Value::String("five-l0-new"));
  EXPECT_EQ(five->key_value.sequence_number, 30);
  EXPECT_EQ(five->key_value.level, 0);
  EXPECT_EQ(five->file_name, "l0-new");
  EXPECT_EQ(five->row_position, 0);
  EXPECT_FALSE(Find(5, 1));

  std::optional<PositionedKeyValue> one = Find(1, 1);
  ASSERT_TRUE(one);
  EXPECT_EQ(one->key_value.value[1], Value::String("one-l1"));
  EXPECT_EQ(one->file_name, "l1-a");

  std::optional<PositionedKeyValue> three = Find(3, 2);
  ASSERT_TRUE(three);
  EXPECT_EQ(three->key_value.value, (ValueList{Value::Int64(3), Value::String("three-l3")}));
  EXPECT_EQ(three->file_name, "l3");
  EXPECT_EQ(three->row_position, 1);
  EXPECT_EQ(three->key_value.level, 3);

  std::optional<PositionedKeyValue> six = Find(6, 0);
  ASSERT_TRUE(six);
  EXPECT_EQ(six->key_value.kind, RowKind::kDelete);
  EXPECT_EQ(six->row_position, 0);
  EXPECT_EQ(six->file_name, "l1-b");

  EXPECT_FALSE(Find(4, 0));    // in ranges, in no file
  EXPECT_FALSE(Find(100, 0));  // beyond every range: no file is read
  EXPECT_EQ(opened_["l3"], 1);

  ASSERT_OK_AND_ASSIGN(std::vector<PositionedKeyValue> all,
                       levels_->LookupAll({Value::Int64(3)}, 0));
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].file_name, "l1-a");
  EXPECT_EQ(all[1].file_name, "l3");
  EXPECT_EQ(all[1].key_value.sequence_number, 2);
}

TEST_F(LookupLevelsTest, LookupFilesAreBuiltOnceAndDroppedWithTheirDataFile) {
  LevelFilePtr a = AddFile("a", 1, {{1, "one", 1}, {2, "two", 2}});
  LevelFilePtr b = AddFile("b", 2, {{1, "old-one", 0}, {7, "seven", 0}});
  levels_->SetRuns({SortedRun::FromSingle(a), SortedRun::FromSingle(b)});
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(Find(1, 0));
    ASSERT_TRUE(Find(7, 0));
  }
  EXPECT_EQ(opened_["a"], 1);
  EXPECT_EQ(opened_["b"], 1);
  EXPECT_EQ(cache_->size(), 2u);
  const int64_t disk = cache_->disk_size();
  EXPECT_GT(disk, 0);

  // A compaction merged `a` into `c`: a's lookup file goes, b's stays.
  LevelFilePtr c = AddFile("c", 1, {{1, "new-one", 5}, {2, "two", 2}});
  levels_->SetRuns({SortedRun::FromSingle(c), SortedRun::FromSingle(b)});
  EXPECT_EQ(cache_->size(), 1u);
  std::optional<PositionedKeyValue> one = Find(1, 0);
  ASSERT_TRUE(one);
  EXPECT_EQ(one->key_value.value[1], Value::String("new-one"));
  EXPECT_EQ(opened_["b"], 1);
}

TEST_F(LookupLevelsTest, UnusedLookupFilesExpireAfterTheRetention) {
  LevelFilePtr a = AddFile("a", 1, {{1, "one", 1}});
  levels_->SetRuns({SortedRun::FromSingle(a)});
  ASSERT_TRUE(Find(1, 0));
  ASSERT_EQ(cache_->size(), 1u);
  now_ += cache_->options().cache_file_retention_millis - 1;
  ASSERT_TRUE(Find(1, 0));
  EXPECT_EQ(opened_["a"], 1);
  now_ += cache_->options().cache_file_retention_millis;
  EXPECT_EQ(cache_->Get("a"), nullptr);
  EXPECT_EQ(cache_->size(), 0u);
  EXPECT_EQ(test::ListFilesRecursive(cache_->directory()).size(), 0u);
  ASSERT_TRUE(Find(1, 0));
  EXPECT_EQ(opened_["a"], 2);
}

TEST_F(LookupLevelsTest, DiskBoundEvictsTheLeastRecentlyUsedFile) {
  LookupOptions options;
  std::vector<Record> records;
  for (int64_t k = 0; k < 200; ++k) records.push_back({k, std::string(50, 'v'), k});
  // One lookup file's size, to set the bound at two and a half of them.
  {
    LevelFilePtr probe = AddFile("probe", 1, records);
    ASSERT_OK_AND_ASSIGN(std::shared_ptr<LookupFile> file,
                         levels_->GetOrCreateLookupFile(probe->meta));
    options.cache_max_disk_size = file->size_bytes() * 5 / 2;
  }
  ASSERT_OK_AND_ASSIGN(
      cache_, LookupFileCache::Make(LocalFileIO(), dir_.path(), options, [this] { return now_; }));
  ASSERT_OK_AND_ASSIGN(
      levels_,
      LookupLevels::Make(test::BigIntKeyType(), RecordType(), {0},
                         KeyValueMergeOrder({DataType::BigInt(false)}, std::nullopt),
                         [this](const DataFileMeta& meta) { return Open(meta); }, cache_, {}));
  std::vector<LevelFilePtr> files;
  for (int level = 1; level <= 3; ++level) {
    files.push_back(AddFile("f" + std::to_string(level), level, records));
  }
  std::vector<SortedRun> runs;
  for (const LevelFilePtr& f : files) runs.push_back(SortedRun::FromSingle(f));
  levels_->SetRuns(runs);
  for (int level = 1; level <= 3; ++level) {
    ++now_;
    ASSERT_TRUE(Find(3, level));
  }
  // The third file pushed the oldest (level 1) out.
  EXPECT_EQ(cache_->size(), 2u);
  EXPECT_LE(cache_->disk_size(), options.cache_max_disk_size);
  EXPECT_EQ(cache_->Get("f1"), nullptr);
  EXPECT_NE(cache_->Get("f3"), nullptr);
  EXPECT_EQ(test::ListFilesRecursive(cache_->directory()).size(), 2u);
}

TEST_F(LookupLevelsTest, ReaderErrorsReachTheCallerAndLeaveNoFile) {
  LevelFilePtr ghost = test::File("ghost", 1, 0, 10, 100);
  levels_->SetRuns({SortedRun::FromSingle(ghost)});
  EXPECT_TRUE(
      test::HasError(levels_->Lookup({Value::Int64(3)}, 0), StatusCode::kNotFound, {"ghost"}));
  EXPECT_EQ(cache_->size(), 0u);
  EXPECT_EQ(test::ListFilesRecursive(cache_->directory()).size(), 0u);
}

TEST_F(LookupLevelsTest, PositionOnlyLookupFilesKeepNoValue) {
  ASSERT_OK_AND_ASSIGN(levels_, LookupLevels::Make(
                                    test::BigIntKeyType(), RecordType(), {0},
                                    KeyValueMergeOrder({DataType::BigInt(false)}, std::nullopt),
                                    [this](const DataFileMeta& meta) { return Open(meta); }, cache_,
                                    LookupLevels::Options{/*persist_value=*/false}));
  LevelFilePtr a = AddFile("a", 2, {{4, "four", 9}, {8, "eight", 10}});
  levels_->SetRuns({SortedRun::FromSingle(a)});
  std::optional<PositionedKeyValue> eight = Find(8, 1);
  ASSERT_TRUE(eight);
  EXPECT_TRUE(eight->key_value.value.empty());
  EXPECT_EQ(eight->key_value.sequence_number, 10);
  EXPECT_EQ(eight->row_position, 1);
}

}  // namespace
}  // namespace sluice
