// Batch reads by `scan.mode` (Java AbstractDataTableScan's batch starting scanners): compacted
// full, file creation time, creation timestamp, and incremental ranges read as delta or
// changelog files. An incremental range must give exactly the changes a streaming follower sees
// snapshot by snapshot over the same range.
#include <gtest/gtest.h>

#include <algorithm>

#include "sluice/meta/snapshot_manager.h"
#include "sluice/tags.h"
#include "stream_test_util.h"

namespace sluice {
namespace {

using test::Change;
using test::Follower;
using test::StreamTable;
using Options = std::vector<std::pair<std::string, std::string>>;
using Rows = std::vector<std::string>;

CreateTagOptions TagAt(int64_t snapshot_id) {
  CreateTagOptions options;
  options.snapshot_id = snapshot_id;
  return options;
}

class BatchStartupModeTest : public ::testing::Test {
 protected:
  StreamTable Make(bool primary_key, Options options) {
    auto table = StreamTable::Create(dir_.path(), "t" + std::to_string(++tables_), primary_key,
                                     std::move(options));
    EXPECT_OK(table);
    return std::move(table).value();
  }

  // The sorted rows a read with `options` returns: "<id> <v>" in batch mode, "<kind> <id> <v>"
  // in delta mode.
  static Result<Rows> TryRead(const Table& table, Options options,
                              ScanMode mode = ScanMode::kBatch) {
    ReadBuilder builder = table.NewReadBuilder();
    builder.WithMode(mode);
    for (auto& [k, v] : options) builder.WithOption(k, v);
    SLUICE_ASSIGN_OR_RETURN(TableScan scan, builder.NewScan());
    SLUICE_ASSIGN_OR_RETURN(TableScanPlan plan, scan.Plan());
    SLUICE_ASSIGN_OR_RETURN(TableRead read, builder.NewRead());
    SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<BatchReader> reader,
                            read.CreateReader(std::move(plan.splits)));
    Rows rows;
    ColumnBatch batch(reader->output_type());
    const int first = mode == ScanMode::kDelta ? 1 : 0;
    while (true) {
      SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
      if (!more) break;
      for (int64_t i = 0; i < batch.num_rows(); ++i) {
        std::string line =
            first == 1 ? std::string(batch.column(0)->GetValue(i).bytes()) + " " : std::string();
        line += std::to_string(batch.column(first)->GetValue(i).int64()) + " " +
                std::string(batch.column(first + 1)->GetValue(i).bytes());
        rows.push_back(std::move(line));
      }
    }
    std::sort(rows.begin(), rows.end());
    return rows;
  }

  static Rows Read(const Table& table, Options options, ScanMode mode = ScanMode::kBatch) {
    Result<Rows> rows = TryRead(table, std::move(options), mode);
    EXPECT_OK(rows);
    return rows.ok() ? *rows : Rows{"(error)"};
  }

  // What a follower sees of snapshots start+1 .. end, every plan together, sorted.
  static Rows Followed(const Table& table, int64_t start, int64_t end) {
    auto follower = Follower::Open(table, {{"scan.snapshot-id", std::to_string(start + 1)}});
    EXPECT_OK(follower);
    if (!follower.ok()) return {};
    Rows all;
    while (follower->scan().Checkpoint().value_or(start + 1) <= end) {
      auto rows = follower->Next();
      EXPECT_OK(rows);
      if (!rows.ok() || !rows->has_value()) break;
      all.insert(all.end(), (*rows)->begin(), (*rows)->end());
    }
    std::sort(all.begin(), all.end());
    return all;
  }

  test::TempDir dir_;
  int tables_ = 0;
};

TEST_F(BatchStartupModeTest, IncrementalBetweenSnapshotsOfAnAppendTable) {
  StreamTable t = Make(false, {});
  ASSERT_OK(t.Commit({{1, "a"}, {2, "b"}}));
  ASSERT_OK(t.Commit({{3, "c"}}));
  ASSERT_OK(t.Commit({{4, "d"}}));
  EXPECT_EQ(Read(t.table(), {{"incremental-between", "1,3"}}), (Rows{"3 c", "4 d"}));
  // The start is exclusive and may be the snapshot before the earliest.
  EXPECT_EQ(Read(t.table(), {{"incremental-between", "0,1"}}), (Rows{"1 a", "2 b"}));
  EXPECT_EQ(Read(t.table(), {{"incremental-between", "2,2"}}), Rows{});
  EXPECT_EQ(Read(t.table(), {{"incremental-between", "1,3"}}, ScanMode::kDelta),
            (Rows{"+I 3 c", "+I 4 d"}));
  EXPECT_TRUE(test::HasError(TryRead(t.table(), {{"incremental-between", "1,9"}}),
                             StatusCode::kInvalidArgument,
                             {"incremental-between", "(1, 9]", "[1, 3]"}));
  EXPECT_TRUE(test::HasError(TryRead(t.table(), {{"incremental-between", "3,1"}}),
                             StatusCode::kInvalidArgument, {"incremental-between", "3,1"}));
  EXPECT_TRUE(test::HasError(TryRead(t.table(), {{"incremental-between", "x,y"}}),
                             StatusCode::kInvalidArgument, {"x,y", "neither two tags"}));
  EXPECT_TRUE(test::HasError(TryRead(t.table(), {{"incremental-between", "5"}}),
                             StatusCode::kInvalidArgument, {"incremental-between", "'5'"}));
  EXPECT_TRUE(test::HasError(TryRead(t.table(), {{"incremental-between", "1,3"},
                                                 {"incremental-between-scan-mode", "diff"}}),
                             StatusCode::kInvalidArgument, {"diff", "primary-key"}));
}

TEST_F(BatchStartupModeTest, IncrementalPrimaryKeyChangesKeepKindsInDeltaMode) {
  StreamTable t = Make(true, {{"bucket", "2"}});
  ASSERT_OK(t.Commit({{1, "a"}, {2, "b"}}));
  ASSERT_OK(t.Commit({{1, "a2"}, {2, "", RowKind::kDelete}}));
  ASSERT_OK(t.Compact());
  ASSERT_OK(t.Commit({{3, "c"}}));
  // Delta reads skip the COMPACT snapshot; every change keeps its kind.
  EXPECT_EQ(Read(t.table(), {{"incremental-between", "1,4"}}, ScanMode::kDelta),
            (Rows{"+I 1 a2", "+I 3 c", "-D 2 "}));
  EXPECT_EQ(Read(t.table(), {{"incremental-between", "1,4"}}, ScanMode::kDelta),
            Followed(t.table(), 1, 4));
  // A batch read returns the rows, not the retractions.
  EXPECT_EQ(Read(t.table(), {{"incremental-between", "1,4"}}), (Rows{"1 a2", "3 c"}));
}

TEST_F(BatchStartupModeTest, IncrementalReadsTheChangelogOfAChangelogProducer) {
  StreamTable t = Make(true, {{"bucket", "1"}, {"changelog-producer", "lookup"}});
  ASSERT_OK(t.Commit({{1, "a"}, {2, "b"}}));
  ASSERT_OK(t.Compact());
  ASSERT_OK(t.Commit({{1, "a2"}, {2, "", RowKind::kDelete}}));
  ASSERT_OK(t.Compact());
  ASSERT_OK_AND_ASSIGN(std::optional<int64_t> latest,
                       SnapshotManager(LocalFileIO(), t.table().path()).LatestSnapshotId());
  ASSERT_TRUE(latest.has_value());
  const std::string range = "0," + std::to_string(*latest);
  // `auto` reads the changelog, as the follower does; `delta` the data files written.
  ASSERT_OK_AND_ASSIGN(Rows changelog,
                       TryRead(t.table(), {{"incremental-between", range}}, ScanMode::kDelta));
  EXPECT_EQ(changelog, Followed(t.table(), 0, *latest));
  EXPECT_NE(std::find(changelog.begin(), changelog.end(), "-U 1 a"), changelog.end());
  EXPECT_NE(std::find(changelog.begin(), changelog.end(), "+U 1 a2"), changelog.end());
  EXPECT_EQ(
      Read(t.table(), {{"incremental-between", range}, {"incremental-between-scan-mode", "delta"}},
           ScanMode::kDelta),
      (Rows{"+I 1 a", "+I 1 a2", "+I 2 b", "-D 2 "}));
}

TEST_F(BatchStartupModeTest, IncrementalBetweenTimestampsAndTags) {
  StreamTable t = Make(false, {});
  ASSERT_OK(t.Commit({{1, "a"}}));
  ASSERT_OK(t.Commit({{2, "b"}}));
  ASSERT_OK(t.Commit({{3, "c"}}));
  SnapshotManager snapshots(LocalFileIO(), t.table().path());
  ASSERT_OK_AND_ASSIGN(Snapshot s1, snapshots.LoadSnapshot(1));
  ASSERT_OK_AND_ASSIGN(Snapshot s3, snapshots.LoadSnapshot(3));
  // From before the first snapshot to the last one: every change.
  EXPECT_EQ(
      Read(t.table(), {{"incremental-between-timestamp", std::to_string(s1.time_millis - 1) + "," +
                                                             std::to_string(s3.time_millis)}}),
      (Rows{"1 a", "2 b", "3 c"}));
  // Snapshot 1's time is the start (exclusive) when it is older than snapshot 2's.
  ASSERT_OK_AND_ASSIGN(Snapshot s2, snapshots.LoadSnapshot(2));
  if (s2.time_millis > s1.time_millis) {
    EXPECT_EQ(
        Read(t.table(), {{"incremental-between-timestamp",
                          std::to_string(s1.time_millis) + "," + std::to_string(s3.time_millis)}}),
        (Rows{"2 b", "3 c"}));
  }
  // Entirely after the latest snapshot: nothing.
  EXPECT_EQ(
      Read(t.table(), {{"incremental-between-timestamp", std::to_string(s3.time_millis + 1) + "," +
                                                             std::to_string(s3.time_millis + 9)}}),
      Rows{});
  EXPECT_TRUE(test::HasError(TryRead(t.table(), {{"incremental-between-timestamp", "x"}}),
                             StatusCode::kInvalidArgument, {"incremental-between-timestamp"}));

  ASSERT_OK(CreateTag(t.table(), "first", TagAt(1)).status());
  ASSERT_OK(CreateTag(t.table(), "third", TagAt(3)).status());
  // Two tags of an append table mean a diff, which needs keys.
  EXPECT_TRUE(test::HasError(TryRead(t.table(), {{"incremental-between", "first,third"}}),
                             StatusCode::kInvalidArgument, {"diff", "primary-key"}));
  EXPECT_EQ(Read(t.table(), {{"incremental-between", "first,third"},
                             {"incremental-between-tag-to-snapshot", "true"}}),
            (Rows{"2 b", "3 c"}));
}

TEST_F(BatchStartupModeTest, DiffComparesTheMergedRowsOfTwoVersions) {
  StreamTable t = Make(true, {{"bucket", "2"}});
  ASSERT_OK(t.Commit({{1, "a"}, {2, "b"}, {3, "c"}}));
  ASSERT_OK(t.Commit({{1, "a2"}, {2, "", RowKind::kDelete}}));
  ASSERT_OK(t.Compact());
  ASSERT_OK(t.Commit({{3, "c"}, {4, "d"}}));
  const Options diff = {{"incremental-between", "1,4"}, {"incremental-between-scan-mode", "diff"}};
  // Key 3 was written again with its old value: no change.
  EXPECT_EQ(Read(t.table(), diff, ScanMode::kDelta), (Rows{"+I 1 a2", "+I 4 d", "-D 2 b"}));
  EXPECT_EQ(Read(t.table(), diff), (Rows{"1 a2", "4 d"}));
  // From before the first snapshot: everything at snapshot 4 is new.
  EXPECT_EQ(
      Read(t.table(), {{"incremental-between", "0,4"}, {"incremental-between-scan-mode", "diff"}},
           ScanMode::kDelta),
      (Rows{"+I 1 a2", "+I 3 c", "+I 4 d"}));
  // Two tags are a diff unless `incremental-between-tag-to-snapshot`.
  ASSERT_OK(CreateTag(t.table(), "one", TagAt(1)).status());
  ASSERT_OK(CreateTag(t.table(), "four", TagAt(4)).status());
  EXPECT_EQ(Read(t.table(), {{"incremental-between", "one,four"}}, ScanMode::kDelta),
            (Rows{"+I 1 a2", "+I 4 d", "-D 2 b"}));
  EXPECT_EQ(
      Read(t.table(),
           {{"incremental-between", "one,four"}, {"incremental-between-tag-to-snapshot", "true"}},
           ScanMode::kDelta),
      (Rows{"+I 1 a2", "+I 3 c", "+I 4 d", "-D 2 "}));
  EXPECT_TRUE(test::HasError(TryRead(t.table(), {{"incremental-between", "four,one"}}),
                             StatusCode::kInvalidArgument, {"four,one", "before tag 'four'"}));
}

TEST_F(BatchStartupModeTest, DiffSplitsSurviveSerialization) {
  StreamTable t = Make(true, {{"bucket", "2"}});
  ASSERT_OK(t.Commit({{1, "a"}, {2, "b"}, {3, "c"}}));
  ASSERT_OK(t.Commit({{1, "a2"}, {2, "", RowKind::kDelete}, {5, "e"}}));
  ReadBuilder builder = t.table().NewReadBuilder();
  builder.WithMode(ScanMode::kDelta)
      .WithOption("incremental-between", "1,2")
      .WithOption("incremental-between-scan-mode", "diff");
  ASSERT_OK_AND_ASSIGN(TableScan scan, builder.NewScan());
  ASSERT_OK_AND_ASSIGN(TableScanPlan plan, scan.Plan());
  ASSERT_OK_AND_ASSIGN(TableRead read, builder.NewRead());
  ASSERT_FALSE(plan.splits.empty());
  int64_t rows = 0;
  for (const Split& split : plan.splits) {
    ASSERT_OK_AND_ASSIGN(std::string bytes, split.Serialize());
    ASSERT_OK_AND_ASSIGN(Split back, Split::Deserialize(bytes));
    EXPECT_TRUE(back == split);
    ASSERT_OK_AND_ASSIGN(std::unique_ptr<BatchReader> original, read.CreateReader(split));
    ASSERT_OK_AND_ASSIGN(std::unique_ptr<BatchReader> copy, read.CreateReader(back));
    ColumnBatch a(original->output_type());
    ColumnBatch b(copy->output_type());
    while (true) {
      ASSERT_OK_AND_ASSIGN(bool more_a, original->Next(&a));
      ASSERT_OK_AND_ASSIGN(bool more_b, copy->Next(&b));
      ASSERT_EQ(more_a, more_b);
      if (!more_a) break;
      ASSERT_EQ(a.num_rows(), b.num_rows());
      for (int64_t i = 0; i < a.num_rows(); ++i) EXPECT_EQ(a.GetRow(i), b.GetRow(i));
      rows += a.num_rows();
    }
  }
  EXPECT_EQ(rows, 3);  // +I 1 a2, -D 2 b, +I 5 e
}

TEST_F(BatchStartupModeTest, WatermarkReadsTheFirstSnapshotThatReachesIt) {
  StreamTable t = Make(false, {});
  ASSERT_OK(t.Commit({{1, "a"}}, false, 100));
  ASSERT_OK(t.Commit({{2, "b"}}, false, 200));
  ASSERT_OK(t.Commit({{3, "c"}}, false, 300));
  EXPECT_EQ(Read(t.table(), {{"scan.watermark", "150"}}), (Rows{"1 a", "2 b"}));
  EXPECT_EQ(Read(t.table(), {{"scan.watermark", "300"}}), (Rows{"1 a", "2 b", "3 c"}));
  EXPECT_EQ(Read(t.table(), {{"scan.watermark", "0"}}), (Rows{"1 a"}));
  EXPECT_TRUE(test::HasError(TryRead(t.table(), {{"scan.watermark", "301"}}), StatusCode::kNotFound,
                             {"scan.watermark", "301"}));
  EXPECT_TRUE(test::HasError(TryRead(t.table(), {{"scan.watermark", "soon"}}),
                             StatusCode::kInvalidArgument, {"scan.watermark", "soon"}));
  EXPECT_TRUE(test::HasError(
      TryRead(t.table(), {{"scan.mode", "incremental"}, {"incremental-to-auto-tag", "2026-12-01"}}),
      StatusCode::kNotSupported, {"incremental-to-auto-tag"}));
}

TEST_F(BatchStartupModeTest, CompactedFullReadsTheLatestCompaction) {
  StreamTable t = Make(true, {{"bucket", "1"}});
  ASSERT_OK(t.Commit({{1, "a"}}));
  EXPECT_EQ(Read(t.table(), {{"scan.mode", "compacted-full"}}), (Rows{"1 a"}));
  ASSERT_OK(t.Compact());
  ASSERT_OK(t.Commit({{2, "b"}}));
  EXPECT_EQ(Read(t.table(), {{"scan.mode", "compacted-full"}}), (Rows{"1 a"}));
  EXPECT_EQ(Read(t.table(), {}), (Rows{"1 a", "2 b"}));
}

TEST_F(BatchStartupModeTest, FileAndSnapshotCreationTimes) {
  StreamTable t = Make(false, {});
  ASSERT_OK(t.Commit({{1, "a"}}));
  ASSERT_OK(t.Commit({{2, "b"}}));
  ASSERT_OK(t.Commit({{3, "c"}}));
  EXPECT_EQ(Read(t.table(), {{"scan.file-creation-time-millis", "0"}}),
            (Rows{"1 a", "2 b", "3 c"}));
  EXPECT_EQ(Read(t.table(), {{"scan.file-creation-time-millis", "9223372036854775807"}}), Rows{});
  EXPECT_TRUE(test::HasError(TryRead(t.table(), {{"scan.mode", "from-file-creation-time"}}),
                             StatusCode::kInvalidArgument, {"scan.file-creation-time-millis"}));
  // A creation time between snapshots reads the first snapshot at or after it in full.
  SnapshotManager snapshots(LocalFileIO(), t.table().path());
  ASSERT_OK_AND_ASSIGN(Snapshot s1, snapshots.LoadSnapshot(1));
  ASSERT_OK_AND_ASSIGN(Snapshot s2, snapshots.LoadSnapshot(2));
  if (s2.time_millis > s1.time_millis) {
    EXPECT_EQ(Read(t.table(), {{"scan.creation-time-millis", std::to_string(s2.time_millis)}}),
              (Rows{"1 a", "2 b"}));
  }
  EXPECT_EQ(Read(t.table(), {{"scan.creation-time-millis", "0"}}), (Rows{"1 a", "2 b", "3 c"}));
  EXPECT_EQ(Read(t.table(), {{"scan.creation-time-millis", "9223372036854775807"}}), Rows{});
}

}  // namespace
}  // namespace sluice
