// Snapshot expiry (ExpireSnapshotsImpl): the retention options, tags, consumers and the
// decoupled changelog keep what they protect; the files left are exactly the referenced ones.

#include "sluice/maintenance/expire_snapshots.h"

#include <gtest/gtest.h>

#include "maintenance/maintenance_test_util.h"
#include "sluice/maintenance/used_files.h"
#include "sluice/meta/consumer_manager.h"

namespace sluice {
namespace {

using test::CreateKvTable;
using test::ExpectCheckClean;
using test::FilesOnDisk;
using test::ReadAll;
using test::ReferencedFiles;
using test::WriteTag;

// Batch `i`: key 0 updated and three new keys, so every commit after the first compacts.
std::vector<ValueList> Batch(int i) {
  std::vector<ValueList> rows{{Value::Int64(0), Value::String("u" + std::to_string(i))}};
  for (int j = 1; j <= 3; ++j) {
    rows.push_back({Value::Int64(i * 10 + j), Value::String("v" + std::to_string(i))});
  }
  return rows;
}

class ExpireSnapshotsTest : public ::testing::Test {
 protected:
  void Create(TableOptions extra = {}) {
    path_ = dir_.path() + "/t";
    CreateKvTable(path_, false, std::move(extra));
  }
  // Commits batches 1..n; remembers what each snapshot reads.
  void CommitBatches(int from, int to) {
    for (int i = from; i <= to; ++i) {
      ASSERT_OK(test::WriteAndCommit(LocalFileIO(), path_, false, Batch(i), i));
    }
    auto table = Table();
    for (const Snapshot& s : table->snapshot_manager().ListSnapshots().ValueOr({})) {
      if (!reads_.count(s.id)) {
        reads_[s.id] = ReadAll(path_, LocalFileIO(), TableVersion::SnapshotId(s.id));
      }
    }
  }
  std::shared_ptr<FileStoreTable> Table() {
    auto table = FileStoreTable::Open(LocalFileIO(), path_);
    EXPECT_OK(table);
    return *table;
  }
  std::vector<int64_t> SnapshotIds() {
    return Table()->snapshot_manager().ListSnapshotIds().ValueOr({});
  }
  // The table is sound, holds exactly the referenced files, and every snapshot left reads as
  // it did before the expiry.
  void ExpectIntact() {
    auto table = Table();
    ExpectCheckClean(*table);
    EXPECT_EQ(FilesOnDisk(path_), ReferencedFiles(*table));
    for (int64_t id : SnapshotIds()) {
      EXPECT_EQ(ReadAll(path_, LocalFileIO(), TableVersion::SnapshotId(id)), reads_[id])
          << "snapshot " << id;
    }
  }
  // Every snapshot of a test is younger than an hour: between `min` and `max` the time keeps
  // them all, so `max` decides (as Java: `max` is a hard bound, `min` a floor under the time).
  static ExpireConfig Config(int32_t min, int32_t max) {
    ExpireConfig config;
    config.snapshot_retain_min = min;
    config.snapshot_retain_max = max;
    config.snapshot_time_retain_millis = 3600 * 1000;
    config.snapshot_max_deletes = INT32_MAX;
    config.changelog_retain_min = min;
    config.changelog_retain_max = max;
    config.changelog_time_retain_millis = 3600 * 1000;
    return config;
  }

  test::TempDir dir_;
  std::string path_;
  std::map<int64_t, std::vector<std::string>> reads_;
};

TEST_F(ExpireSnapshotsTest, RetainMaxKeepsTheNewestAndDeletesWhatOnlyExpiredOnesUsed) {
  Create();
  CommitBatches(1, 8);
  const std::vector<int64_t> before = SnapshotIds();
  ASSERT_GT(before.size(), 10u);  // APPEND + COMPACT per commit after the first
  const std::set<std::string> files_before = FilesOnDisk(path_);

  ASSERT_OK_AND_ASSIGN(ExpireSummary summary,
                       ExpireSnapshotsImpl(Table()).Expire(Config(1, 4), CurrentTimeMillis()));
  EXPECT_EQ(summary.expired, static_cast<int64_t>(before.size()) - 4);
  EXPECT_GT(summary.files_deleted, 0);
  EXPECT_EQ(SnapshotIds(), std::vector<int64_t>(before.end() - 4, before.end()));
  EXPECT_LT(FilesOnDisk(path_).size(), files_before.size());
  EXPECT_EQ(Table()->snapshot_manager().EarliestSnapshotId().ValueOr(std::nullopt),
            before[before.size() - 4]);
  ExpectIntact();
}

TEST_F(ExpireSnapshotsTest, RetainMinAndTimeKeepYoungSnapshots) {
  Create();
  CommitBatches(1, 3);
  const std::vector<int64_t> before = SnapshotIds();
  ExpireConfig config = Config(2, INT32_MAX);
  // Every snapshot is younger than an hour: none goes.
  ASSERT_OK_AND_ASSIGN(ExpireSummary kept,
                       ExpireSnapshotsImpl(Table()).Expire(config, CurrentTimeMillis()));
  EXPECT_EQ(kept.expired, 0);
  EXPECT_EQ(SnapshotIds(), before);
  // An hour later all but the newest two go.
  ASSERT_OK_AND_ASSIGN(ExpireSummary expired, ExpireSnapshotsImpl(Table()).Expire(
                                                  config, CurrentTimeMillis() + 7200 * 1000));
  EXPECT_EQ(SnapshotIds(), std::vector<int64_t>(before.end() - 2, before.end()));
  EXPECT_EQ(expired.expired, static_cast<int64_t>(before.size()) - 2);
  ExpectIntact();
}

TEST_F(ExpireSnapshotsTest, ExpireLimitBoundsOneRun) {
  Create();
  CommitBatches(1, 4);
  const std::vector<int64_t> before = SnapshotIds();
  ExpireConfig config = Config(1, 1);
  config.snapshot_max_deletes = 2;
  ASSERT_OK_AND_ASSIGN(ExpireSummary summary,
                       ExpireSnapshotsImpl(Table()).Expire(config, CurrentTimeMillis()));
  EXPECT_EQ(summary.expired, 2);
  EXPECT_EQ(SnapshotIds(), std::vector<int64_t>(before.begin() + 2, before.end()));
  ExpectIntact();
}

TEST_F(ExpireSnapshotsTest, RetainMaxBelowMinIsRefused) {
  Create();
  CommitBatches(1, 1);
  auto result = ExpireSnapshotsImpl(Table()).Expire(Config(5, 2), CurrentTimeMillis());
  EXPECT_TRUE(test::HasError(result.status(), StatusCode::kInvalidArgument,
                             {"retainMax (2)", "retainMin (5)"}));
}

TEST_F(ExpireSnapshotsTest, TagKeepsTheFilesOfItsSnapshot) {
  Create();
  CommitBatches(1, 3);
  WriteTag(*Table(), "t3", 3);
  const std::vector<std::string> tagged = ReadAll(path_, LocalFileIO(), TableVersion::Tag("t3"));
  CommitBatches(4, 7);
  ASSERT_OK(ExpireSnapshotsImpl(Table()).Expire(Config(1, 1), CurrentTimeMillis()));
  EXPECT_EQ(SnapshotIds().size(), 1u);
  EXPECT_FALSE(Table()->snapshot_manager().SnapshotExists(3).ValueOr(true));
  EXPECT_EQ(ReadAll(path_, LocalFileIO(), TableVersion::Tag("t3")), tagged);
  ExpectIntact();
}

TEST_F(ExpireSnapshotsTest, ConsumerKeepsTheSnapshotItReadsNext) {
  Create();
  CommitBatches(1, 4);
  ConsumerManager consumers(LocalFileIO(), path_);
  ASSERT_OK(consumers.ResetConsumer("reader", Consumer{3}));
  ASSERT_OK(ExpireSnapshotsImpl(Table()).Expire(Config(1, 1), CurrentTimeMillis()));
  EXPECT_EQ(SnapshotIds().front(), 3);
  ExpectIntact();

  // consumer.changelog-only: consumers do not hold snapshots back.
  ExpireConfig changelog_only = Config(1, 1);
  changelog_only.consumer_changelog_only = true;
  ASSERT_OK(ExpireSnapshotsImpl(Table()).Expire(changelog_only, CurrentTimeMillis()));
  EXPECT_EQ(SnapshotIds().size(), 1u);
  ExpectIntact();
}

TEST_F(ExpireSnapshotsTest, DecoupledChangelogOutlivesItsSnapshot) {
  Create();
  CommitBatches(1, 4);
  const std::vector<int64_t> before = SnapshotIds();
  ExpireConfig config = Config(1, 2);
  config.changelog_retain_max = 100;
  ASSERT_TRUE(config.changelog_decoupled());
  ASSERT_OK(ExpireSnapshotsImpl(Table()).Expire(config, CurrentTimeMillis()));
  ChangelogManager changelogs(LocalFileIO(), path_);
  ASSERT_OK_AND_ASSIGN(std::vector<int64_t> ids, changelogs.ListChangelogIds());
  EXPECT_EQ(ids, std::vector<int64_t>(before.begin(), before.end() - 2));
  EXPECT_EQ(changelogs.LatestLongLivedChangelogId().ValueOr(std::nullopt), ids.back());
  // The changelog of an expired APPEND snapshot still reads: its delta's files are there.
  ASSERT_OK_AND_ASSIGN(Snapshot first, changelogs.LoadChangelog(ids.front()));
  ASSERT_OK_AND_ASSIGN(auto delta, ReadManifestListEntries(*Table(), first.delta_manifest_list));
  ASSERT_FALSE(delta.empty());
  for (const ManifestEntry& e : delta) {
    if (e.kind != FileKind::kAdd) continue;
    ASSERT_OK_AND_ASSIGN(std::string file, DataFilePathOf(*Table(), e));
    EXPECT_TRUE(std::filesystem::exists(file)) << file;
  }
  ExpectIntact();
}

}  // namespace
}  // namespace sluice
