#include "sluice/lsm/levels.h"

#include <gtest/gtest.h>

#include "compaction_test_util.h"
#include "sluice/lsm/interval_partition.h"
#include "test_util.h"

namespace sluice {
namespace {

using test::BigIntKeyType;
using test::FileMeta;
using test::Names;

TEST(LevelsTest, Level0NewestFirstAndOneRunPerHigherLevel) {
  std::vector<DataFileMeta> files = {
      FileMeta("a", 0, 1, 10, 100, 0, 5), FileMeta("b", 0, 1, 10, 100, 6, 9),
      FileMeta("c", 0, 1, 10, 100, 3, 9), FileMeta("d", 2, 20, 30, 100, 0, 1),
      FileMeta("e", 2, 1, 10, 100, 0, 1),
  };
  Result<Levels> levels = Levels::Make(BigIntKeyType(), files, 4);
  ASSERT_OK(levels);
  // Larger max sequence first; equal max sequence: smaller min sequence first.
  EXPECT_EQ(Names(levels->AllFiles()), (std::vector<std::string>{"c", "b", "a", "e", "d"}));
  EXPECT_EQ(levels->NumberOfSortedRuns(), 4);
  EXPECT_EQ(levels->number_of_levels(), 4);
  EXPECT_EQ(levels->NonEmptyHighestLevel(), 2);
  EXPECT_EQ(levels->TotalFileSize(), 500);
  std::vector<LevelSortedRun> runs = levels->LevelSortedRuns();
  ASSERT_EQ(runs.size(), 4u);
  EXPECT_EQ(runs[3].level, 2);
  EXPECT_EQ(runs[3].run.files().size(), 2u);
  EXPECT_EQ(runs[3].run.total_size(), 200);
}

TEST(LevelsTest, LevelsRestoredFromFilesAboveNumLevels) {
  Result<Levels> levels = Levels::Make(BigIntKeyType(), {FileMeta("a", 7, 1, 2, 1)}, 3);
  ASSERT_OK(levels);
  EXPECT_EQ(levels->number_of_levels(), 8);
  EXPECT_EQ(levels->max_level(), 7);
  EXPECT_TRUE(test::HasError(Levels::Make(BigIntKeyType(), std::vector<DataFileMeta>{}, 1),
                             StatusCode::kInvalidArgument,
                             {"number of levels must be at least 2, got 1"}));
}

TEST(LevelsTest, UpdateMovesFilesBetweenLevels) {
  Result<Levels> levels = Levels::Make(
      BigIntKeyType(), {FileMeta("a", 0, 1, 10, 1, 1, 1), FileMeta("b", 0, 5, 20, 1, 2, 2)}, 3);
  ASSERT_OK(levels);
  // b upgraded to level 2 as is, a rewritten into c on level 2.
  DataFileMeta b2 = FileMeta("b", 2, 5, 20, 1, 2, 2);
  DataFileMeta c = FileMeta("c", 2, 1, 4, 1, 1, 1);
  ASSERT_OK(levels->Update({FileMeta("a", 0, 1, 10, 1, 1, 1), FileMeta("b", 0, 5, 20, 1, 2, 2)},
                           std::vector<DataFileMeta>{b2, c}));
  EXPECT_TRUE(levels->level0().empty());
  EXPECT_EQ(Names(levels->AllFiles()), (std::vector<std::string>{"c", "b"}));
  EXPECT_EQ(levels->NumberOfSortedRuns(), 1);
}

TEST(LevelsTest, OverlappingFilesOnOneLevelAreCorruption) {
  Result<Levels> levels =
      Levels::Make(BigIntKeyType(), {FileMeta("x", 1, 1, 10, 1), FileMeta("y", 1, 10, 20, 1)}, 3);
  EXPECT_TRUE(test::HasError(levels, StatusCode::kCorruption, {"data files x and y"}));
}

TEST(LevelsTest, UndecodableKeyNamesTheFile) {
  DataFileMeta bad = FileMeta("broken-file", 0, 1, 2, 1);
  bad.max_key = "xyz";
  Result<Levels> levels = Levels::Make(BigIntKeyType(), {bad}, 3);
  EXPECT_TRUE(test::HasError(levels, StatusCode::kCorruption, {"data file broken-file: max key"}));
  Result<Levels> empty = Levels::Make(BigIntKeyType(), std::vector<DataFileMeta>{}, 3);
  ASSERT_OK(empty);
  EXPECT_TRUE(test::HasError(empty->Update({}, std::vector<DataFileMeta>{bad}),
                             StatusCode::kCorruption, {"data file broken-file: max key"}));
  EXPECT_TRUE(test::HasError(
      empty->Update({}, std::vector<DataFileMeta>{FileMeta("deep", 5, 1, 2, 1)}),
      StatusCode::kInvalidArgument, {"data file deep has level 5 beyond the tree's 2"}));
}

TEST(IntervalPartitionTest, SectionsOfFewestRuns) {
  // [1,5] [3,8] [6,9] chain into one section of two runs; [20,30] is alone; [30,40] touches it.
  std::vector<DataFileMeta> files = {FileMeta("a", 0, 1, 5, 1),   FileMeta("b", 0, 3, 8, 1),
                                     FileMeta("c", 0, 6, 9, 1),   FileMeta("d", 1, 20, 30, 1),
                                     FileMeta("e", 0, 30, 40, 1), FileMeta("f", 0, 50, 60, 1)};
  auto sections = IntervalPartition(files, *BigIntKeyType());
  ASSERT_OK(sections);
  ASSERT_EQ(sections->size(), 3u);
  std::multiset<std::vector<size_t>> first((*sections)[0].begin(), (*sections)[0].end());
  EXPECT_EQ(first, (std::multiset<std::vector<size_t>>{{0, 2}, {1}}));
  std::multiset<std::vector<size_t>> second((*sections)[1].begin(), (*sections)[1].end());
  EXPECT_EQ(second, (std::multiset<std::vector<size_t>>{{3}, {4}}));
  EXPECT_EQ((*sections)[2], (std::vector<SortedRunFiles>{{5}}));
}

}  // namespace
}  // namespace sluice
