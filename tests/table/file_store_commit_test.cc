// FileStoreCommit: commits round-trip through PlanScan + OpenSplitReader, snapshot JSON as Java
// 1.3 writes it, manifest rolling and merging, conflicts, idempotence, overwrite, lost races.

#include "sluice/table/sink/file_store_commit.h"

#include <gtest/gtest.h>

#include <set>

#include "commit_test_util.h"
#include "sluice/base/json_reader.h"
#include "sluice/meta/hint_file.h"

namespace sluice {
namespace {

using testing::AddFiles;
using testing::Committable;
using testing::CompactFiles;
using testing::CreateTestTable;
using testing::MakeRows;
using testing::OpenTestTable;
using testing::ReadList;
using testing::ReadTestTable;
using testing::Sorted;
using testing::TestRow;
using testing::WriteTestDataFile;

std::vector<TestRow> Concat(std::vector<std::vector<TestRow>> parts) {
  std::vector<TestRow> out;
  for (auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return Sorted(std::move(out));
}

class FileStoreCommitTest : public ::testing::Test {
 protected:
  void Create(bool partitioned, TableOptions options = {}, bool primary_key = false) {
    dir_ = tmp_.path() + "/t";
    ASSERT_TRUE(CreateTestTable(dir_, partitioned, std::move(options), primary_key).ok());
    auto table = OpenTestTable(dir_);
    ASSERT_TRUE(table.ok()) << table.status().ToString();
    table_ = *table;
  }

  std::unique_ptr<FileStoreCommit> Committer(const std::string& user) {
    auto commit = FileStoreCommit::Make(table_, user);
    EXPECT_TRUE(commit.ok()) << commit.status().ToString();
    return std::move(commit).value();
  }

  Snapshot Load(int64_t id) {
    auto s = table_->snapshot_manager().LoadSnapshot(id);
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    return s.ok() ? *s : Snapshot();
  }

  std::vector<TestRow> Read() {
    auto rows = ReadTestTable(dir_);
    EXPECT_TRUE(rows.ok()) << rows.status().ToString();
    return rows.ok() ? *rows : std::vector<TestRow>();
  }

  ::sluice::testing::TempDir tmp_;
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
  ASSERT_TRUE(res.ok()) << res.status().ToString();
  EXPECT_EQ(res->snapshot_ids, std::vector<int64_t>{1});
  EXPECT_EQ(res->attempts, 1);
  EXPECT_EQ(Read(), Concat({r1, r2}));

  auto r3 = MakeRows(1, 10, 4, "c");
  auto f3 = WriteTestDataFile(*table_, 0, r3, 5);
  res = commit->Commit(Committable(2, {AddFiles(*table_, 1, 0, {f3})}));
  ASSERT_TRUE(res.ok()) << res.status().ToString();
  EXPECT_EQ(res->snapshot_ids, std::vector<int64_t>{2});
  EXPECT_EQ(Read(), Concat({r1, r2, r3}));
  // Time travel to the first snapshot still sees its rows only.
  auto first = ReadTestTable(dir_, TableVersion::SnapshotId(1));
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(*first, Concat({r1, r2}));

  Snapshot s1 = Load(1);
  Snapshot s2 = Load(2);
  EXPECT_EQ(s1.commit_kind, CommitKind::kAppend);
  EXPECT_EQ(s1.total_record_count, 8);
  EXPECT_EQ(s1.delta_record_count, 8);
  EXPECT_EQ(s1.changelog_record_count, 0);
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
}

TEST_F(FileStoreCommitTest, SnapshotJsonHasTheKeysJava13Writes) {
  Create(false);
  auto commit = Committer("user-a");
  auto f = WriteTestDataFile(*table_, 0, MakeRows(0, 0, 3, "x"));
  ASSERT_TRUE(commit->Commit(Committable(7, {AddFiles(*table_, 0, 0, {f})})).ok());
  auto text = LocalFileIO()->ReadFile(dir_ + "/snapshot/snapshot-1");
  ASSERT_TRUE(text.ok());
  auto json = nlohmann::ordered_json::parse(*text);
  std::vector<std::string> keys;
  for (auto it = json.begin(); it != json.end(); ++it) keys.push_back(it.key());
  // The keys of a Paimon 1.3 snapshot without changelog or index (e.g. the corpus' snapshots
  // with nextRowId), in Java's order.
  const std::vector<std::string> expected = {"version",
                                             "id",
                                             "schemaId",
                                             "baseManifestList",
                                             "baseManifestListSize",
                                             "deltaManifestList",
                                             "deltaManifestListSize",
                                             "changelogManifestList",
                                             "commitUser",
                                             "commitIdentifier",
                                             "commitKind",
                                             "timeMillis",
                                             "logOffsets",
                                             "totalRecordCount",
                                             "deltaRecordCount",
                                             "changelogRecordCount",
                                             "nextRowId"};
  EXPECT_EQ(keys, expected);
  EXPECT_EQ(json["version"], 3);
  EXPECT_TRUE(json["changelogManifestList"].is_null());
  EXPECT_TRUE(json["logOffsets"].is_object() && json["logOffsets"].empty());
  EXPECT_EQ(json["commitKind"], "APPEND");
  EXPECT_EQ(json["commitIdentifier"], 7);

  // The same key list occurs in the corpus of Java-written tables.
  bool found = false;
  for (const auto& path : ::sluice::testing::ListFilesRecursive(
           ::sluice::testing::CompatTablesDir(), [](const std::string& p) {
             return p.find("/snapshot/snapshot-") != std::string::npos;
           })) {
    auto corpus = nlohmann::ordered_json::parse(::sluice::testing::ReadFileOrFail(path));
    std::vector<std::string> corpus_keys;
    for (auto it = corpus.begin(); it != corpus.end(); ++it) corpus_keys.push_back(it.key());
    if (corpus_keys == expected) {
      found = true;
      break;
    }
  }
  EXPECT_TRUE(found) << "no corpus snapshot has the keys Sluice writes";
}

TEST_F(FileStoreCommitTest, EmptyCommitMakesNoSnapshot) {
  Create(false);
  auto commit = Committer("user-a");
  auto res = commit->Commit(Committable(1, {}));
  ASSERT_TRUE(res.ok());
  EXPECT_TRUE(res->snapshot_ids.empty());
  auto latest = table_->snapshot_manager().LatestSnapshotId();
  ASSERT_TRUE(latest.ok());
  EXPECT_FALSE(latest->has_value());
}

}  // namespace
}  // namespace sluice
