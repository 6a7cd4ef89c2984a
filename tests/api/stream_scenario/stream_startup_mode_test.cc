// Streaming reads by startup mode (Java StartingScanner family) and the follow-up plans after
// them, on append and primary-key tables, with compactions and overwrites in between: the
// follower sees the rows Java's DataTableStreamScan gives.
#include <gtest/gtest.h>

#include <filesystem>
#include <thread>

#include "sluice/meta/snapshot_manager.h"
#include "stream_test_util.h"

namespace sluice {
namespace {

using test::Change;
using test::Follower;
using test::Lines;
using test::StreamTable;
using Plans = std::vector<std::vector<std::string>>;

class StreamStartupModeTest : public ::testing::Test {
 protected:
  StreamTable Make(bool primary_key, std::vector<std::pair<std::string, std::string>> options) {
    auto table = StreamTable::Create(dir_.path(), "t" + std::to_string(++tables_), primary_key,
                                     std::move(options));
    EXPECT_OK(table);
    return std::move(table).value();
  }

  static Plans Drain(const Table& table, std::vector<std::pair<std::string, std::string>> options) {
    auto follower = Follower::Open(table, std::move(options));
    EXPECT_OK(follower);
    if (!follower.ok()) return {};
    auto plans = follower->Drain();
    EXPECT_OK(plans);
    return plans.ok() ? *plans : Plans{};
  }

  // Snapshots 1..3 of an append table: +I 1 a, +I 2 b (snapshot 1), +I 3 c (2), +I 4 d (3).
  StreamTable ThreeAppends(std::vector<std::pair<std::string, std::string>> options = {}) {
    StreamTable t = Make(false, std::move(options));
    EXPECT_OK(t.Commit({{1, "a"}, {2, "b"}}));
    EXPECT_OK(t.Commit({{3, "c"}}));
    EXPECT_OK(t.Commit({{4, "d"}}));
    return t;
  }

  test::TempDir dir_;
  int tables_ = 0;
};

TEST_F(StreamStartupModeTest, LatestFullReadsTheLatestSnapshotThenEachNewOne) {
  StreamTable t = ThreeAppends();
  auto follower = Follower::Open(t.table(), {});
  ASSERT_OK(follower);
  ASSERT_OK_AND_ASSIGN(Plans first, follower->Drain());
  EXPECT_EQ(first, (Plans{{"+I 1 a", "+I 2 b", "+I 3 c", "+I 4 d"}}));
  EXPECT_EQ(follower->scan().Checkpoint(), 4);
  ASSERT_OK(t.Commit({{5, "e"}}));
  ASSERT_OK(t.Commit({{6, "f"}, {7, "g"}}));
  ASSERT_OK_AND_ASSIGN(Plans next, follower->Drain());
  EXPECT_EQ(next, (Plans{{"+I 5 e"}, {"+I 6 f", "+I 7 g"}}));
  // `full` and `default` are latest-full.
  EXPECT_EQ(Drain(t.table(), {{"scan.mode", "full"}}).size(), 1u);
  EXPECT_EQ(Drain(t.table(), {{"scan.mode", "default"}}).front().size(), 7u);
}

TEST_F(StreamStartupModeTest, EmptyTableIsFollowedFromItsFirstSnapshot) {
  StreamTable t = Make(false, {});
  std::vector<std::unique_ptr<Follower>> followers;
  for (const char* mode : {"latest-full", "latest"}) {
    auto follower = Follower::Open(t.table(), {{"scan.mode", mode}});
    ASSERT_OK(follower);
    ASSERT_OK_AND_ASSIGN(Plans none, follower->Drain());
    EXPECT_TRUE(none.empty()) << mode;
    EXPECT_FALSE(follower->scan().Checkpoint().has_value());
    followers.push_back(std::make_unique<Follower>(std::move(*follower)));
  }
  ASSERT_OK(t.Commit({{1, "a"}}));
  ASSERT_OK_AND_ASSIGN(Plans full, followers[0]->Drain());
  EXPECT_EQ(full, (Plans{{"+I 1 a"}}));
  ASSERT_OK_AND_ASSIGN(Plans latest, followers[1]->Drain());
  EXPECT_EQ(latest, (Plans{{"+I 1 a"}}));
}

TEST_F(StreamStartupModeTest, LatestReadsOnlyWhatCommitsAfterStart) {
  StreamTable t = ThreeAppends();
  auto follower = Follower::Open(t.table(), {{"scan.mode", "latest"}});
  ASSERT_OK(follower);
  ASSERT_OK_AND_ASSIGN(Plans none, follower->Drain());
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(follower->scan().Checkpoint(), 4);
  ASSERT_OK(t.Commit({{5, "e"}}));
  ASSERT_OK_AND_ASSIGN(Plans next, follower->Drain());
  EXPECT_EQ(next, (Plans{{"+I 5 e"}}));
}

TEST_F(StreamStartupModeTest, FromSnapshotAndFromSnapshotFull) {
  StreamTable t = ThreeAppends();
  EXPECT_EQ(Drain(t.table(), {{"scan.mode", "from-snapshot"}, {"scan.snapshot-id", "2"}}),
            (Plans{{"+I 3 c"}, {"+I 4 d"}}));
  // `default` with scan.snapshot-id is from-snapshot.
  EXPECT_EQ(Drain(t.table(), {{"scan.snapshot-id", "3"}}), (Plans{{"+I 4 d"}}));
  EXPECT_EQ(Drain(t.table(), {{"scan.mode", "from-snapshot-full"}, {"scan.snapshot-id", "2"}}),
            (Plans{{"+I 1 a", "+I 2 b", "+I 3 c"}, {"+I 4 d"}}));
  // Before the earliest snapshot: from the earliest.
  EXPECT_EQ(Drain(t.table(), {{"scan.mode", "from-snapshot"}, {"scan.snapshot-id", "0"}}),
            (Plans{{"+I 1 a", "+I 2 b"}, {"+I 3 c"}, {"+I 4 d"}}));
  // Past the latest: waits for it.
  EXPECT_TRUE(
      Drain(t.table(), {{"scan.mode", "from-snapshot"}, {"scan.snapshot-id", "5"}}).empty());
  EXPECT_TRUE(test::HasError(Follower::Open(t.table(), {{"scan.mode", "from-snapshot-full"}}),
                             StatusCode::kInvalidArgument,
                             {"scan.snapshot-id", "from-snapshot-full"}));
  EXPECT_TRUE(test::HasError(Follower::Open(t.table(), {{"scan.tag-name", "x"}}),
                             StatusCode::kInvalidArgument, {"streaming", "scan.tag-name"}));
}

TEST_F(StreamStartupModeTest, FromTimestampStartsAfterTheLastSnapshotBeforeIt) {
  StreamTable t = ThreeAppends();
  SnapshotManager snapshots(LocalFileIO(), t.table().path());
  ASSERT_OK_AND_ASSIGN(Snapshot s2, snapshots.LoadSnapshot(2));
  ASSERT_OK_AND_ASSIGN(Snapshot s3, snapshots.LoadSnapshot(3));
  // A time after snapshot 2 (and, when they differ, before snapshot 3): the changes of 3 on.
  if (s3.time_millis > s2.time_millis) {
    EXPECT_EQ(Drain(t.table(), {{"scan.mode", "from-timestamp"},
                                {"scan.timestamp-millis", std::to_string(s3.time_millis)}}),
              (Plans{{"+I 4 d"}}));
  }
  // Before every snapshot: everything, snapshot by snapshot.
  EXPECT_EQ(Drain(t.table(), {{"scan.timestamp-millis", "0"}}),
            (Plans{{"+I 1 a", "+I 2 b"}, {"+I 3 c"}, {"+I 4 d"}}));
  EXPECT_EQ(Drain(t.table(), {{"scan.timestamp", "1970-01-01 00:00:00"}}).size(), 3u);
  // After every snapshot: only what comes next.
  EXPECT_TRUE(Drain(t.table(), {{"scan.mode", "from-timestamp"},
                                {"scan.timestamp-millis", "9223372036854775807"}})
                  .empty());
  EXPECT_TRUE(test::HasError(Follower::Open(t.table(), {{"scan.mode", "from-timestamp"}}),
                             StatusCode::kInvalidArgument, {"scan.timestamp-millis"}));
}

TEST_F(StreamStartupModeTest, FromFileCreationTimeFiltersTheFullPlanByFile) {
  StreamTable t = ThreeAppends();
  EXPECT_EQ(Drain(t.table(), {{"scan.file-creation-time-millis", "0"}}),
            (Plans{{"+I 1 a", "+I 2 b", "+I 3 c", "+I 4 d"}}));
  EXPECT_EQ(Drain(t.table(), {{"scan.mode", "from-file-creation-time"},
                              {"scan.file-creation-time-millis", "9223372036854775807"}}),
            (Plans{{}}));
}

TEST_F(StreamStartupModeTest, FromCreationTimestampStreamsFromASnapshotOrFiltersFiles) {
  StreamTable t = ThreeAppends();
  SnapshotManager snapshots(LocalFileIO(), t.table().path());
  ASSERT_OK_AND_ASSIGN(Snapshot s2, snapshots.LoadSnapshot(2));
  ASSERT_OK_AND_ASSIGN(Snapshot s3, snapshots.LoadSnapshot(3));
  // Between snapshots 2 and 3 (when their times differ): from snapshot 3, snapshot by snapshot.
  if (s3.time_millis > s2.time_millis) {
    EXPECT_EQ(Drain(t.table(), {{"scan.mode", "from-creation-timestamp"},
                                {"scan.creation-time-millis", std::to_string(s3.time_millis)}}),
              (Plans{{"+I 4 d"}}));
  }
  // Before every snapshot (`default` with the option is this mode): the latest snapshot's files
  // created since, in one plan.
  EXPECT_EQ(Drain(t.table(), {{"scan.creation-time-millis", "0"}}),
            (Plans{{"+I 1 a", "+I 2 b", "+I 3 c", "+I 4 d"}}));
  // After the latest: no file is that new.
  EXPECT_EQ(Drain(t.table(), {{"scan.mode", "from-creation-timestamp"},
                              {"scan.creation-time-millis", "9223372036854775807"}}),
            (Plans{{}}));
  EXPECT_TRUE(test::HasError(Follower::Open(t.table(), {{"scan.mode", "from-creation-timestamp"}}),
                             StatusCode::kInvalidArgument, {"scan.creation-time-millis"}));
}

TEST_F(StreamStartupModeTest, IncrementalIsBatchOnly) {
  StreamTable t = ThreeAppends();
  EXPECT_TRUE(test::HasError(Follower::Open(t.table(), {{"incremental-between", "1,3"}}),
                             StatusCode::kInvalidArgument, {"incremental", "streaming"}));
  EXPECT_TRUE(test::HasError(Follower::Open(t.table(), {{"scan.mode", "incremental"}}),
                             StatusCode::kInvalidArgument, {"incremental"}));
}

TEST_F(StreamStartupModeTest, CompactSnapshotsAreSkippedAndCompactedFullStartsAtOne) {
  // A primary-key table: its full compaction of two level-0 files always makes a COMPACT
  // snapshot (an append bucket this small is left alone).
  StreamTable t = Make(true, {{"bucket", "1"}});
  ASSERT_OK(t.Commit({{1, "a"}}));
  ASSERT_OK(t.Commit({{2, "b"}}));
  ASSERT_OK(t.Compact());  // snapshot 3
  ASSERT_OK(t.Commit({{3, "c"}}));
  SnapshotManager snapshots(LocalFileIO(), t.table().path());
  ASSERT_OK_AND_ASSIGN(Snapshot s3, snapshots.LoadSnapshot(3));
  ASSERT_EQ(s3.commit_kind, CommitKind::kCompact);
  EXPECT_EQ(Drain(t.table(), {{"scan.mode", "from-snapshot"}, {"scan.snapshot-id", "1"}}),
            (Plans{{"+I 1 a"}, {"+I 2 b"}, {"+I 3 c"}}));
  EXPECT_EQ(Drain(t.table(), {{"scan.mode", "compacted-full"}}),
            (Plans{{"+I 1 a", "+I 2 b"}, {"+I 3 c"}}));
  // Without a COMPACT snapshot, compacted-full is latest-full.
  StreamTable plain = ThreeAppends();
  EXPECT_EQ(Drain(plain.table(), {{"scan.mode", "compacted-full"}}),
            (Plans{{"+I 1 a", "+I 2 b", "+I 3 c", "+I 4 d"}}));
}

TEST_F(StreamStartupModeTest, OverwritesAreSkippedUnlessStreamingReadOverwrite) {
  StreamTable t = ThreeAppends();
  ASSERT_OK(t.Commit({{9, "z"}}, /*overwrite=*/true));  // snapshot 4
  ASSERT_OK(t.Commit({{10, "y"}}));
  const std::vector<std::pair<std::string, std::string>> from2 = {{"scan.mode", "from-snapshot"},
                                                                  {"scan.snapshot-id", "3"}};
  EXPECT_EQ(Drain(t.table(), from2), (Plans{{"+I 4 d"}, {"+I 10 y"}}));
  auto with_overwrite = from2;
  with_overwrite.emplace_back("streaming-read-append-overwrite", "true");
  EXPECT_EQ(Drain(t.table(), with_overwrite), (Plans{{"+I 4 d"}, {"+I 9 z"}, {"+I 10 y"}}));
  // Java refuses the primary-key tables' option on an append table.
  auto wrong = from2;
  wrong.emplace_back("streaming-read-overwrite", "true");
  EXPECT_TRUE(test::HasError(Follower::Open(t.table(), wrong), StatusCode::kInvalidArgument,
                             {"streaming-read-overwrite", "streaming-read-append-overwrite"}));
  // The full plan after the overwrite has only what it left.
  EXPECT_EQ(Drain(t.table(), {}), (Plans{{"+I 10 y", "+I 9 z"}}));
}

TEST_F(StreamStartupModeTest, PrimaryKeyTablesEmitTheirChangesWithRowKinds) {
  StreamTable t = Make(true, {{"bucket", "2"}});
  ASSERT_OK(t.Commit({{1, "a"}, {2, "b"}, {3, "c"}}));
  auto follower = Follower::Open(t.table(), {});
  ASSERT_OK(follower);
  ASSERT_OK_AND_ASSIGN(Plans first, follower->Drain());
  EXPECT_EQ(first, (Plans{{"+I 1 a", "+I 2 b", "+I 3 c"}}));
  ASSERT_OK(t.Commit({{1, "a2", RowKind::kUpdateAfter}, {2, "b", RowKind::kDelete}}));
  ASSERT_OK(t.Compact());
  ASSERT_OK(t.Commit({{4, "d"}}));
  ASSERT_OK_AND_ASSIGN(Plans next, follower->Drain());
  // The compaction changes no row: nothing from it.
  EXPECT_EQ(next, (Plans{{"+U 1 a2", "-D 2 b"}, {"+I 4 d"}}));
  // A full plan after the compaction reads the merged rows.
  EXPECT_EQ(Drain(t.table(), {}), (Plans{{"+I 3 c", "+I 4 d", "+U 1 a2"}}));
  // An overwrite's changes under `streaming-read-overwrite`: the diff of what it replaced
  // (Java readChanges), the unchanged row 3 leaving no trace.
  auto overwrites = Follower::Open(t.table(), {{"streaming-read-overwrite", "true"}});
  ASSERT_OK(overwrites);
  ASSERT_OK(overwrites->Drain().status());
  ASSERT_OK(t.Commit({{3, "c"}, {5, "e"}}, /*overwrite=*/true));
  ASSERT_OK_AND_ASSIGN(Plans overwritten, overwrites->Drain());
  EXPECT_EQ(overwritten, (Plans{{"+I 5 e", "-D 1 a2", "-D 4 d"}}));
  // Without the option the overwrite is passed over.
  ASSERT_OK_AND_ASSIGN(Plans skipped, follower->Drain());
  EXPECT_TRUE(skipped.empty());
}

TEST_F(StreamStartupModeTest, BoundedWatermarkEndsTheScan) {
  StreamTable t = ThreeAppends();
  // Give snapshot 3 a watermark past the bound (commits made here carry none).
  SnapshotManager snapshots(LocalFileIO(), t.table().path());
  ASSERT_OK_AND_ASSIGN(Snapshot s3, snapshots.LoadSnapshot(3));
  s3.watermark = 100;
  ASSERT_OK(LocalFileIO()->WriteFileAtomic(snapshots.snapshot_path(3), s3.ToJson(), true));
  auto follower =
      Follower::Open(t.table(), {{"scan.snapshot-id", "1"}, {"scan.bounded.watermark", "50"}});
  ASSERT_OK(follower);
  ASSERT_OK_AND_ASSIGN(auto p1, follower->scan().Plan());
  EXPECT_FALSE(p1.end_of_scan);
  ASSERT_OK_AND_ASSIGN(auto rows, follower->Next());
  EXPECT_EQ(rows, (std::vector<std::string>{"+I 1 a", "+I 2 b"}));
  ASSERT_OK_AND_ASSIGN(rows, follower->Next());
  EXPECT_EQ(rows, (std::vector<std::string>{"+I 3 c"}));
  ASSERT_OK_AND_ASSIGN(auto end, follower->scan().Plan());
  EXPECT_TRUE(end.end_of_scan);
  EXPECT_TRUE(end.splits.empty());
}

TEST_F(StreamStartupModeTest, ShardsTogetherSeeEveryRowOnce) {
  for (bool primary_key : {false, true}) {
    StreamTable t = Make(
        primary_key, primary_key ? std::vector<std::pair<std::string, std::string>>{{"bucket", "4"}}
                                 : std::vector<std::pair<std::string, std::string>>{
                                       {"bucket", "4"}, {"bucket-key", "id"}});
    std::vector<Change> all;
    for (int commit = 0; commit < 3; ++commit) {
      std::vector<Change> rows;
      for (int i = 0; i < 20; ++i) rows.push_back({commit * 100 + i, "v" + std::to_string(i)});
      ASSERT_OK(t.Commit(rows));
      all.insert(all.end(), rows.begin(), rows.end());
    }
    std::vector<std::string> seen;
    for (int shard = 0; shard < 3; ++shard) {
      auto follower = Follower::Open(t.table(), {{"scan.snapshot-id", "1"}}, shard, 3);
      ASSERT_OK(follower);
      ASSERT_OK_AND_ASSIGN(Plans plans, follower->Drain());
      for (const auto& plan : plans) seen.insert(seen.end(), plan.begin(), plan.end());
    }
    std::sort(seen.begin(), seen.end());
    EXPECT_EQ(seen, Lines(all)) << (primary_key ? "primary key" : "append");
  }
  StreamTable t = Make(false, {});
  EXPECT_TRUE(test::HasError(Follower::Open(t.table(), {}, 2, 2), StatusCode::kInvalidArgument,
                             {"reader index 2 of 2"}));
}

TEST_F(StreamStartupModeTest, ConsumerProgressIsSavedOnNotifyAndResumed) {
  StreamTable t = ThreeAppends();
  const std::vector<std::pair<std::string, std::string>> consumer = {{"consumer-id", "c1"}};
  {
    auto follower = Follower::Open(t.table(), consumer);
    ASSERT_OK(follower);
    ASSERT_OK_AND_ASSIGN(auto rows, follower->Next());
    ASSERT_TRUE(rows.has_value());
    EXPECT_EQ(rows->size(), 4u);
    // Not yet notified: nothing recorded.
    EXPECT_FALSE(std::filesystem::exists(t.table().path() + "/consumer/consumer-c1"));
    ASSERT_OK(follower->scan().NotifyCheckpointComplete(follower->scan().Checkpoint()));
    EXPECT_EQ(test::ReadFileOrFail(t.table().path() + "/consumer/consumer-c1"),
              "{\n  \"nextSnapshot\" : 4\n}");
  }
  ASSERT_OK(t.Commit({{5, "e"}}));
  // The consumer wins over the startup mode: from snapshot 4, no full plan.
  EXPECT_EQ(Drain(t.table(), {{"consumer-id", "c1"}, {"scan.mode", "latest-full"}}),
            (Plans{{"+I 5 e"}}));
  EXPECT_EQ(Drain(t.table(), {{"consumer-id", "c1"}, {"consumer.ignore-progress", "true"}}),
            (Plans{{"+I 1 a", "+I 2 b", "+I 3 c", "+I 4 d", "+I 5 e"}}));
}

TEST_F(StreamStartupModeTest, AtLeastOnceRecordsTheSnapshotBeingRead) {
  StreamTable t = ThreeAppends();
  ASSERT_OK(t.Commit({{5, "e"}}));
  ASSERT_OK(t.Commit({{6, "f"}}));
  const std::vector<std::pair<std::string, std::string>> consumer = {
      {"consumer-id", "c2"}, {"consumer.mode", "at-least-once"}, {"scan.snapshot-id", "3"}};
  const std::string file = t.table().path() + "/consumer/consumer-c2";
  {
    auto follower = Follower::Open(t.table(), consumer);
    ASSERT_OK(follower);
    ASSERT_OK_AND_ASSIGN(auto rows, follower->Next());
    ASSERT_EQ(rows, (std::vector<std::string>{"+I 4 d"}));
    // Read, never confirmed: the snapshot being read is the position.
    EXPECT_EQ(test::ReadFileOrFail(file), "{\n  \"nextSnapshot\" : 3\n}");
    ASSERT_OK_AND_ASSIGN(rows, follower->Next());
    ASSERT_EQ(rows, (std::vector<std::string>{"+I 5 e"}));
    EXPECT_EQ(test::ReadFileOrFail(file), "{\n  \"nextSnapshot\" : 4\n}");
  }
  // A restart reads snapshot 4 again: at least once.
  EXPECT_EQ(Drain(t.table(), consumer), (Plans{{"+I 5 e"}, {"+I 6 f"}}));
  // Exactly-once (the default) records only what the caller confirms.
  auto exact = Follower::Open(t.table(), {{"consumer-id", "c3"}, {"scan.snapshot-id", "3"}});
  ASSERT_OK(exact);
  ASSERT_OK(exact->Drain().status());
  EXPECT_FALSE(std::filesystem::exists(t.table().path() + "/consumer/consumer-c3"));
}

TEST_F(StreamStartupModeTest, ShardedConsumerKeepsEachReaderAndTheSlowest) {
  StreamTable t = Make(false, {{"bucket", "4"}, {"bucket-key", "id"}});
  for (int commit = 0; commit < 3; ++commit) {
    std::vector<Change> rows;
    for (int i = 0; i < 20; ++i) rows.push_back({commit * 100 + i, "v"});
    ASSERT_OK(t.Commit(rows));
  }
  const std::vector<std::pair<std::string, std::string>> consumer = {{"consumer-id", "c"},
                                                                     {"scan.snapshot-id", "1"}};
  const std::string dir = t.table().path() + "/consumer/";
  const auto next_of = [&](const std::string& id) {
    return test::ReadFileOrFail(dir + "consumer-" + id);
  };
  const std::string at2 = "{\n  \"nextSnapshot\" : 2\n}";
  const std::string at4 = "{\n  \"nextSnapshot\" : 4\n}";
  std::vector<std::string> seen;
  {
    auto fast = Follower::Open(t.table(), consumer, 0, 2);
    ASSERT_OK(fast);
    ASSERT_OK_AND_ASSIGN(Plans plans, fast->Drain());
    for (const auto& plan : plans) seen.insert(seen.end(), plan.begin(), plan.end());
    ASSERT_OK(fast->scan().NotifyCheckpointComplete(fast->scan().Checkpoint()));
    EXPECT_EQ(next_of("c.reader-0-of-2"), at4);
    // Reader 1 has no position yet: the shared consumer is not written.
    EXPECT_FALSE(std::filesystem::exists(dir + "consumer-c"));
  }
  {
    auto slow = Follower::Open(t.table(), consumer, 1, 2);
    ASSERT_OK(slow);
    ASSERT_OK_AND_ASSIGN(auto rows, slow->Next());
    ASSERT_TRUE(rows.has_value());
    seen.insert(seen.end(), rows->begin(), rows->end());
    ASSERT_OK(slow->scan().NotifyCheckpointComplete(slow->scan().Checkpoint()));
    EXPECT_EQ(next_of("c.reader-1-of-2"), at2);
    // The slowest reader's position is what every reader still needs.
    EXPECT_EQ(next_of("c"), at2);
  }
  // Each reader resumes at its own position.
  auto fast = Follower::Open(t.table(), consumer, 0, 2);
  ASSERT_OK(fast);
  ASSERT_OK_AND_ASSIGN(Plans none, fast->Drain());
  EXPECT_TRUE(none.empty());
  ASSERT_OK(fast->scan().NotifyCheckpointComplete(fast->scan().Checkpoint()));
  EXPECT_EQ(next_of("c"), at2);
  auto slow = Follower::Open(t.table(), consumer, 1, 2);
  ASSERT_OK(slow);
  ASSERT_OK_AND_ASSIGN(Plans rest, slow->Drain());
  for (const auto& plan : rest) seen.insert(seen.end(), plan.begin(), plan.end());
  ASSERT_OK(slow->scan().NotifyCheckpointComplete(slow->scan().Checkpoint()));
  EXPECT_EQ(next_of("c"), at4);
  EXPECT_EQ(seen.size(), 60u);
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(std::adjacent_find(seen.begin(), seen.end()), seen.end());
}

TEST_F(StreamStartupModeTest, RestoreContinuesFromACheckpoint) {
  StreamTable t = ThreeAppends();
  auto follower = Follower::Open(t.table(), {{"scan.mode", "latest"}});
  ASSERT_OK(follower);
  follower->scan().Restore(2);
  ASSERT_OK_AND_ASSIGN(Plans plans, follower->Drain());
  EXPECT_EQ(plans, (Plans{{"+I 3 c"}, {"+I 4 d"}}));
}

TEST_F(StreamStartupModeTest, ExpiredSnapshotIsAnErrorNamingConsumerId) {
  StreamTable t = ThreeAppends();
  auto follower = Follower::Open(t.table(), {{"scan.snapshot-id", "1"}});
  ASSERT_OK(follower);
  ASSERT_OK_AND_ASSIGN(auto rows, follower->Next());
  ASSERT_TRUE(rows.has_value());
  // Expire snapshots 2 and 3 under the reader (as an expiry ignoring it would).
  SnapshotManager snapshots(LocalFileIO(), t.table().path());
  ASSERT_OK(t.Commit({{5, "e"}}));
  ASSERT_OK(LocalFileIO()->Delete(snapshots.snapshot_path(1), false));
  ASSERT_OK(LocalFileIO()->Delete(snapshots.snapshot_path(2), false));
  ASSERT_OK(LocalFileIO()->Delete(snapshots.snapshot_path(3), false));
  ASSERT_OK(snapshots.CommitEarliestHint(4));
  EXPECT_TRUE(test::HasError(follower->Next(), StatusCode::kOutOfRange,
                             {"snapshot 2", "expired", "earliest snapshot is 4", "consumer-id"}));
}

TEST_F(StreamStartupModeTest, WaitForNextSnapshotSleepsUntilACommitLands) {
  StreamTable t = ThreeAppends();
  auto follower = Follower::Open(t.table(), {});
  ASSERT_OK(follower);
  ASSERT_OK_AND_ASSIGN(Plans first, follower->Drain());
  ASSERT_OK_AND_ASSIGN(bool ready,
                       follower->scan().WaitForNextSnapshot(std::chrono::milliseconds(20)));
  EXPECT_FALSE(ready);
  std::thread writer([&] { EXPECT_OK(t.Commit({{5, "e"}})); });
  ASSERT_OK_AND_ASSIGN(ready, follower->scan().WaitForNextSnapshot(std::chrono::seconds(30)));
  writer.join();
  EXPECT_TRUE(ready);
  ASSERT_OK_AND_ASSIGN(Plans next, follower->Drain());
  EXPECT_EQ(next, (Plans{{"+I 5 e"}}));
}

}  // namespace
}  // namespace sluice
