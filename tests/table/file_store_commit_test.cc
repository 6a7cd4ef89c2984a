// FileStoreCommit: commits round-trip through PlanScan + OpenSplitReader, snapshot JSON as Java
// 1.3 writes it, manifest rolling and merging, conflicts, idempotence, overwrite, lost races.

#include "sluice/table/sink/file_store_commit.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "commit_test_util.h"
#include "sluice/base/json_reader.h"
#include "sluice/meta/hint_file.h"
#include "sluice/table/sink/file_store_write.h"
#include "sluice/table/table_checker.h"
#include "test_util.h"

namespace sluice {
namespace {

using test::AddFiles;
using test::Committable;
using test::CompactFiles;
using test::CreateTestRowTable;
using test::MakeRows;
using test::OpenTestTable;
using test::ReadList;
using test::ReadTestTable;
using test::Sorted;
using test::TestRow;
using test::WriteTestDataFile;

std::vector<TestRow> Concat(std::vector<std::vector<TestRow>> parts) {
  std::vector<TestRow> out;
  for (auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return Sorted(std::move(out));
}

class FileStoreCommitTest : public ::testing::Test {
 protected:
  void Create(bool partitioned, TableOptions options = {}, bool primary_key = false) {
    dir_ = tmp_.path() + "/t";
    ASSERT_OK(CreateTestRowTable(dir_, partitioned, std::move(options), primary_key));
    auto table = OpenTestTable(dir_);
    ASSERT_OK(table);
    table_ = *table;
  }

  std::unique_ptr<FileStoreCommit> Committer(const std::string& user) {
    auto commit = FileStoreCommit::Make(table_, user);
    EXPECT_OK(commit);
    return std::move(commit).value();
  }

  // A commit message adding one new file of `rows` to bucket 0 of partition `pt`.
  CommitMessageImpl NewFileIn(int32_t pt, const std::vector<TestRow>& rows) {
    return AddFiles(*table_, pt, 0, {WriteTestDataFile(*table_, 0, rows)});
  }

  Snapshot Load(int64_t id) {
    auto s = table_->snapshot_manager().LoadSnapshot(id);
    EXPECT_OK(s);
    return s.ok() ? *s : Snapshot();
  }

  std::vector<TestRow> Read() {
    auto rows = ReadTestTable(dir_);
    EXPECT_OK(rows);
    return rows.ok() ? *rows : std::vector<TestRow>();
  }

  // The structural check (table_checker.h) over every snapshot of the table.
  void ExpectTableChecks() {
    auto table = OpenTestTable(dir_);
    ASSERT_OK(table);
    auto report = RunTableCheck(**table);
    ASSERT_OK(report);
    for (const auto& p : report->problems) ADD_FAILURE() << p;
    EXPECT_GT(report->files_read, 0);
  }

  ::sluice::test::TempDir tmp_;
  std::string dir_;
  std::shared_ptr<FileStoreTable> table_;
};

TEST_F(FileStoreCommitTest, AppendsRoundTripThroughTheReader) {
  Create(/*partitioned=*/true);
  auto commit = Committer("user-a");
  auto r1 = MakeRows(1, 0, 5, "a");
  auto r2 = MakeRows(2, 100, 3, "b");
  auto f1 = WriteTestDataFile(*table_, 0, r1);
  auto f2 = WriteTestDataFile(*table_, 0, r2);
  auto res = commit->Commit(
      Committable(1, {AddFiles(*table_, 1, 0, {f1}), AddFiles(*table_, 2, 0, {f2})}));
  ASSERT_OK(res);
  EXPECT_EQ(res->snapshot_ids, std::vector<int64_t>{1});
  EXPECT_EQ(res->attempts, 1);
  EXPECT_EQ(Read(), Concat({r1, r2}));

  auto r3 = MakeRows(1, 10, 4, "c");
  auto f3 = WriteTestDataFile(*table_, 0, r3, 5);
  res = commit->Commit(Committable(2, {AddFiles(*table_, 1, 0, {f3})}));
  ASSERT_OK(res);
  EXPECT_EQ(res->snapshot_ids, std::vector<int64_t>{2});
  EXPECT_EQ(Read(), Concat({r1, r2, r3}));
  // Time travel to the first snapshot still sees its rows only.
  auto first = ReadTestTable(dir_, TableVersion::SnapshotId(1));
  ASSERT_OK(first);
  EXPECT_EQ(*first, Concat({r1, r2}));

  Snapshot s1 = Load(1);
  Snapshot s2 = Load(2);
  EXPECT_EQ(s1.commit_kind, CommitKind::kAppend);
  EXPECT_EQ(s1.total_record_count, 8);
  EXPECT_EQ(s1.delta_record_count, 8);
  // Java 1.4 (ManifestEntry.nullableRecordCount): no changelog files, no changelogRecordCount.
  EXPECT_FALSE(s1.changelog_record_count.has_value());
  EXPECT_EQ(s2.total_record_count, 12);
  EXPECT_EQ(s2.delta_record_count, 4);
  EXPECT_EQ(s2.commit_user, "user-a");
  EXPECT_EQ(s2.commit_identifier, 2);
  EXPECT_EQ(s2.schema_id, 0);
  EXPECT_FALSE(s2.index_manifest.has_value());
  // The base list of snapshot 2 is snapshot 1's data manifests.
  EXPECT_EQ(ReadList(dir_, s2.base_manifest_list).size(), 1u);
  auto delta = ReadList(dir_, s2.delta_manifest_list);
  ASSERT_EQ(delta.size(), 1u);
  EXPECT_EQ(delta[0].num_added_files, 1);
  EXPECT_EQ(delta[0].num_deleted_files, 0);
  EXPECT_EQ(delta[0].min_bucket, 0);
  EXPECT_EQ(delta[0].max_level, 0);

  auto io = LocalFileIO();
  EXPECT_EQ(ReadHint(io.get(), dir_ + "/snapshot", "LATEST"), 2);
  EXPECT_EQ(ReadHint(io.get(), dir_ + "/snapshot", "EARLIEST"), 1);
  ExpectTableChecks();
}

TEST_F(FileStoreCommitTest, SnapshotJsonHasTheKeysJava14Writes) {
  Create(false);
  auto commit = Committer("user-a");
  auto f = WriteTestDataFile(*table_, 0, MakeRows(0, 0, 3, "x"));
  ASSERT_OK(commit->Commit(Committable(7, {AddFiles(*table_, 0, 0, {f})})));
  auto text = LocalFileIO()->ReadFile(dir_ + "/snapshot/snapshot-1");
  ASSERT_OK(text);
  auto json = nlohmann::ordered_json::parse(*text);
  std::vector<std::string> keys;
  for (auto it = json.begin(); it != json.end(); ++it) keys.push_back(it.key());
  // The keys Java 1.4.2's FileStoreCommitImpl writes for a commit without changelog, index,
  // watermark, statistics or properties (new Snapshot(...).toJson() with paimon-bundle-1.4.2):
  // the null ones (changelogManifestList, changelogRecordCount, ...) are left out, as every
  // nullable field of Snapshot.java is @JsonInclude(NON_NULL), and logOffsets is gone in 1.4.
  const std::vector<std::string> expected = {"version",
                                             "id",
                                             "schemaId",
                                             "baseManifestList",
                                             "baseManifestListSize",
                                             "deltaManifestList",
                                             "deltaManifestListSize",
                                             "commitUser",
                                             "commitIdentifier",
                                             "commitKind",
                                             "timeMillis",
                                             "totalRecordCount",
                                             "deltaRecordCount",
                                             "nextRowId"};
  EXPECT_EQ(keys, expected);
  EXPECT_EQ(json["version"], 3);
  EXPECT_EQ(json["commitKind"], "APPEND");
  EXPECT_EQ(json["commitIdentifier"], 7);
  ExpectTableChecks();
}

TEST_F(FileStoreCommitTest, EmptyCommitMakesNoSnapshot) {
  Create(false);
  auto commit = Committer("user-a");
  auto res = commit->Commit(Committable(1, {}));
  ASSERT_OK(res);
  EXPECT_TRUE(res->snapshot_ids.empty());
  auto latest = table_->snapshot_manager().LatestSnapshotId();
  ASSERT_OK(latest);
  EXPECT_FALSE(latest->has_value());
}

// A DataFileMeta for a file that is never read (manifest-level tests).
DataFileMeta FakeFile(const std::string& name, int64_t rows, int32_t level = 0) {
  DataFileMeta f;
  f.file_name = name;
  f.file_size = 100;
  f.row_count = rows;
  f.min_key = EmptySerializedRow();
  f.max_key = EmptySerializedRow();
  f.key_stats = SimpleStats{EmptySerializedRow(), EmptySerializedRow(),
                            std::vector<std::optional<int64_t>>()};
  f.value_stats = f.key_stats;
  f.level = level;
  f.file_source = FileSource::kAppend;
  return f;
}

TEST_F(FileStoreCommitTest, ManifestsRollAtTheTargetSize) {
  Create(false, {{"manifest.target-file-size", "1 b"}});
  auto commit = Committer("user-a");
  std::vector<DataFileMeta> files;
  for (int i = 0; i < 2500; ++i) files.push_back(FakeFile("data-" + std::to_string(i), 1));
  auto res = commit->Commit(Committable(1, {AddFiles(*table_, 0, 0, files)}));
  ASSERT_OK(res);
  // Java checks the size every 1000 entries: 1000 + 1000 + 500.
  auto delta = ReadList(dir_, Load(1).delta_manifest_list);
  ASSERT_EQ(delta.size(), 3u);
  EXPECT_EQ(delta[0].num_added_files, 1000);
  EXPECT_EQ(delta[1].num_added_files, 1000);
  EXPECT_EQ(delta[2].num_added_files, 500);
  EXPECT_EQ(Load(1).total_record_count, 2500);
  for (const auto& m : delta) {
    auto entries = ReadManifestFile(*LocalFileIO(), ManifestFilePath(dir_, m.file_name));
    ASSERT_OK(entries);
    EXPECT_EQ(static_cast<int64_t>(entries->size()), m.num_added_files);
    auto status = LocalFileIO()->GetStatus(ManifestFilePath(dir_, m.file_name));
    ASSERT_OK(status);
    EXPECT_EQ(status->size, m.file_size);
  }
}

TEST_F(FileStoreCommitTest, BaseManifestsMergeAtMinCount) {
  Create(true, {{"manifest.merge-min-count", "3"}});
  auto commit = Committer("user-a");
  std::vector<TestRow> all;
  std::vector<size_t> base_sizes;
  for (int i = 1; i <= 5; ++i) {
    auto rows = MakeRows(i % 2, i * 10, 2, "m");
    all.insert(all.end(), rows.begin(), rows.end());
    auto f = WriteTestDataFile(*table_, 0, rows);
    ASSERT_OK(commit->Commit(Committable(i, {AddFiles(*table_, i % 2, 0, {f})})));
    base_sizes.push_back(ReadList(dir_, Load(i).base_manifest_list).size());
  }
  // Base of snapshot i = the data manifests of snapshot i - 1, merged into one file once there
  // are 3 of them: 0, 1, 2, then 3 -> 1, then 1 + 1 = 2.
  EXPECT_EQ(base_sizes, (std::vector<size_t>{0, 1, 2, 1, 2}));
  auto merged = ReadList(dir_, Load(4).base_manifest_list);
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0].num_added_files, 3);
  // Partition statistics of the merged manifest span partitions 0 and 1.
  auto min = DecodeSerializedBinaryRow(merged[0].partition_stats.min_values,
                                       *table_->schema().LogicalPartitionType());
  auto max = DecodeSerializedBinaryRow(merged[0].partition_stats.max_values,
                                       *table_->schema().LogicalPartitionType());
  ASSERT_OK(min);
  ASSERT_OK(max);
  EXPECT_EQ((*min)[0].AsInt64(), 0);
  EXPECT_EQ((*max)[0].AsInt64(), 1);
  EXPECT_EQ(Read(), Sorted(all));
  ExpectTableChecks();
}

TEST_F(FileStoreCommitTest, FullCompactionOfManifestsDropsDeletedFiles) {
  Create(false, {{"manifest.full-compaction-threshold-size", "1 b"}});
  auto commit = Committer("user-a");
  auto r1 = MakeRows(0, 0, 3, "a");
  auto r2 = MakeRows(0, 3, 3, "b");
  auto f1 = WriteTestDataFile(*table_, 0, r1);
  auto f2 = WriteTestDataFile(*table_, 0, r2);
  ASSERT_OK(commit->Commit(Committable(1, {AddFiles(*table_, 0, 0, {f1})})));
  ASSERT_OK(commit->Commit(Committable(2, {AddFiles(*table_, 0, 0, {f2})})));
  // Compact f1 + f2 into f3.
  auto f3 = WriteTestDataFile(*table_, 0, Concat({r1, r2}));
  f3.level = 0;
  auto res = commit->Commit(Committable(3, {CompactFiles(*table_, 0, 0, {f1, f2}, {f3})}));
  ASSERT_OK(res);
  EXPECT_EQ(Load(3).commit_kind, CommitKind::kCompact);
  EXPECT_EQ(Load(3).delta_record_count, 0);
  EXPECT_EQ(Load(3).total_record_count, 6);
  auto f4 = WriteTestDataFile(*table_, 0, MakeRows(0, 9, 1, "c"));
  ASSERT_OK(commit->Commit(Committable(4, {AddFiles(*table_, 0, 0, {f4})})));
  // Snapshot 4's base is snapshot 3's manifests fully compacted: f3 only, no DELETE entries.
  auto base = ReadList(dir_, Load(4).base_manifest_list);
  ASSERT_EQ(base.size(), 1u);
  EXPECT_EQ(base[0].num_added_files, 1);
  EXPECT_EQ(base[0].num_deleted_files, 0);
  auto entries = ReadManifestFile(*LocalFileIO(), ManifestFilePath(dir_, base[0].file_name));
  ASSERT_OK(entries);
  ASSERT_EQ(entries->size(), 1u);
  EXPECT_EQ((*entries)[0].file.file_name, f3.file_name);
  EXPECT_EQ(Read(), Concat({r1, r2, MakeRows(0, 9, 1, "c")}));
  ExpectTableChecks();
}

TEST_F(FileStoreCommitTest, DataAndCompactionMakeTwoSnapshots) {
  Create(false);
  auto commit = Committer("user-a");
  auto r1 = MakeRows(0, 0, 2, "a");
  auto f1 = WriteTestDataFile(*table_, 0, r1);
  ASSERT_OK(commit->Commit(Committable(1, {AddFiles(*table_, 0, 0, {f1})})));
  auto r2 = MakeRows(0, 2, 2, "b");
  auto f2 = WriteTestDataFile(*table_, 0, r2);
  auto f3 = WriteTestDataFile(*table_, 0, r1);
  CommitMessageImpl m = AddFiles(*table_, 0, 0, {f2});
  m.compact.compact_before = {f1};
  m.compact.compact_after = {f3};
  auto res = commit->Commit(Committable(2, {m}));
  ASSERT_OK(res);
  EXPECT_EQ(res->snapshot_ids, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(Load(2).commit_kind, CommitKind::kAppend);
  EXPECT_EQ(Load(3).commit_kind, CommitKind::kCompact);
  EXPECT_EQ(Load(3).commit_identifier, 2);
  EXPECT_EQ(Read(), Concat({r1, r2}));
  ExpectTableChecks();
}

// Issue #17: a write whose data landed never reports failure. A concurrent compaction of the
// same files lands between this commit's APPEND and COMPACT snapshots: the compaction is
// dropped (its new file deleted), the commit succeeds and says so, the rows are committed.
TEST_F(FileStoreCommitTest, CompactionLosingARaceAfterTheDataLandedIsDropped) {
  Create(false);
  auto seed = Committer("seed");
  auto r1 = MakeRows(0, 0, 2, "a");
  auto r2 = MakeRows(0, 2, 2, "b");
  auto f1 = WriteTestDataFile(*table_, 0, r1);
  auto f2 = WriteTestDataFile(*table_, 0, r2);
  ASSERT_OK(seed->Commit(Committable(1, {AddFiles(*table_, 0, 0, {f1, f2})})));

  auto writer = Committer("writer");
  auto r3 = MakeRows(0, 4, 2, "c");
  CommitMessageImpl m = AddFiles(*table_, 0, 0, {WriteTestDataFile(*table_, 0, r3)});
  std::vector<TestRow> r12 = Concat({r1, r2});
  auto mine = WriteTestDataFile(*table_, 0, r12);
  m.compact.compact_before = {f1, f2};
  m.compact.compact_after = {mine};
  const std::string mine_path = dir_ + "/bucket-0/" + mine.file_name;
  ASSERT_TRUE(*table_->io()->Exists(mine_path));

  auto compactor = Committer("compactor");
  auto theirs = WriteTestDataFile(*table_, 0, r12);
  int appends_landed = 0;
  writer->SetStepHookForTesting([&](std::string_view step) {
    if (step != "hint-written" || ++appends_landed != 1) return;
    // Between the APPEND and the COMPACT snapshot: another process compacts f1 and f2.
    auto won = compactor->Commit(Committable(1, {CompactFiles(*table_, 0, 0, {f1, f2}, {theirs})}));
    ASSERT_OK(won);
  });
  auto res = writer->Commit(Committable(1, {m}));
  ASSERT_OK(res) << "the rows landed, so the write must not fail: " << res.status().ToString();
  EXPECT_EQ(res->snapshot_ids, (std::vector<int64_t>{2}));
  EXPECT_TRUE(test::HasError(res->compaction_dropped, StatusCode::kConflict,
                             {"file deletion conflicts detected", f1.file_name}));
  EXPECT_EQ(res->compaction_files_deleted, 1);
  EXPECT_FALSE(*table_->io()->Exists(mine_path)) << "the dropped compaction's file is deleted";
  EXPECT_EQ(Load(2).commit_kind, CommitKind::kAppend);
  EXPECT_EQ(Load(2).commit_user, "writer");
  EXPECT_EQ(Load(3).commit_user, "compactor");
  EXPECT_FALSE(*table_->snapshot_manager().SnapshotExists(4));
  EXPECT_EQ(Read(), Concat({r1, r2, r3}));
  ExpectTableChecks();
}

// A compaction-only commit that loses the race commits nothing, so it fails; its new file is
// deleted (nothing will ever name it), and a file it upgraded in place is not.
TEST_F(FileStoreCommitTest, CompactionOnlyCommitThatConflictsFailsAndDeletesItsOutput) {
  Create(false);
  auto f1 = WriteTestDataFile(*table_, 0, MakeRows(0, 0, 2, "a"));
  auto f2 = WriteTestDataFile(*table_, 0, MakeRows(0, 2, 2, "b"));
  ASSERT_OK(Committer("seed")->Commit(Committable(1, {AddFiles(*table_, 0, 0, {f1, f2})})));
  auto theirs = WriteTestDataFile(*table_, 0, MakeRows(0, 0, 2, "a"));
  ASSERT_OK(Committer("compactor")
                ->Commit(Committable(1, {CompactFiles(*table_, 0, 0, {f1}, {theirs})})));
  auto mine = WriteTestDataFile(*table_, 0, MakeRows(0, 0, 2, "a"));
  DataFileMeta upgraded = f2;
  upgraded.level = 5;
  auto res = Committer("loser")->Commit(
      Committable(1, {CompactFiles(*table_, 0, 0, {f1, f2}, {mine, upgraded})}));
  EXPECT_TRUE(test::HasError(res, StatusCode::kConflict,
                             {"file deletion conflicts detected", f1.file_name, "is not live"}));
  EXPECT_FALSE(*table_->io()->Exists(dir_ + "/bucket-0/" + mine.file_name));
  EXPECT_TRUE(*table_->io()->Exists(dir_ + "/bucket-0/" + f2.file_name));
  ExpectTableChecks();
}

// Java 2.1.1 (apache/paimon#10582): discarding a compaction deletes only what it wrote. This
// commit's APPEND lands a new file, and its compaction (rewriting a committed file and
// upgrading the new one in place) loses a race: the rewrite's output is deleted, the upgraded
// file, which the APPEND snapshot names, is not.
TEST_F(FileStoreCommitTest, DroppedCompactionKeepsTheNewFileItUpgraded) {
  Create(false);
  auto r1 = MakeRows(0, 0, 2, "a");
  auto f1 = WriteTestDataFile(*table_, 0, r1);
  ASSERT_OK(Committer("seed")->Commit(Committable(1, {AddFiles(*table_, 0, 0, {f1})})));

  auto writer = Committer("writer");
  auto r2 = MakeRows(0, 2, 2, "b");
  auto fresh = WriteTestDataFile(*table_, 0, r2);
  CommitMessageImpl m = AddFiles(*table_, 0, 0, {fresh});
  auto mine = WriteTestDataFile(*table_, 0, r1);
  DataFileMeta upgraded = fresh;
  upgraded.level = 5;
  m.compact.compact_before = {f1, fresh};
  m.compact.compact_after = {mine, upgraded};

  auto compactor = Committer("compactor");
  auto theirs = WriteTestDataFile(*table_, 0, r1);
  int appends_landed = 0;
  writer->SetStepHookForTesting([&](std::string_view step) {
    if (step != "hint-written" || ++appends_landed != 1) return;
    ASSERT_OK(compactor->Commit(Committable(1, {CompactFiles(*table_, 0, 0, {f1}, {theirs})})));
  });
  auto res = writer->Commit(Committable(1, {m}));
  ASSERT_OK(res);
  EXPECT_EQ(res->snapshot_ids, (std::vector<int64_t>{2}));
  EXPECT_TRUE(test::HasError(res->compaction_dropped, StatusCode::kConflict,
                             {"file deletion conflicts detected", f1.file_name}));
  EXPECT_EQ(res->compaction_files_deleted, 1);
  EXPECT_FALSE(*table_->io()->Exists(dir_ + "/bucket-0/" + mine.file_name));
  EXPECT_TRUE(*table_->io()->Exists(dir_ + "/bucket-0/" + fresh.file_name))
      << "the upgraded file is the APPEND snapshot's";
  EXPECT_EQ(Read(), Concat({r1, r2}));
  ExpectTableChecks();
}

TEST_F(FileStoreCommitTest, ChangelogFilesGetTheirOwnList) {
  Create(false);
  auto commit = Committer("user-a");
  CommitMessageImpl m = AddFiles(*table_, 0, 0, {FakeFile("data-1", 4)});
  m.data.changelog_files = {FakeFile("changelog-1", 3)};
  ASSERT_OK(commit->Commit(Committable(1, {m})));
  Snapshot s = Load(1);
  ASSERT_TRUE(s.changelog_manifest_list.has_value());
  ASSERT_TRUE(s.changelog_manifest_list_size.has_value());
  EXPECT_EQ(s.changelog_record_count, 3);
  EXPECT_EQ(s.delta_record_count, 4);
  auto list = ReadList(dir_, *s.changelog_manifest_list);
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0].num_added_files, 1);
}

TEST_F(FileStoreCommitTest, DeletingAFileTwiceIsAConflict) {
  Create(true);
  auto a = Committer("user-a");
  auto b = Committer("user-b");
  auto f1 = WriteTestDataFile(*table_, 0, MakeRows(3, 0, 2, "a"));
  ASSERT_OK(a->Commit(Committable(1, {AddFiles(*table_, 3, 0, {f1})})));
  auto f2 = WriteTestDataFile(*table_, 0, MakeRows(3, 0, 2, "a"));
  auto f3 = WriteTestDataFile(*table_, 0, MakeRows(3, 0, 2, "a"));
  ASSERT_OK(a->Commit(Committable(2, {CompactFiles(*table_, 3, 0, {f1}, {f2})})));
  // user-b compacted the same file concurrently.
  auto res = b->Commit(Committable(1, {CompactFiles(*table_, 3, 0, {f1}, {f3})}));
  EXPECT_TRUE(test::HasError(res, StatusCode::kConflict,
                             {f1.file_name, "pt=3", "bucket 0", "user-a", dir_}));
  // Nothing changed.
  auto latest = table_->snapshot_manager().LatestSnapshotId();
  ASSERT_OK(latest);
  EXPECT_EQ(*latest, 2);
  // An append that deletes a file that is not live conflicts too (it is an OVERWRITE commit).
  CommitMessageImpl del = AddFiles(*table_, 3, 0, {});
  del.data.deleted_files = {f1};
  res = b->Commit(Committable(2, {del}));
  EXPECT_TRUE(test::HasError(res, StatusCode::kConflict,
                             {"the commit deletes", f1.file_name, "which is not live"}));
  // Deleting a live file through an append is an OVERWRITE snapshot.
  del.data.deleted_files = {f2};
  res = b->Commit(Committable(3, {del}));
  ASSERT_OK(res);
  EXPECT_EQ(Load(3).commit_kind, CommitKind::kOverwrite);
  EXPECT_EQ(Load(3).total_record_count, 0);
  EXPECT_TRUE(Read().empty());
}

TEST_F(FileStoreCommitTest, AddingALiveFileAgainIsAConflict) {
  Create(false);
  auto a = Committer("user-a");
  auto f1 = FakeFile("data-1", 1);
  auto f2 = FakeFile("data-2", 1);
  ASSERT_OK(a->Commit(Committable(1, {AddFiles(*table_, 0, 0, {f1, f2})})));
  auto res = a->Commit(Committable(2, {CompactFiles(*table_, 0, 0, {f1}, {f2})}));
  EXPECT_TRUE(test::HasError(res, StatusCode::kConflict,
                             {"the commit adds", "file data-2, which is already live"}));
}

TEST_F(FileStoreCommitTest, BucketCountChangeWithoutOverwriteIsAConflict) {
  Create(true, {{"bucket", "2"}, {"bucket-key", "id"}});
  auto a = Committer("user-a");
  ASSERT_OK(a->Commit(Committable(1, {AddFiles(*table_, 1, 0, {FakeFile("data-1", 1)})})));
  CommitMessageImpl m = CompactFiles(*table_, 1, 1, {}, {FakeFile("data-2", 1)});
  m.total_buckets = 4;
  auto res = a->Commit(Committable(2, {m}));
  EXPECT_TRUE(test::HasError(res, StatusCode::kConflict,
                             {"total buckets of partition {", "changed from 2 to 4"}));
}

// Key rows (trimmed primary key `id`) for a primary-key file's min / max key.
std::string KeyRow(int64_t id) {
  auto type = DataType::Row({DataField{1, "id", DataType::BigInt(false), {}, {}}});
  return ::sluice::test::SerializeStatsRow({Value::Int64(id)}, *type);
}

DataFileMeta KeyRangeFile(const std::string& name, int64_t min, int64_t max, int32_t level) {
  DataFileMeta f = FakeFile(name, max - min + 1, level);
  f.min_key = KeyRow(min);
  f.max_key = KeyRow(max);
  return f;
}

TEST_F(FileStoreCommitTest, OverlappingKeyRangesInOneLevelAreAConflict) {
  Create(false, {{"bucket", "1"}}, /*primary_key=*/true);
  auto a = Committer("user-a");
  auto b = Committer("user-b");
  auto l0 = KeyRangeFile("data-l0", 0, 100, 0);
  ASSERT_OK(a->Commit(Committable(1, {AddFiles(*table_, 0, 0, {l0})})));
  // a compacts into two level-1 files with disjoint ranges: fine.
  auto res = a->Commit(Committable(
      2, {CompactFiles(*table_, 0, 0, {l0},
                       {KeyRangeFile("data-a1", 0, 49, 1), KeyRangeFile("data-a2", 50, 100, 1)})}));
  ASSERT_OK(res);
  // b adds a level-1 file overlapping data-a2 (e.g. from a stale view of the bucket).
  res = b->Commit(
      Committable(1, {CompactFiles(*table_, 0, 0, {}, {KeyRangeFile("data-b1", 90, 120, 1)})}));
  EXPECT_TRUE(
      test::HasError(res, StatusCode::kConflict, {"LSM conflicts detected", "data-a2", "data-b1"}));
  // Touching ranges (max == next min) overlap as well; a disjoint file at level 2 is fine.
  res = b->Commit(
      Committable(2, {CompactFiles(*table_, 0, 0, {}, {KeyRangeFile("data-b2", 100, 110, 1)})}));
  EXPECT_TRUE(
      test::HasError(res, StatusCode::kConflict, {"LSM conflicts detected", "data-a2", "data-b2"}));
  res = b->Commit(
      Committable(3, {CompactFiles(*table_, 0, 0, {}, {KeyRangeFile("data-b3", 90, 120, 2)})}));
  EXPECT_OK(res);
}

TEST_F(FileStoreCommitTest, CommittedIdentifiersAreSkipped) {
  Create(false);
  auto r1 = MakeRows(0, 0, 2, "a");
  auto r2 = MakeRows(0, 2, 2, "b");
  auto r3 = MakeRows(0, 4, 2, "c");
  auto f1 = WriteTestDataFile(*table_, 0, r1);
  auto f2 = WriteTestDataFile(*table_, 0, r2);
  auto f3 = WriteTestDataFile(*table_, 0, r3);
  {
    auto a = Committer("user-a");
    ASSERT_OK(a->Commit(Committable(1, {AddFiles(*table_, 0, 0, {f1})})));
    ASSERT_OK(a->Commit(Committable(2, {AddFiles(*table_, 0, 0, {f2})})));
    auto again = a->Commit(Committable(2, {AddFiles(*table_, 0, 0, {f2})}));
    ASSERT_OK(again);
    EXPECT_TRUE(again->skipped);
    EXPECT_TRUE(again->snapshot_ids.empty());
  }
  // Another user's commit in between does not hide user-a's history.
  auto other = Committer("user-b");
  ASSERT_OK(other->Commit(Committable(1, {AddFiles(*table_, 0, 0, {f3})})));
  // A restarted writer of user-a replays identifiers 1..3: only 3 is new.
  auto restarted = Committer("user-a");
  auto pending = restarted->FilterCommitted({3, 1, 2});
  ASSERT_OK(pending);
  EXPECT_EQ(*pending, std::vector<int64_t>{3});
  for (int64_t id : {1, 2}) {
    auto res = restarted->Commit(Committable(id, {AddFiles(*table_, 0, 0, {f1})}));
    ASSERT_OK(res);
    EXPECT_TRUE(res->skipped);
  }
  auto f4 = WriteTestDataFile(*table_, 0, MakeRows(0, 6, 1, "d"));
  auto res = restarted->Commit(Committable(3, {AddFiles(*table_, 0, 0, {f4})}));
  ASSERT_OK(res);
  EXPECT_FALSE(res->skipped);
  EXPECT_EQ(Read(), Concat({r1, r2, r3, MakeRows(0, 6, 1, "d")}));
  ExpectTableChecks();
}

TEST_F(FileStoreCommitTest, StaticPartitionOverwrite) {
  Create(true);
  auto a = Committer("user-a");
  auto p1 = MakeRows(1, 0, 3, "old");
  auto p2 = MakeRows(2, 0, 3, "old");
  ASSERT_OK(a->Commit(Committable(1, {NewFileIn(1, p1), NewFileIn(2, p2)})));
  auto n1 = MakeRows(1, 10, 2, "new");
  auto res = a->Overwrite(Committable(2, {NewFileIn(1, n1)}), PartitionSpec{{"pt", "1"}});
  ASSERT_OK(res);
  EXPECT_EQ(res->snapshot_ids, std::vector<int64_t>{2});
  EXPECT_EQ(Load(2).commit_kind, CommitKind::kOverwrite);
  EXPECT_EQ(Load(2).total_record_count, 5);
  EXPECT_EQ(Load(2).delta_record_count, -1);
  EXPECT_EQ(Read(), Concat({n1, p2}));

  // New files outside the spec are refused.
  res = a->Overwrite(Committable(3, {NewFileIn(2, n1)}), PartitionSpec{{"pt", "1"}});
  EXPECT_TRUE(test::HasError(res, StatusCode::kInvalidArgument,
                             {"Trying to overwrite a partition of table " + dir_}));
  // An unknown key is refused.
  res = a->Overwrite(Committable(3, {}), PartitionSpec{{"nope", "1"}});
  EXPECT_TRUE(
      test::HasError(res, StatusCode::kInvalidArgument,
                     {"partition spec key 'nope' is not a partition key of table " + dir_}));

  // An empty spec replaces the whole table.
  auto n3 = MakeRows(3, 0, 1, "all");
  res = a->Overwrite(Committable(4, {NewFileIn(3, n3)}), PartitionSpec{});
  ASSERT_OK(res);
  EXPECT_EQ(Read(), n3);
  EXPECT_EQ(Load(3).total_record_count, 1);
  ExpectTableChecks();
}

TEST_F(FileStoreCommitTest, DynamicPartitionOverwrite) {
  Create(true);
  auto a = Committer("user-a");
  auto p1 = MakeRows(1, 0, 3, "old");
  auto p2 = MakeRows(2, 0, 3, "old");
  ASSERT_OK(a->Commit(Committable(1, {NewFileIn(1, p1), NewFileIn(2, p2)})));
  auto n2 = MakeRows(2, 10, 2, "new");
  auto n3 = MakeRows(3, 10, 2, "new");
  auto res = a->Overwrite(Committable(2, {NewFileIn(2, n2), NewFileIn(3, n3)}), std::nullopt);
  ASSERT_OK(res);
  EXPECT_EQ(Read(), Concat({p1, n2, n3}));
  EXPECT_EQ(Load(2).commit_kind, CommitKind::kOverwrite);
  // No new files: nothing is replaced, no snapshot.
  res = a->Overwrite(Committable(3, {}), std::nullopt);
  ASSERT_OK(res);
  EXPECT_TRUE(res->snapshot_ids.empty());
  EXPECT_EQ(Read(), Concat({p1, n2, n3}));
  ExpectTableChecks();
}

TEST_F(FileStoreCommitTest, DynamicOverwriteOfAnUnpartitionedTableReplacesEverything) {
  Create(false);
  auto a = Committer("user-a");
  ASSERT_OK(a->Commit(Committable(1, {NewFileIn(0, MakeRows(0, 0, 3, "old"))})));
  auto n = MakeRows(0, 5, 2, "new");
  auto res = a->Overwrite(Committable(2, {NewFileIn(0, n)}), std::nullopt);
  ASSERT_OK(res);
  EXPECT_EQ(Read(), n);
  ExpectTableChecks();
}

TEST_F(FileStoreCommitTest, LostRaceRetriesOnTheNewLatestSnapshot) {
  Create(false);
  auto a = Committer("user-a");
  auto b = Committer("user-b");
  auto ra = MakeRows(0, 0, 2, "a");
  auto rb = MakeRows(0, 10, 2, "b");
  auto fa = WriteTestDataFile(*table_, 0, ra);
  auto fb = WriteTestDataFile(*table_, 0, rb);
  int races = 0;
  // Just before a writes snapshot 1, b commits snapshot 1 first.
  a->SetStepHookForTesting([&](std::string_view step) {
    if (step == "before-snapshot" && races++ == 0) {
      auto res = b->Commit(Committable(1, {AddFiles(*table_, 0, 0, {fb})}));
      ASSERT_OK(res);
    }
  });
  auto before = ::sluice::test::ListFilesRecursive(dir_ + "/manifest");
  auto res = a->Commit(Committable(1, {AddFiles(*table_, 0, 0, {fa})}));
  ASSERT_OK(res);
  EXPECT_EQ(res->snapshot_ids, std::vector<int64_t>{2});
  EXPECT_EQ(res->attempts, 2);
  EXPECT_EQ(Load(1).commit_user, "user-b");
  EXPECT_EQ(Load(2).commit_user, "user-a");
  EXPECT_EQ(Load(2).total_record_count, 4);
  EXPECT_EQ(Read(), Concat({ra, rb}));
  // The lost attempt's files were removed: snapshot 1 (b) wrote 3 files (base list, manifest,
  // delta list), snapshot 2 (a) wrote 3 more.
  EXPECT_EQ(::sluice::test::ListFilesRecursive(dir_ + "/manifest").size(), before.size() + 6);
  ExpectTableChecks();
}

TEST_F(FileStoreCommitTest, ConflictFoundOnRetryFailsTheCommit) {
  Create(false);
  auto a = Committer("user-a");
  auto b = Committer("user-b");
  auto f1 = FakeFile("data-1", 1);
  ASSERT_OK(a->Commit(Committable(1, {AddFiles(*table_, 0, 0, {f1})})));
  bool raced = false;
  a->SetStepHookForTesting([&](std::string_view step) {
    if (step == "before-snapshot" && !raced) {
      raced = true;
      ASSERT_OK(
          b->Commit(Committable(1, {CompactFiles(*table_, 0, 0, {f1}, {FakeFile("data-b", 1)})})));
    }
  });
  auto res =
      a->Commit(Committable(2, {CompactFiles(*table_, 0, 0, {f1}, {FakeFile("data-a", 1)})}));
  EXPECT_TRUE(test::HasError(res, StatusCode::kConflict,
                             {"file deletion conflicts detected", "file data-1"}));
}

TEST_F(FileStoreCommitTest, RetriesRunOut) {
  Create(false, {{"commit.max-retries", "2"}, {"commit.min-retry-wait", "1 ms"}});
  auto a = Committer("user-a");
  auto b = Committer("user-b");
  int64_t next = 1;
  a->SetStepHookForTesting([&](std::string_view step) {
    if (step == "before-snapshot") {
      ASSERT_OK(b->Commit(Committable(
          next++, {AddFiles(*table_, 0, 0, {FakeFile("data-b" + std::to_string(next), 1)})})));
    }
  });
  auto res = a->Commit(Committable(1, {AddFiles(*table_, 0, 0, {FakeFile("data-a", 1)})}));
  EXPECT_TRUE(test::HasError(res, StatusCode::kConflict, {dir_, "failed after 2 retries"}));
}

IndexManifestEntry IndexFile(const std::string& type, const std::string& name, int32_t bucket) {
  IndexManifestEntry e;
  e.index_type = type;
  e.file_name = name;
  e.file_size = 10;
  e.row_count = 1;
  e.bucket = bucket;
  if (type == "DELETION_VECTORS") {
    e.deletion_vectors = std::vector<DeletionVectorMeta>{{"data-x", 1, 4, 1}};
  }
  return e;
}

TEST_F(FileStoreCommitTest, IndexManifestCarriesLiveEntriesForward) {
  Create(false, {{"bucket", "2"}, {"bucket-key", "id"}}, /*primary_key=*/true);
  auto a = Committer("user-a");
  CommitMessageImpl m0 = AddFiles(*table_, 0, 0, {KeyRangeFile("data-0", 0, 1, 0)});
  m0.data.new_index_files = {IndexFile("HASH", "index-h0", 0)};
  CommitMessageImpl m1 = AddFiles(*table_, 0, 1, {KeyRangeFile("data-1", 0, 1, 0)});
  m1.data.new_index_files = {IndexFile("HASH", "index-h1", 1)};
  ASSERT_OK(a->Commit(Committable(1, {m0, m1})));
  ASSERT_TRUE(Load(1).index_manifest.has_value());
  // No index changes: the index manifest is reused.
  ASSERT_OK(
      a->Commit(Committable(2, {AddFiles(*table_, 0, 0, {KeyRangeFile("data-2", 0, 1, 0)})})));
  EXPECT_EQ(Load(2).index_manifest, Load(1).index_manifest);
  // A new hash index of bucket 0 replaces the old one; bucket 1's stays.
  CommitMessageImpl m2 = AddFiles(*table_, 0, 0, {KeyRangeFile("data-3", 0, 1, 0)});
  m2.data.new_index_files = {IndexFile("HASH", "index-h0b", 0)};
  m2.data.deleted_index_files = {IndexFile("HASH", "index-h0", 0)};
  ASSERT_OK(a->Commit(Committable(3, {m2})));
  auto entries = ReadIndexManifest(*LocalFileIO(), ManifestFilePath(dir_, *Load(3).index_manifest));
  ASSERT_OK(entries);
  std::set<std::string> names;
  for (const auto& e : *entries) {
    names.insert(e.file_name);
    EXPECT_EQ(e.kind, FileKind::kAdd);
  }
  EXPECT_EQ(names, (std::set<std::string>{"index-h0b", "index-h1"}));
}

// Writes `rows` through FileStoreWrite and commits them as `identifier`.
void WriteAndCommit(const std::shared_ptr<FileStoreTable>& table, FileStoreCommit* commit,
                    int64_t identifier, const std::vector<TestRow>& rows,
                    const std::vector<RowKind>& kinds = {}) {
  auto write = FileStoreWrite::Open(table);
  ASSERT_OK(write);
  ColumnBatch batch(table->schema().LogicalRowType());
  for (const auto& r : rows) {
    ASSERT_OK(batch.AppendRow({Value::Int32(r.pt), Value::Int64(r.id), Value::String(r.v)}));
  }
  ASSERT_OK((*write)->Write(batch, kinds.empty() ? nullptr : kinds.data()));
  auto messages = (*write)->PrepareCommit(identifier);
  ASSERT_OK(messages);
  auto res = commit->Commit(Committable(identifier, std::move(messages).value()));
  ASSERT_OK(res);
  ASSERT_OK((*write)->Close());
}

TEST_F(FileStoreCommitTest, TableWriteAppendsRoundTrip) {
  Create(true);
  auto commit = Committer("user-a");
  auto r1 = Concat({MakeRows(1, 0, 50, "a"), MakeRows(2, 0, 20, "a")});
  auto r2 = MakeRows(1, 100, 30, "b");
  WriteAndCommit(table_, commit.get(), 1, r1);
  WriteAndCommit(table_, commit.get(), 2, r2);
  EXPECT_EQ(Read(), Concat({r1, r2}));
  EXPECT_EQ(Load(2).total_record_count, 100);
  ExpectTableChecks();
}

TEST_F(FileStoreCommitTest, TableWritePrimaryKeyUpsertsRoundTrip) {
  Create(true, {{"bucket", "2"}}, /*primary_key=*/true);
  auto commit = Committer("user-a");
  auto r1 = Concat({MakeRows(1, 0, 40, "a"), MakeRows(2, 0, 10, "a")});
  WriteAndCommit(table_, commit.get(), 1, r1);
  // Update half of partition 1's keys, delete two keys of partition 2.
  auto r2 = MakeRows(1, 0, 20, "b");
  WriteAndCommit(table_, commit.get(), 2, r2);
  std::vector<TestRow> deletes = {{2, 3, "a-3"}, {2, 4, "a-4"}};
  WriteAndCommit(table_, commit.get(), 3, deletes, {RowKind::kDelete, RowKind::kDelete});
  std::map<std::pair<int32_t, int64_t>, TestRow> model;
  for (const auto& r : r1) model[{r.pt, r.id}] = r;
  for (const auto& r : r2) model[{r.pt, r.id}] = r;
  for (const auto& r : deletes) model.erase({r.pt, r.id});
  std::vector<TestRow> expected;
  for (const auto& [key, row] : model) expected.push_back(row);
  EXPECT_EQ(Read(), Sorted(expected));
  EXPECT_EQ(Load(3).commit_kind, CommitKind::kAppend);
  // Record counts count the key-value records, as Java does (deletes are records too).
  EXPECT_EQ(Load(3).total_record_count, 72);
  ExpectTableChecks();
}

TEST_F(FileStoreCommitTest, ReplacingAnIndexFileTwiceIsAConflict) {
  Create(false, {{"bucket", "1"}, {"deletion-vectors.enabled", "true"}}, /*primary_key=*/true);
  auto a = Committer("user-a");
  auto b = Committer("user-b");
  CommitMessageImpl m = AddFiles(*table_, 0, 0, {KeyRangeFile("data-0", 0, 9, 1)});
  m.data.new_index_files = {IndexFile("DELETION_VECTORS", "index-dv0", 0)};
  ASSERT_OK(a->Commit(Committable(1, {m})));
  // a replaces the bucket's deletion vectors...
  CommitMessageImpl ma = AddFiles(*table_, 0, 0, {});
  ma.data.new_index_files = {IndexFile("DELETION_VECTORS", "index-dv-a", 0)};
  ma.data.deleted_index_files = {IndexFile("DELETION_VECTORS", "index-dv0", 0)};
  auto res = a->Commit(Committable(2, {ma}));
  ASSERT_OK(res);
  EXPECT_EQ(Load(2).commit_kind, CommitKind::kOverwrite);
  // ... and b, from the same starting point, too late.
  CommitMessageImpl mb = AddFiles(*table_, 0, 0, {});
  mb.data.new_index_files = {IndexFile("DELETION_VECTORS", "index-dv-b", 0)};
  mb.data.deleted_index_files = {IndexFile("DELETION_VECTORS", "index-dv0", 0)};
  res = b->Commit(Committable(1, {mb}));
  EXPECT_TRUE(test::HasError(res, StatusCode::kConflict,
                             {"index file conflicts detected", "index file index-dv0"}));
  auto entries = ReadIndexManifest(*LocalFileIO(), ManifestFilePath(dir_, *Load(2).index_manifest));
  ASSERT_OK(entries);
  ASSERT_EQ(entries->size(), 1u);
  EXPECT_EQ((*entries)[0].file_name, "index-dv-a");
}

TEST_F(FileStoreCommitTest, DamagedMetadataFailsTheCommitNamingTheFile) {
  Create(false);
  auto a = Committer("user-a");
  ASSERT_OK(a->Commit(Committable(1, {AddFiles(*table_, 0, 0, {FakeFile("data-1", 1)})})));
  const std::string list = ManifestFilePath(dir_, Load(1).delta_manifest_list);
  auto io = LocalFileIO();
  auto manifests_before = ::sluice::test::ListFilesRecursive(dir_ + "/manifest");
  // A truncated manifest list.
  auto content = io->ReadFile(list);
  ASSERT_OK(content);
  ASSERT_OK(io->WriteFileAtomic(list, content->substr(0, content->size() / 2), true));
  auto res = a->Commit(Committable(2, {AddFiles(*table_, 0, 0, {FakeFile("data-2", 1)})}));
  EXPECT_TRUE(test::HasError(res, StatusCode::kCorruption, {Load(1).delta_manifest_list}));
  // No snapshot, and the attempt's files are gone.
  EXPECT_EQ(*table_->snapshot_manager().LatestSnapshotId(), 1);
  EXPECT_EQ(::sluice::test::ListFilesRecursive(dir_ + "/manifest"), manifests_before);
  // A missing one.
  ASSERT_OK(io->Delete(list, false));
  res = a->Commit(Committable(2, {AddFiles(*table_, 0, 0, {FakeFile("data-2", 1)})}));
  EXPECT_TRUE(test::HasError(res, StatusCode::kNotFound, {Load(1).delta_manifest_list}));
  // A garbled snapshot file.
  ASSERT_OK(io->WriteFileAtomic(dir_ + "/snapshot/snapshot-1", "{\"version\": 3, \"id\":", true));
  res = a->Commit(Committable(2, {AddFiles(*table_, 0, 0, {FakeFile("data-2", 1)})}));
  EXPECT_TRUE(test::HasError(res, StatusCode::kCorruption, {"snapshot-1", "invalid JSON"}));
}

TEST_F(FileStoreCommitTest, FullCompactionKeepsManifestsOfOtherPartitions) {
  // Every manifest reaches the target size, so only manifests with deletions must change.
  Create(true, {{"manifest.target-file-size", "1 b"},
                {"manifest.full-compaction-threshold-size", "1 b"}});
  auto a = Committer("user-a");
  std::vector<DataFileMeta> files;
  std::vector<std::vector<TestRow>> rows;
  for (int pt = 1; pt <= 3; ++pt) {
    rows.push_back(MakeRows(pt, 0, 2, "p"));
    files.push_back(WriteTestDataFile(*table_, 0, rows.back()));
    ASSERT_OK(a->Commit(Committable(pt, {AddFiles(*table_, pt, 0, {files.back()})})));
  }
  auto replacement = WriteTestDataFile(*table_, 0, rows[0]);
  ASSERT_OK(a->Commit(Committable(4, {CompactFiles(*table_, 1, 0, {files[0]}, {replacement})})));
  auto f5 = WriteTestDataFile(*table_, 0, MakeRows(2, 10, 1, "q"));
  ASSERT_OK(a->Commit(Committable(5, {AddFiles(*table_, 2, 0, {f5})})));
  // Snapshot 5's base: the manifests of partitions 2 and 3 as they were, and one new manifest
  // holding the replacement (the manifest of partition 1 and the deletion cancelled out).
  auto before = ReadList(dir_, Load(4).base_manifest_list);
  auto after = ReadList(dir_, Load(5).base_manifest_list);
  ASSERT_EQ(before.size(), 3u);
  ASSERT_EQ(after.size(), 3u);
  EXPECT_EQ(after[0], before[1]);
  EXPECT_EQ(after[1], before[2]);
  EXPECT_EQ(after[2].num_added_files, 1);
  EXPECT_EQ(after[2].num_deleted_files, 0);
  auto entries = ReadManifestFile(*LocalFileIO(), ManifestFilePath(dir_, after[2].file_name));
  ASSERT_OK(entries);
  ASSERT_EQ(entries->size(), 1u);
  EXPECT_EQ((*entries)[0].file.file_name, replacement.file_name);
  EXPECT_EQ(Read(), Concat({rows[0], rows[1], rows[2], MakeRows(2, 10, 1, "q")}));
  ExpectTableChecks();
}

TEST_F(FileStoreCommitTest, ConflictCheckReadsOnlyManifestsOfChangedPartitions) {
  Create(true);
  auto a = Committer("user-a");
  auto f1 = FakeFile("data-1", 1);
  ASSERT_OK(a->Commit(Committable(1, {AddFiles(*table_, 1, 0, {f1})})));
  ASSERT_OK(a->Commit(Committable(2, {AddFiles(*table_, 2, 0, {FakeFile("data-2", 1)})})));
  // Partition 2's manifest is gone: a compaction in partition 1 never needs it.
  auto delta = ReadList(dir_, Load(2).delta_manifest_list);
  ASSERT_EQ(delta.size(), 1u);
  ASSERT_OK(LocalFileIO()->Delete(ManifestFilePath(dir_, delta[0].file_name), false));
  auto res =
      a->Commit(Committable(3, {CompactFiles(*table_, 1, 0, {f1}, {FakeFile("data-3", 1)})}));
  ASSERT_OK(res);
  // A compaction in partition 2 does.
  res = a->Commit(Committable(4, {CompactFiles(*table_, 2, 0, {}, {FakeFile("data-4", 1)})}));
  EXPECT_TRUE(test::HasError(res, StatusCode::kNotFound, {delta[0].file_name}));
}

TEST_F(FileStoreCommitTest, DynamicOverwriteReplacesIndexFilesOfItsPartitionsOnly) {
  Create(true, {{"bucket", "1"}}, /*primary_key=*/true);
  auto a = Committer("user-a");
  std::vector<CommitMessageImpl> messages;
  for (int pt = 1; pt <= 2; ++pt) {
    CommitMessageImpl m =
        AddFiles(*table_, pt, 0, {KeyRangeFile("data-" + std::to_string(pt), 0, 1, 0)});
    IndexManifestEntry index = IndexFile("HASH", "index-h" + std::to_string(pt), 0);
    m.data.new_index_files = {index};
    messages.push_back(m);
  }
  ASSERT_OK(a->Commit(Committable(1, messages)));
  CommitMessageImpl m = AddFiles(*table_, 2, 0, {KeyRangeFile("data-new", 0, 1, 0)});
  m.data.new_index_files = {IndexFile("HASH", "index-h2new", 0)};
  auto res = a->Overwrite(Committable(2, {m}), std::nullopt);
  ASSERT_OK(res);
  auto entries = ReadIndexManifest(*LocalFileIO(), ManifestFilePath(dir_, *Load(2).index_manifest));
  ASSERT_OK(entries);
  std::set<std::string> names;
  for (const auto& e : *entries) names.insert(e.file_name);
  EXPECT_EQ(names, (std::set<std::string>{"index-h1", "index-h2new"}));
}

TEST_F(FileStoreCommitTest, StatisticsOfTheLatestSchemaAreInherited) {
  Create(false);
  auto a = Committer("user-a");
  ASSERT_OK(a->Commit(Committable(1, {AddFiles(*table_, 0, 0, {FakeFile("data-1", 1)})})));
  // As an ANALYZE commit would leave it: snapshot 1 names a statistics file of schema 0.
  auto io = LocalFileIO();
  ASSERT_OK(io->MkDirs(dir_ + "/statistics"));
  ASSERT_OK(io->WriteFileAtomic(dir_ + "/statistics/stat-x-0",
                                "{\"snapshotId\":1,\"schemaId\":0,\"mergedRecordCount\":1}", true));
  Snapshot s1 = Load(1);
  s1.statistics = "stat-x-0";
  ASSERT_OK(io->WriteFileAtomic(dir_ + "/snapshot/snapshot-1", s1.ToJson(), true));
  ASSERT_OK(a->Commit(Committable(2, {AddFiles(*table_, 0, 0, {FakeFile("data-2", 1)})})));
  EXPECT_EQ(Load(2).statistics, std::optional<std::string>("stat-x-0"));
  // Statistics of another schema are dropped.
  ASSERT_OK(io->WriteFileAtomic(dir_ + "/statistics/stat-x-0",
                                "{\"snapshotId\":1,\"schemaId\":7,\"mergedRecordCount\":1}", true));
  ASSERT_OK(a->Commit(Committable(3, {AddFiles(*table_, 0, 0, {FakeFile("data-3", 1)})})));
  EXPECT_FALSE(Load(3).statistics.has_value());
}

}  // namespace
}  // namespace sluice
