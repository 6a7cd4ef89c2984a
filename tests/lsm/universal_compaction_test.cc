// Universal compaction picks: the cases and expected picks of Java's UniversalCompactionTest
// (paimon-core mergetree/compact), re-stated here.
#include "sluice/lsm/universal_compaction.h"

#include <gtest/gtest.h>

#include <numeric>

#include "compaction_test_util.h"
#include "sluice/lsm/force_up_level0_compaction.h"

namespace sluice {
namespace {

using test::Level0;
using test::SizedRun;
using test::Sizes;

std::unique_ptr<UniversalCompaction> Universal(int max_size_amp, int size_ratio, int trigger) {
  return std::make_unique<UniversalCompaction>(max_size_amp, size_ratio, trigger);
}

std::vector<LevelSortedRun> OnLevels(const std::vector<int>& levels) {
  std::vector<LevelSortedRun> runs;
  for (int level : levels) runs.push_back(SizedRun(level, 1));
  return runs;
}

std::vector<int64_t> Prepend1(const std::vector<int64_t>& sizes) {
  std::vector<int64_t> out = {1};
  out.insert(out.end(), sizes.begin(), sizes.end());
  return out;
}

// A new 1-byte run arrives; if size amplification picks, everything becomes one run.
std::vector<int64_t> AppendAndPickForSizeAmp(UniversalCompaction* c, std::vector<int64_t> sizes) {
  sizes = Prepend1(sizes);
  std::optional<CompactUnit> unit = c->PickForSizeAmp(3, Level0(sizes));
  if (!unit) return sizes;
  std::vector<int64_t> picked = Sizes(unit->files);
  return {std::accumulate(picked.begin(), picked.end(), int64_t{0})};
}

// Runs on levels 0, 1, 2, ... of the given sizes; the picked prefix becomes one run.
std::vector<int64_t> PickForSizeRatio(UniversalCompaction* c, const std::vector<int64_t>& sizes) {
  std::vector<LevelSortedRun> runs;
  for (size_t i = 0; i < sizes.size(); ++i) runs.push_back(SizedRun(static_cast<int>(i), sizes[i]));
  std::optional<CompactUnit> unit = c->PickForSizeRatio(static_cast<int>(sizes.size()), runs);
  if (!unit) return sizes;
  std::vector<int64_t> picked = Sizes(unit->files);
  std::vector<int64_t> out = {std::accumulate(picked.begin(), picked.end(), int64_t{0})};
  out.insert(out.end(), sizes.begin() + static_cast<std::ptrdiff_t>(picked.size()), sizes.end());
  return out;
}

std::vector<int64_t> AppendAndPickForSizeRatio(UniversalCompaction* c,
                                               const std::vector<int64_t>& sizes) {
  return PickForSizeRatio(c, Prepend1(sizes));
}

TEST(UniversalCompactionTest, OutputLevel) {
  auto c = Universal(25, 1, 3);
  auto runs = OnLevels({0, 0, 1, 3, 4});
  EXPECT_EQ(c->CreateUnit(runs, 5, 1).output_level, 1);
  EXPECT_EQ(c->CreateUnit(runs, 5, 2).output_level, 1);
  EXPECT_EQ(c->CreateUnit(runs, 5, 3).output_level, 2);
  EXPECT_EQ(c->CreateUnit(runs, 5, 4).output_level, 3);
  EXPECT_EQ(c->CreateUnit(runs, 5, 5).output_level, 5);
}

TEST(UniversalCompactionTest, Pick) {
  auto c = Universal(25, 1, 3);
  // By size amplification.
  std::optional<CompactUnit> pick = c->Pick(3, Level0({1, 2, 3, 3}));
  ASSERT_TRUE(pick);
  EXPECT_EQ(Sizes(pick->files), (std::vector<int64_t>{1, 2, 3, 3}));
  EXPECT_EQ(pick->output_level, 2);
  // By size ratio.
  pick = c->Pick(4, {SizedRun(0, 1), SizedRun(1, 1), SizedRun(2, 1), SizedRun(3, 50)});
  ASSERT_TRUE(pick);
  EXPECT_EQ(Sizes(pick->files), (std::vector<int64_t>{1, 1, 1}));
  // By file number: 3 joins by size ratio after the file-number pick.
  pick = c->Pick(4, {SizedRun(0, 1), SizedRun(1, 2), SizedRun(2, 3), SizedRun(3, 50)});
  ASSERT_TRUE(pick);
  EXPECT_EQ(Sizes(pick->files), (std::vector<int64_t>{1, 2, 3}));
}

TEST(UniversalCompactionTest, NothingBelowTrigger) {
  auto c = Universal(25, 1, 3);
  EXPECT_FALSE(c->Pick(3, Level0({1, 100})));
  EXPECT_FALSE(c->Pick(3, {}));
}

TEST(UniversalCompactionTest, OptimizedCompactionInterval) {
  int64_t now = 0;
  auto early = std::make_unique<EarlyFullCompaction>(1000, std::nullopt, std::nullopt, std::nullopt,
                                                     [&] { return now; });
  UniversalCompaction c(100, 1, 3, std::move(early));
  // First time: an optimized (full) compaction.
  std::optional<CompactUnit> pick = c.Pick(3, {SizedRun(0, 1), SizedRun(1, 3), SizedRun(2, 5)});
  ASSERT_TRUE(pick);
  EXPECT_EQ(Sizes(pick->files), (std::vector<int64_t>{1, 3, 5}));
  // The interval has passed.
  now = 1001;
  pick = c.Pick(3, {SizedRun(0, 1), SizedRun(1, 3), SizedRun(2, 5)});
  ASSERT_TRUE(pick);
  EXPECT_EQ(Sizes(pick->files), (std::vector<int64_t>{1, 3, 5}));
  // It has not.
  EXPECT_FALSE(c.Pick(3, {SizedRun(0, 1), SizedRun(1, 3), SizedRun(2, 5)}));
  // Size amplification picks, and counts as a full compaction.
  now = 1500;
  pick = c.Pick(3, {SizedRun(0, 3), SizedRun(1, 3), SizedRun(2, 5)});
  ASSERT_TRUE(pick);
  EXPECT_EQ(Sizes(pick->files), (std::vector<int64_t>{3, 3, 5}));
  now = 2001;
  EXPECT_FALSE(c.Pick(3, {SizedRun(0, 1), SizedRun(1, 3), SizedRun(2, 5)}));
}

TEST(UniversalCompactionTest, TotalSizeThreshold) {
  UniversalCompaction c(100, 1, 3,
                        std::make_unique<EarlyFullCompaction>(std::nullopt, 10, std::nullopt));
  std::optional<CompactUnit> pick = c.Pick(3, {SizedRun(0, 1), SizedRun(1, 3), SizedRun(2, 5)});
  ASSERT_TRUE(pick);
  EXPECT_EQ(Sizes(pick->files), (std::vector<int64_t>{1, 3, 5}));
  EXPECT_FALSE(c.Pick(3, {SizedRun(0, 2), SizedRun(1, 6), SizedRun(2, 10)}));
  // A single run is never compacted by the threshold.
  EXPECT_FALSE(c.Pick(3, {SizedRun(3, 5)}));
}

TEST(UniversalCompactionTest, IncrementalSizeThreshold) {
  UniversalCompaction c(1000, 1, 10,
                        std::make_unique<EarlyFullCompaction>(std::nullopt, std::nullopt, 5));
  // Files above the max level: 2 + 3 = 5, not above the threshold.
  EXPECT_FALSE(c.Pick(3, {SizedRun(0, 2), SizedRun(1, 3), SizedRun(2, 100)}));
  std::optional<CompactUnit> pick = c.Pick(3, {SizedRun(0, 3), SizedRun(1, 3), SizedRun(2, 100)});
  ASSERT_TRUE(pick);
  EXPECT_EQ(pick->output_level, 2);
  EXPECT_EQ(Sizes(pick->files), (std::vector<int64_t>{3, 3, 100}));
}

TEST(UniversalCompactionTest, NoOutputLevel0) {
  auto c = Universal(25, 1, 3);
  std::optional<CompactUnit> pick =
      c->Pick(3, {SizedRun(0, 1), SizedRun(0, 1), SizedRun(1, 1), SizedRun(2, 50)});
  ASSERT_TRUE(pick);
  EXPECT_EQ(Sizes(pick->files), (std::vector<int64_t>{1, 1, 1}));
  EXPECT_EQ(pick->output_level, 1);
  pick = c->Pick(3, {SizedRun(0, 1), SizedRun(0, 2), SizedRun(1, 3), SizedRun(2, 50)});
  ASSERT_TRUE(pick);
  EXPECT_EQ(Sizes(pick->files), (std::vector<int64_t>{1, 2, 3}));
}

TEST(UniversalCompactionTest, FileNumCompactionConsidersLevel2) {
  auto c = Universal(200, 1, 3);
  std::optional<CompactUnit> pick =
      c->Pick(3, {SizedRun(0, 10), SizedRun(0, 20), SizedRun(1, 97), SizedRun(2, 100)});
  ASSERT_TRUE(pick);
  EXPECT_EQ(pick->files.size(), 4u);
  EXPECT_EQ(pick->output_level, 2);
}

TEST(UniversalCompactionTest, ExtremeCaseNoOutputLevel0) {
  auto c = Universal(200, 1, 5);
  std::optional<CompactUnit> pick = c->Pick(6, Level0({1, 1, 1, 1024, 1024 * 1024}));
  ASSERT_TRUE(pick);
  EXPECT_EQ(Sizes(pick->files), (std::vector<int64_t>{1, 1, 1, 1024, 1024 * 1024}));
  EXPECT_EQ(pick->output_level, 5);
}

TEST(UniversalCompactionTest, SizeAmplification) {
  auto c = Universal(25, 0, 1);
  std::vector<int64_t> sizes = {1};
  const std::vector<std::vector<int64_t>> expected = {
      {2},  {3},     {4},        {1, 4}, {6},     {1, 6},     {8},           {1, 8}, {1, 1, 8},
      {11}, {1, 11}, {1, 1, 11}, {14},   {1, 14}, {1, 1, 14}, {1, 1, 1, 14}, {18}};
  for (size_t step = 0; step < expected.size(); ++step) {
    sizes = AppendAndPickForSizeAmp(c.get(), sizes);
    EXPECT_EQ(sizes, expected[step]) << "step " << step;
  }
}

TEST(UniversalCompactionTest, SizeRatio) {
  auto c = Universal(25, 1, 5);
  std::vector<int64_t> sizes = {1, 1, 1, 1};
  const std::vector<std::vector<int64_t>> expected = {
      {5},          {1, 5},        {1, 1, 5},     {1, 1, 1, 5},     {4, 5},          {1, 4, 5},
      {1, 1, 4, 5}, {3, 4, 5},     {1, 3, 4, 5},  {2, 3, 4, 5},     {1, 2, 3, 4, 5}, {16},
      {1, 16},      {1, 1, 16},    {1, 1, 1, 16}, {4, 16},          {1, 4, 16},      {1, 1, 4, 16},
      {3, 4, 16},   {1, 3, 4, 16}, {2, 3, 4, 16}, {1, 2, 3, 4, 16}, {11, 16}};
  for (size_t step = 0; step < expected.size(); ++step) {
    sizes = AppendAndPickForSizeRatio(c.get(), sizes);
    EXPECT_EQ(sizes, expected[step]) << "step " << step;
  }
}

TEST(UniversalCompactionTest, SizeRatioThreshold) {
  const std::vector<int64_t> sizes = {8, 9, 10};
  EXPECT_EQ(PickForSizeRatio(Universal(25, 10, 2).get(), sizes), (std::vector<int64_t>{8, 9, 10}));
  EXPECT_EQ(PickForSizeRatio(Universal(25, 20, 2).get(), sizes), (std::vector<int64_t>{27}));
}

TEST(UniversalCompactionTest, OffPeakRatioWidensSizeRatio) {
  // Outside off-peak hours ratio 10 keeps 8 | 9 | 10 apart; inside, +10 joins them.
  int hour = 3;
  UniversalCompaction c(25, 10, 2, nullptr, OffPeakHours::Make(22, 6, 10), [&] { return hour; });
  EXPECT_EQ(PickForSizeRatio(&c, {8, 9, 10}), (std::vector<int64_t>{27}));
  hour = 12;
  EXPECT_EQ(PickForSizeRatio(&c, {8, 9, 10}), (std::vector<int64_t>{8, 9, 10}));
  EXPECT_FALSE(OffPeakHours::Make(-1, 6, 10));
  EXPECT_FALSE(OffPeakHours::Make(6, 6, 10));
}

TEST(UniversalCompactionTest, Lookup) {
  ForceUpLevel0Compaction c(Universal(25, 1, 3), std::nullopt);
  // Level 0 to the max level.
  std::optional<CompactUnit> pick = c.Pick(3, Level0({1, 2, 2, 2}));
  ASSERT_TRUE(pick);
  EXPECT_EQ(Sizes(pick->files), (std::vector<int64_t>{1, 2, 2, 2}));
  EXPECT_EQ(pick->output_level, 2);
  // Level 0 force-picked.
  pick = c.Pick(3, {SizedRun(0, 1), SizedRun(1, 2), SizedRun(2, 2)});
  ASSERT_TRUE(pick);
  EXPECT_EQ(Sizes(pick->files), (std::vector<int64_t>{1, 2, 2}));
  EXPECT_EQ(pick->output_level, 2);
  // Level 0 to an empty level.
  pick = c.Pick(3, {SizedRun(0, 1), SizedRun(2, 2)});
  ASSERT_TRUE(pick);
  EXPECT_EQ(Sizes(pick->files), (std::vector<int64_t>{1}));
  EXPECT_EQ(pick->output_level, 1);
}

TEST(UniversalCompactionTest, ForcePickL0EveryMaxInterval) {
  const int max_interval = 5;
  ForceUpLevel0Compaction c(std::make_unique<UniversalCompaction>(25, 1, 5), max_interval);
  struct Case {
    std::vector<LevelSortedRun> runs;
    std::vector<int64_t> picked;
    int output_level;
  };
  const std::vector<Case> cases = {
      {Level0({1, 2, 2, 2}), {1, 2, 2, 2}, 2},
      {{SizedRun(0, 2), SizedRun(1, 2), SizedRun(2, 2)}, {2, 2, 2}, 2},
      {{SizedRun(0, 1), SizedRun(2, 2)}, {1}, 1},
  };
  for (const Case& tc : cases) {
    for (int i = 1; i <= max_interval; ++i) {
      std::optional<CompactUnit> pick = c.Pick(3, tc.runs);
      if (i < max_interval) {
        EXPECT_FALSE(pick) << "call " << i;
        continue;
      }
      ASSERT_TRUE(pick);
      EXPECT_EQ(Sizes(pick->files), tc.picked);
      EXPECT_EQ(pick->output_level, tc.output_level);
    }
  }
}

TEST(UniversalCompactionTest, FullCompactionPick) {
  EXPECT_FALSE(PickFullCompaction(3, {}));
  // Only the max level: nothing to do unless every file is to be rewritten.
  EXPECT_FALSE(PickFullCompaction(3, {SizedRun(2, 5)}));
  std::optional<CompactUnit> rewrite = PickFullCompaction(3, {SizedRun(2, 5)}, true);
  ASSERT_TRUE(rewrite);
  EXPECT_TRUE(rewrite->file_rewrite);
  std::optional<CompactUnit> full = PickFullCompaction(3, {SizedRun(0, 1), SizedRun(1, 2)});
  ASSERT_TRUE(full);
  EXPECT_EQ(full->output_level, 2);
  EXPECT_FALSE(full->file_rewrite);
  EXPECT_EQ(Sizes(full->files), (std::vector<int64_t>{1, 2}));
}

}  // namespace
}  // namespace sluice
