#include "sluice/lsm/merge_tree_compact_manager.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "compaction_test_util.h"
#include "sluice/lsm/compact_increment_builder.h"
#include "test_util.h"

namespace sluice {
namespace {

using test::BigIntKeyType;
using test::FileMeta;
using test::Names;

struct RewriteCall {
  int output_level;
  bool drop_delete;
  std::vector<std::string> inputs;
};

// Merges every input into one file "c<N>" spanning the inputs' keys; records each call.
class FakeRewriter : public CompactRewriter {
 public:
  Result<CompactResult> Rewrite(int output_level, bool drop_delete,
                                const std::vector<std::vector<SortedRun>>& sections) override {
    CompactResult result;
    RewriteCall call{output_level, drop_delete, {}};
    int64_t min_key = INT64_MAX, max_key = INT64_MIN, size = 0, min_seq = INT64_MAX, max_seq = 0;
    for (const auto& section : sections) {
      for (const SortedRun& run : section) {
        for (const LevelFilePtr& f : run.files()) {
          result.before.push_back(f->meta);
          call.inputs.push_back(f->meta.file_name);
          min_key = std::min(min_key, f->min_key[0].int64());
          max_key = std::max(max_key, f->max_key[0].int64());
          size += f->meta.file_size;
          min_seq = std::min(min_seq, f->meta.min_sequence_number);
          max_seq = std::max(max_seq, f->meta.max_sequence_number);
        }
      }
    }
    if (fail) return Status::IOError("disk full");
    std::sort(call.inputs.begin(), call.inputs.end());
    calls.push_back(call);
    result.after.push_back(FileMeta("c" + std::to_string(calls.size()), output_level, min_key,
                                    max_key, size, min_seq, max_seq));
    return result;
  }

  std::vector<RewriteCall> calls;
  bool fail = false;
};

struct Fixture {
  std::shared_ptr<FakeRewriter> rewriter = std::make_shared<FakeRewriter>();
  std::unique_ptr<MergeTreeCompactManager> manager;

  explicit Fixture(std::vector<DataFileMeta> restored, int trigger = 3, int stop = 5,
                   int num_levels = 3, int64_t file_size = 100, bool background = false) {
    CompactionOptions options;
    options.num_sorted_run_compaction_trigger = trigger;
    options.num_sorted_run_stop_trigger = stop;
    options.num_levels = num_levels;
    options.target_file_size = file_size;
    options.small_file_ratio = 1.0;
    auto made =
        MergeTreeCompactManager::Make(options, BigIntKeyType(), restored, rewriter, background);
    EXPECT_OK(made);
    manager = std::move(made).value();
  }
};

TEST(MergeTreeCompactManagerTest, FileNumberTriggerMergesLevel0IntoMaxLevel) {
  Fixture fx({});
  for (int i = 0; i < 3; ++i) {
    ASSERT_OK(fx.manager->AddNewFile(FileMeta("l0-" + std::to_string(i), 0, i, i + 10, 10, i, i)));
    ASSERT_OK(fx.manager->TriggerCompaction(false));
  }
  // Three overlapping level-0 runs reach the trigger: size amplification takes them all.
  auto result = fx.manager->GetCompactionResult(true);
  ASSERT_OK(result);
  ASSERT_TRUE(result->has_value());
  std::vector<std::string> before = Names((*result)->before);
  std::sort(before.begin(), before.end());
  EXPECT_EQ(before, (std::vector<std::string>{"l0-0", "l0-1", "l0-2"}));
  EXPECT_EQ(Names((*result)->after), (std::vector<std::string>{"c1"}));
  ASSERT_EQ(fx.rewriter->calls.size(), 1u);
  EXPECT_EQ(fx.rewriter->calls[0].output_level, 2);
  EXPECT_TRUE(fx.rewriter->calls[0].drop_delete);
  EXPECT_EQ(Names(fx.manager->AllFiles()), (std::vector<std::string>{"c1"}));
  EXPECT_EQ(fx.manager->levels().RunOfLevel(2).files().size(), 1u);
  EXPECT_FALSE(fx.manager->CompactNotCompleted());
  // Nothing more to fetch.
  auto none = fx.manager->GetCompactionResult(true);
  ASSERT_OK(none);
  EXPECT_FALSE(none->has_value());
}

TEST(MergeTreeCompactManagerTest, LargeDisjointFilesAreUpgradedNotRewritten) {
  // Level-0 files with disjoint keys: large ones move up as they are, consecutive small ones
  // are rewritten together (a lone small file would be upgraded too).
  Fixture fx({FileMeta("big", 0, 1, 10, 500, 1, 1), FileMeta("small1", 0, 20, 30, 10, 2, 2),
              FileMeta("small2", 0, 31, 35, 10, 3, 3), FileMeta("old", 0, 40, 50, 500, 0, 0)});
  ASSERT_OK(fx.manager->TriggerCompaction(true));
  auto result = fx.manager->GetCompactionResult(true);
  ASSERT_OK(result);
  ASSERT_TRUE(result->has_value());
  ASSERT_EQ(fx.rewriter->calls.size(), 1u);
  EXPECT_EQ(fx.rewriter->calls[0].inputs, (std::vector<std::string>{"small1", "small2"}));
  EXPECT_TRUE(fx.rewriter->calls[0].drop_delete);
  // "big" and "old" are in before and after under the same name, one level up.
  std::vector<std::string> after = Names((*result)->after);
  std::sort(after.begin(), after.end());
  EXPECT_EQ(after, (std::vector<std::string>{"big", "c1", "old"}));
  for (const DataFileMeta& f : (*result)->after) EXPECT_EQ(f.level, 2);
  EXPECT_EQ(fx.manager->levels().NumberOfSortedRuns(), 1);
}

TEST(MergeTreeCompactManagerTest, UpgradeToMaxLevelRewritesFilesThatMayHoldDeletes) {
  DataFileMeta with_deletes = FileMeta("deletes", 0, 1, 10, 500, 1, 1);
  with_deletes.delete_row_count = 3;
  DataFileMeta unknown = FileMeta("unknown", 0, 20, 30, 500, 2, 2);
  unknown.delete_row_count.reset();
  Fixture fx({with_deletes, unknown, FileMeta("clean", 0, 40, 50, 500, 3, 3)});
  ASSERT_OK(fx.manager->TriggerCompaction(true));
  auto result = fx.manager->GetCompactionResult(true);
  ASSERT_OK(result);
  ASSERT_TRUE(result->has_value());
  ASSERT_EQ(fx.rewriter->calls.size(), 2u);
  EXPECT_EQ(fx.rewriter->calls[0].inputs, (std::vector<std::string>{"deletes"}));
  EXPECT_EQ(fx.rewriter->calls[1].inputs, (std::vector<std::string>{"unknown"}));
  std::vector<std::string> after = Names((*result)->after);
  std::sort(after.begin(), after.end());
  EXPECT_EQ(after, (std::vector<std::string>{"c1", "c2", "clean"}));
}

TEST(MergeTreeCompactManagerTest, UpgradeBelowMaxLevelKeepsFilesWithDeletes) {
  // Two disjoint level-0 runs and a large level 4 (of 5 levels): size ratio takes the level-0
  // runs to level 3, and both large files move up as they are, deletes and all.
  DataFileMeta l0 = FileMeta("new", 0, 1, 10, 200, 5, 5);
  l0.delete_row_count = 1;
  Fixture fx(
      {l0, FileMeta("newer", 0, 20, 30, 300, 6, 6), FileMeta("base", 4, 1, 100, 100000, 0, 0)},
      /*trigger=*/2, /*stop=*/4, /*num_levels=*/5);
  ASSERT_OK(fx.manager->TriggerCompaction(false));
  auto result = fx.manager->GetCompactionResult(true);
  ASSERT_OK(result);
  ASSERT_TRUE(result->has_value());
  EXPECT_TRUE(fx.rewriter->calls.empty());
  EXPECT_EQ(Names((*result)->after), (std::vector<std::string>{"new", "newer"}));
  for (const DataFileMeta& f : (*result)->after) EXPECT_EQ(f.level, 3);
  EXPECT_EQ(fx.manager->levels().RunOfLevel(3).files().size(), 2u);
}

TEST(MergeTreeCompactManagerTest, DeletesKeptWhenOlderDataStaysBelow) {
  // Level-0 runs are merged into level 1 while level 2 holds older data: keep deletes.
  Fixture fx({FileMeta("a", 0, 1, 10, 10, 3, 3), FileMeta("b", 0, 1, 10, 10, 4, 4),
              FileMeta("base", 3, 1, 100, 100000, 0, 0)},
             /*trigger=*/3, /*stop=*/5, /*num_levels=*/4);
  ASSERT_OK(fx.manager->TriggerCompaction(false));
  auto result = fx.manager->GetCompactionResult(true);
  ASSERT_OK(result);
  ASSERT_TRUE(result->has_value());
  ASSERT_EQ(fx.rewriter->calls.size(), 1u);
  EXPECT_EQ(fx.rewriter->calls[0].output_level, 2);
  EXPECT_FALSE(fx.rewriter->calls[0].drop_delete);
  EXPECT_EQ(fx.rewriter->calls[0].inputs, (std::vector<std::string>{"a", "b"}));
}

TEST(MergeTreeCompactManagerTest, StopTriggerAsksWriterToWait) {
  Fixture fx({}, /*trigger=*/10, /*stop=*/3);
  for (int i = 0; i < 4; ++i) {
    EXPECT_FALSE(fx.manager->ShouldWaitForLatestCompaction());
    ASSERT_OK(fx.manager->AddNewFile(FileMeta("f" + std::to_string(i), 0, 1, 9, 10, i, i)));
  }
  EXPECT_TRUE(fx.manager->ShouldWaitForLatestCompaction());
  EXPECT_FALSE(fx.manager->ShouldWaitForPreparingCheckpoint());
  ASSERT_OK(fx.manager->AddNewFile(FileMeta("f4", 0, 1, 9, 10, 4, 4)));
  EXPECT_TRUE(fx.manager->ShouldWaitForPreparingCheckpoint());
  // 5 runs > trigger 10? no; the file-number path does not fire, a full compaction does.
  ASSERT_OK(fx.manager->TriggerCompaction(false));
  EXPECT_FALSE(fx.manager->CompactNotCompleted());
  ASSERT_OK(fx.manager->TriggerCompaction(true));
  ASSERT_OK(fx.manager->GetCompactionResult(true));
  EXPECT_FALSE(fx.manager->ShouldWaitForLatestCompaction());
}

TEST(MergeTreeCompactManagerTest, FailedCompactionReportsOnceAndKeepsFiles) {
  Fixture fx({FileMeta("a", 0, 1, 10, 10, 1, 1), FileMeta("b", 0, 1, 10, 10, 2, 2)});
  fx.rewriter->fail = true;
  ASSERT_OK(fx.manager->TriggerCompaction(true));
  EXPECT_TRUE(
      test::HasError(fx.manager->GetCompactionResult(true), StatusCode::kIOError, {"disk full"}));
  EXPECT_EQ(fx.manager->AllFiles().size(), 2u);
  fx.rewriter->fail = false;
  ASSERT_OK(fx.manager->TriggerCompaction(true));
  auto result = fx.manager->GetCompactionResult(true);
  ASSERT_OK(result);
  ASSERT_TRUE(result->has_value());
  EXPECT_EQ(Names(fx.manager->AllFiles()), (std::vector<std::string>{"c1"}));
}

TEST(MergeTreeCompactManagerTest, BackgroundCompaction) {
  Fixture fx({}, 3, 5, 3, 100, /*background=*/true);
  for (int i = 0; i < 3; ++i) {
    ASSERT_OK(fx.manager->AddNewFile(FileMeta("l0-" + std::to_string(i), 0, 0, 10, 10, i, i)));
  }
  ASSERT_OK(fx.manager->TriggerCompaction(false));
  EXPECT_TRUE(fx.manager->CompactNotCompleted());
  // A full compaction cannot start while one runs.
  EXPECT_TRUE(test::HasError(fx.manager->TriggerCompaction(true), StatusCode::kInternal,
                             {"a compaction is still running while a full compaction is forced"}));
  auto result = fx.manager->GetCompactionResult(true);
  ASSERT_OK(result);
  ASSERT_TRUE(result->has_value());
  EXPECT_EQ(Names(fx.manager->AllFiles()), (std::vector<std::string>{"c1"}));
  EXPECT_FALSE(fx.manager->CompactNotCompleted());
}

TEST(CompactIncrementBuilderTest, IntermediateFilesAreDroppedAndUpgradesKept) {
  CompactIncrementBuilder builder;
  DataFileMeta a = FileMeta("a", 0, 1, 5, 1), b = FileMeta("b", 0, 6, 9, 1);
  DataFileMeta c1 = FileMeta("c1", 1, 1, 5, 1);
  DataFileMeta b1 = b;
  b1.level = 1;
  // First compaction: a -> c1, b upgraded to level 1.
  CompactResult first;
  first.before = {a, b};
  first.after = {c1, b1};
  EXPECT_TRUE(builder.Add(first).empty());
  // Second: c1 (not yet committed) and b1 -> c2 on level 2: c1 can be deleted now, b1 cannot.
  DataFileMeta c2 = FileMeta("c2", 2, 1, 9, 2);
  CompactResult second;
  second.before = {c1, b1};
  second.after = {c2};
  std::vector<DataFileMeta> deletable = builder.Add(second);
  EXPECT_EQ(Names(deletable), (std::vector<std::string>{"c1"}));
  EXPECT_EQ(Names(builder.UncommittedFiles()), (std::vector<std::string>{"c2"}));
  CompactIncrement increment = builder.Drain();
  EXPECT_EQ(Names(increment.compact_before), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(Names(increment.compact_after), (std::vector<std::string>{"c2"}));
  EXPECT_TRUE(builder.empty());
}

TEST(CompactionOptionsTest, FromTableOptions) {
  Result<CoreOptions> core = CoreOptions::Make({{"num-sorted-run.compaction-trigger", "4"},
                                                {"compaction.optimization-interval", "1 h"},
                                                {"compaction.small-file-ratio", "0.5"},
                                                {"target-file-size", "10 mb"},
                                                {"compaction.force-up-level-0", "true"}});
  ASSERT_OK(core);
  const CompactionOptions options = CompactionOptions::From(*core, true);
  EXPECT_EQ(options.num_levels, 5);
  EXPECT_EQ(options.num_sorted_run_stop_trigger, 7);
  EXPECT_EQ(options.optimization_interval_millis, 3600 * 1000);
  EXPECT_EQ(options.compaction_file_size(), 5 * 1024 * 1024);
  EXPECT_TRUE(options.force_up_level0);
  EXPECT_TRUE(test::HasError(CoreOptions::Make({{"compaction.small-file-ratio", "x"}}),
                             StatusCode::kInvalidArgument,
                             {"option 'compaction.small-file-ratio': cannot parse 'x'"}));
  EXPECT_TRUE(IsFullCompactionCommit(4, 2));
  EXPECT_FALSE(IsFullCompactionCommit(5, 2));
  EXPECT_TRUE(IsFullCompactionCommit(5, 0));
  EXPECT_TRUE(IsFullCompactionCommit(INT64_MAX, 7));
}

}  // namespace
}  // namespace sluice

namespace sluice {
namespace {

TEST(MergeTreeCompactManagerTest, LookupBucketsMoveEveryLevel0FileUp) {
  CompactionOptions options;
  options.num_sorted_run_compaction_trigger = 5;
  options.num_levels = 3;
  options.target_file_size = 100;
  options.need_lookup = true;
  auto rewriter = std::make_shared<FakeRewriter>();
  auto manager = MergeTreeCompactManager::Make(options, BigIntKeyType(), {}, rewriter).value();
  ASSERT_OK(manager->AddNewFile(FileMeta("only", 0, 1, 5, 500, 1, 1)));
  // Level 0 is not empty: a lookup bucket's compaction is not done.
  EXPECT_TRUE(manager->CompactNotCompleted());
  ASSERT_OK(manager->TriggerCompaction(false));
  auto result = manager->GetCompactionResult(true);
  ASSERT_OK(result);
  ASSERT_TRUE(result->has_value());
  // One run, so far below the trigger; still moved up (to the max level, as the only run).
  ASSERT_EQ((*result)->after.size(), 1u);
  EXPECT_EQ((*result)->after[0].file_name, "only");
  EXPECT_EQ((*result)->after[0].level, 2);
  EXPECT_TRUE(manager->levels().level0().empty());
  EXPECT_FALSE(manager->CompactNotCompleted());
}

TEST(CompactionOptionsTest, LookupOptions) {
  Result<CoreOptions> first_row =
      CoreOptions::Make({{"merge-engine", "first-row"}, {"lookup-compact", "GENTLE"}});
  ASSERT_OK(first_row);
  CompactionOptions options = CompactionOptions::From(*first_row, true);
  EXPECT_TRUE(options.need_lookup);
  EXPECT_TRUE(options.lookup_compact_gentle);
  EXPECT_EQ(options.LookupCompactMaxInterval(), 10);
  options.lookup_compact_max_interval = 2;
  EXPECT_EQ(options.LookupCompactMaxInterval(), 5);
  EXPECT_FALSE(CompactionOptions::From(CoreOptions::Make({}).value(), true).need_lookup);
  EXPECT_TRUE(CompactionOptions::From(CoreOptions::Make({{"force-lookup", "true"}}).value(), true)
                  .need_lookup);
  EXPECT_TRUE(test::HasError(CoreOptions::Make({{"lookup-compact", "soft"}}),
                             StatusCode::kInvalidArgument, {"lookup-compact", "soft"}));
}

}  // namespace
}  // namespace sluice
