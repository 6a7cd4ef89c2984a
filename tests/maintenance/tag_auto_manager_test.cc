// Automatic tags (TagAutoManager, TagPeriodHandler, TagTimeExtractor, TagDeletion): the period
// names and their parsing, process-time / watermark / batch creation, the creation delay,
// automatic completion, `tag.num-retained-max` (with the files only a deleted tag kept), tag time
// retention at commit, restarts, expired snapshots skipped, and bad options. Commit times are
// set on the snapshot files and the clock is passed in: nothing waits for time.

#include <gtest/gtest.h>

#include "maintenance/maintenance_test_util.h"
#include "maintenance/tags_test_util.h"
#include "sluice/maintenance/commit_maintenance.h"
#include "sluice/maintenance/expire_snapshots.h"
#include "sluice/maintenance/tag_auto_manager.h"
#include "sluice/maintenance/tag_deletion.h"
#include "sluice/maintenance/tag_operations.h"
#include "sluice/meta/branch_manager.h"

namespace sluice {
namespace {

using test::HasError;
using test::tags::CreateMaintenanceTable;
using test::tags::OpenBranch;
using test::tags::Row;

constexpr int64_t kMinute = 60 * 1000;
constexpr int64_t kHour = 60 * kMinute;
// 2026-12-02 00:00:00 UTC.
constexpr int64_t kDay0 = 1796169600000;

TagPeriodHandler HandlerOf(TableOptions options) {
  auto table = CreateMaintenanceTable(std::make_shared<MemoryFileIO>(), false, std::move(options));
  auto handler = TagPeriodHandler::FromOptions(table->options());
  EXPECT_OK(handler);
  return *handler;
}

TEST(TagPeriodHandlerTest, NamesEachPeriodAsJavaFormatsIt) {
  const int64_t t = kDay0 + 13 * kHour + 25 * kMinute;  // 2026-12-02 13:25
  struct Case {
    TableOptions options;
    std::string name;
  };
  const std::vector<Case> cases{
      {{{"bucket", "1"}}, "2026-12-02"},
      {{{"bucket", "1"}, {"tag.period-formatter", "without_dashes"}}, "20261202"},
      {{{"bucket", "1"}, {"tag.creation-period", "hourly"}}, "2026-12-02 13"},
      {{{"bucket", "1"},
        {"tag.creation-period", "hourly"},
        {"tag.period-formatter", "without_dashes"}},
       "20261202 13"},
      {{{"bucket", "1"},
        {"tag.creation-period", "hourly"},
        {"tag.period-formatter", "without_dashes_and_spaces"}},
       "2026120213"},
      {{{"bucket", "1"}, {"tag.creation-period", "two-hours"}}, "2026-12-02 13"},
      {{{"bucket", "1"}, {"tag.creation-period-duration", "15 min"}}, "202612021325"},
  };
  for (const Case& c : cases) {
    const TagPeriodHandler handler = HandlerOf(c.options);
    EXPECT_EQ(handler.TimeToTag(t), c.name);
    // A name reads back as the start of its period.
    auto time = handler.TagToTime(c.name);
    ASSERT_TRUE(time.has_value()) << c.name;
    EXPECT_EQ(handler.TimeToTag(*time), c.name);
  }
}

TEST(TagPeriodHandlerTest, NormalizesToThePreviousPeriod) {
  const TagPeriodHandler daily = HandlerOf({{"bucket", "1"}});
  EXPECT_EQ(daily.NormalizeToPreviousTag(kDay0 + 13 * kHour), kDay0 - 24 * kHour);
  const TagPeriodHandler hourly = HandlerOf({{"bucket", "1"}, {"tag.creation-period", "hourly"}});
  EXPECT_EQ(hourly.NormalizeToPreviousTag(kDay0 + 13 * kHour + 5), kDay0 + 12 * kHour);
  EXPECT_EQ(hourly.NextTagTime(kDay0), kDay0 + kHour);
  const TagPeriodHandler two = HandlerOf({{"bucket", "1"}, {"tag.creation-period", "two-hours"}});
  EXPECT_EQ(two.NormalizeToPreviousTag(kDay0 + 13 * kHour), kDay0 + 10 * kHour);
}

TEST(TagPeriodHandlerTest, OnlyStrictNamesAreAutomaticTags) {
  const TagPeriodHandler daily = HandlerOf({{"bucket", "1"}});
  EXPECT_TRUE(daily.IsAutoTag("2026-12-02"));
  EXPECT_TRUE(daily.IsAutoTag("2024-02-29"));
  // Java reads a daily name up to its first blank.
  EXPECT_TRUE(daily.IsAutoTag("2026-12-02 13"));
  EXPECT_FALSE(daily.IsAutoTag("2026-02-29"));
  EXPECT_FALSE(daily.IsAutoTag("2026-13-01"));
  EXPECT_FALSE(daily.IsAutoTag("2026-1-01"));
  EXPECT_FALSE(daily.IsAutoTag("20261202"));
  EXPECT_FALSE(daily.IsAutoTag("tag-1"));
  const TagPeriodHandler hourly = HandlerOf({{"bucket", "1"}, {"tag.creation-period", "hourly"}});
  EXPECT_TRUE(hourly.IsAutoTag("2026-12-02 23"));
  EXPECT_FALSE(hourly.IsAutoTag("2026-12-02 24"));
  EXPECT_FALSE(hourly.IsAutoTag("2026-12-02"));
  EXPECT_FALSE(hourly.IsAutoTag("2026-12-02 13x"));
}

TEST(TagPeriodHandlerTest, BadOptionsNameTheOptionAndValue) {
  auto table = CreateMaintenanceTable(std::make_shared<MemoryFileIO>(), false,
                                      {{"bucket", "1"}, {"tag.creation-period", "weekly"}});
  EXPECT_TRUE(HasError(TagPeriodHandler::FromOptions(table->options()),
                       StatusCode::kInvalidArgument, {"tag.creation-period", "weekly"}));
  auto table2 = CreateMaintenanceTable(std::make_shared<MemoryFileIO>(), false,
                                       {{"bucket", "1"}, {"tag.period-formatter", "slashes"}});
  EXPECT_TRUE(HasError(TagPeriodHandler::FromOptions(table2->options()),
                       StatusCode::kInvalidArgument, {"tag.period-formatter", "slashes"}));
}

class TagAutoManagerTest : public ::testing::Test {
 protected:
  void Create(TableOptions options) {
    options.emplace_back("bucket", "2");
    io_ = std::make_shared<MemoryFileIO>();
    CreateMaintenanceTable(io_, /*append=*/false, std::move(options));
    auto table = OpenBranch(io_);
    ASSERT_OK(table);
    table_ = *table;
  }

  // Commits one row; its snapshot gets commit time `time` and, when given, `watermark`.
  int64_t Commit(int64_t time, std::optional<int64_t> watermark = std::nullopt) {
    auto ids = test::tags::WriteAndCommit(io_, "main", {Row(++rows_, "a", "v")});
    EXPECT_OK(ids);
    if (!ids.ok() || ids->empty()) return 0;
    const int64_t id = ids->back();
    auto snapshot = table_->snapshot_manager().LoadSnapshot(id);
    EXPECT_OK(snapshot);
    snapshot->time_millis = time;
    snapshot->watermark = watermark;
    EXPECT_OK(io_->WriteFileAtomic(table_->snapshot_manager().snapshot_path(id), snapshot->ToJson(),
                                   /*overwrite=*/true));
    return id;
  }

  std::unique_ptr<TagAutoManager> Manager() {
    auto manager = TagAutoManager::Make(table_);
    EXPECT_OK(manager);
    return manager.ok() ? std::move(*manager) : nullptr;
  }

  // Tag name -> tagged snapshot id.
  std::map<std::string, int64_t> Tags() {
    std::map<std::string, int64_t> out;
    auto tags = table_->tag_manager().ListTags();
    EXPECT_OK(tags);
    if (tags.ok()) {
      for (const auto& [name, tag] : *tags) out[name] = tag.snapshot.id;
    }
    return out;
  }

  std::shared_ptr<MemoryFileIO> io_;
  std::shared_ptr<FileStoreTable> table_;
  int64_t rows_ = 0;
};

TEST_F(TagAutoManagerTest, ProcessTimeTagsEachPeriodOnceItEnded) {
  Create({{"tag.automatic-creation", "process-time"},
          {"tag.creation-period", "hourly"},
          {"tag.default-time-retained", "1 d"}});
  auto manager = Manager();
  ASSERT_NE(manager, nullptr);
  const int64_t now = kDay0 + 20 * kHour;
  // The first snapshot gets the period before its own.
  Commit(kDay0 + 10 * kHour + 30 * kMinute);
  auto created = manager->Run(now);
  ASSERT_OK(created);
  EXPECT_EQ(*created, std::vector<std::string>{"2026-12-02 09"});
  // Hour 10 ends at 11:00: the snapshot at 10:50 waits, the one at 11:10 takes tag 10.
  Commit(kDay0 + 10 * kHour + 50 * kMinute);
  const int64_t at_1110 = Commit(kDay0 + 11 * kHour + 10 * kMinute);
  // Hours 11 and 12 went by without a commit: the snapshot at 13:05 takes tag 12 only.
  const int64_t at_1305 = Commit(kDay0 + 13 * kHour + 5 * kMinute);
  created = manager->Run(now);
  ASSERT_OK(created);
  EXPECT_EQ(*created, (std::vector<std::string>{"2026-12-02 10", "2026-12-02 12"}));
  EXPECT_EQ(Tags(),
            (std::map<std::string, int64_t>{
                {"2026-12-02 09", 1}, {"2026-12-02 10", at_1110}, {"2026-12-02 12", at_1305}}));
  // Tag files as Java writes them: the clock's create time, the default retention.
  auto tag = table_->tag_manager().LoadTag("2026-12-02 12");
  ASSERT_OK(tag);
  EXPECT_EQ(tag->create_time, TagCreateTimeOf(now));
  EXPECT_EQ(tag->time_retained, TagDurationOfMillis(24 * kHour));
  EXPECT_EQ(tag->snapshot.id, at_1305);
  // Nothing new: nothing to do.
  created = manager->Run(now);
  ASSERT_OK(created);
  EXPECT_TRUE(created->empty());
}

TEST_F(TagAutoManagerTest, AutomaticCompletionNamesTheNextMissingPeriod) {
  Create({{"tag.automatic-creation", "process-time"},
          {"tag.creation-period", "hourly"},
          {"tag.automatic-completion", "true"}});
  auto manager = Manager();
  ASSERT_NE(manager, nullptr);
  Commit(kDay0 + 10 * kHour + 30 * kMinute);
  Commit(kDay0 + 13 * kHour + 5 * kMinute);
  Commit(kDay0 + 13 * kHour + 6 * kMinute);
  auto created = manager->Run(kDay0 + 20 * kHour);
  ASSERT_OK(created);
  // 09 first; then one tag a snapshot, each the period after the last: 10, then 11.
  EXPECT_EQ(*created,
            (std::vector<std::string>{"2026-12-02 09", "2026-12-02 10", "2026-12-02 11"}));
}

TEST_F(TagAutoManagerTest, DelayHoldsTheTagBack) {
  Create({{"tag.automatic-creation", "process-time"},
          {"tag.creation-period", "hourly"},
          {"tag.creation-delay", "10 min"}});
  auto manager = Manager();
  ASSERT_NE(manager, nullptr);
  Commit(kDay0 + 10 * kHour + 30 * kMinute);
  Commit(kDay0 + 11 * kHour + 5 * kMinute);
  const int64_t late = Commit(kDay0 + 11 * kHour + 15 * kMinute);
  ASSERT_OK(manager->Run(kDay0 + 20 * kHour));
  EXPECT_EQ(Tags(),
            (std::map<std::string, int64_t>{{"2026-12-02 09", 1}, {"2026-12-02 10", late}}));
}

TEST_F(TagAutoManagerTest, DelayOfAWholePeriodIsRefused) {
  Create({{"tag.automatic-creation", "process-time"},
          {"tag.creation-period", "hourly"},
          {"tag.creation-delay", "1 h"}});
  EXPECT_TRUE(HasError(TagAutoManager::Make(table_), StatusCode::kInvalidArgument,
                       {"tag.creation-delay", "shorter"}));
}

TEST_F(TagAutoManagerTest, WatermarkTagsByTheWatermarkAndSkipsSnapshotsWithoutOne) {
  Create({{"tag.automatic-creation", "watermark"}, {"tag.creation-period", "daily"}});
  auto manager = Manager();
  ASSERT_NE(manager, nullptr);
  // The commit times say nothing; the watermarks decide.
  Commit(kDay0, /*watermark=*/std::nullopt);
  const int64_t first = Commit(kDay0, kDay0 + 3 * kHour);
  Commit(kDay0, kDay0 + 23 * kHour);
  const int64_t next_day = Commit(kDay0, kDay0 + 25 * kHour);
  ASSERT_OK(manager->Run(kDay0));
  EXPECT_EQ(Tags(),
            (std::map<std::string, int64_t>{{"2026-12-01", first}, {"2026-12-02", next_day}}));
}

TEST_F(TagAutoManagerTest, WatermarkZoneShiftsTheDay) {
  Create({{"tag.automatic-creation", "watermark"},
          {"tag.creation-period", "daily"},
          {"sink.watermark-time-zone", "Asia/Shanghai"}});
  auto manager = Manager();
  ASSERT_NE(manager, nullptr);
  // 2026-12-02 20:00 UTC is 2026-12-03 04:00 in Shanghai: the previous day is the 2nd.
  Commit(kDay0, kDay0 + 20 * kHour);
  ASSERT_OK(manager->Run(kDay0));
  EXPECT_EQ(Tags(), (std::map<std::string, int64_t>{{"2026-12-02", 1}}));
}

TEST_F(TagAutoManagerTest, NumRetainedMaxKeepsTheNewestAutomaticTagsOnly) {
  Create({{"tag.automatic-creation", "process-time"},
          {"tag.creation-period", "hourly"},
          {"tag.num-retained-max", "2"}});
  Commit(kDay0);
  ASSERT_OK(CreateTag(*table_, "manual"));
  auto manager = Manager();
  ASSERT_NE(manager, nullptr);
  for (int h = 1; h <= 4; ++h) Commit(kDay0 + h * kHour);
  ASSERT_OK(manager->Run(kDay0 + 20 * kHour));
  // Five automatic tags were made (23 of the day before, 00 .. 03); the newest two stay, and the
  // manual tag is none of theirs.
  EXPECT_EQ(Tags(), (std::map<std::string, int64_t>{
                        {"2026-12-02 02", 4}, {"2026-12-02 03", 5}, {"manual", 1}}));
}

TEST_F(TagAutoManagerTest, RestartGoesOnAfterTheNewestAutomaticTag) {
  Create({{"tag.automatic-creation", "process-time"}, {"tag.creation-period", "hourly"}});
  Commit(kDay0 + 10 * kHour);
  ASSERT_OK(Manager()->Run(kDay0));
  Commit(kDay0 + 10 * kHour + 30 * kMinute);
  const int64_t at_11 = Commit(kDay0 + 11 * kHour);
  // A new manager (a restarted writer) reads where the last automatic tag left off.
  auto created = Manager()->Run(kDay0);
  ASSERT_OK(created);
  EXPECT_EQ(*created, std::vector<std::string>{"2026-12-02 10"});
  EXPECT_EQ(Tags().at("2026-12-02 10"), at_11);
}

TEST_F(TagAutoManagerTest, ExpiredSnapshotsAreSkipped) {
  Create({{"tag.automatic-creation", "process-time"}, {"tag.creation-period", "hourly"}});
  auto manager = Manager();
  ASSERT_NE(manager, nullptr);
  for (int h = 1; h <= 5; ++h) Commit(kDay0 + h * kHour);
  ExpireConfig expire;
  expire.snapshot_retain_min = 2;
  expire.snapshot_retain_max = 2;
  ASSERT_OK(ExpireSnapshotsImpl(table_).Expire(expire, kDay0));
  auto created = manager->Run(kDay0);
  ASSERT_OK(created);
  // Snapshots 1 to 3 are gone: the walk starts at 4.
  EXPECT_EQ(*created, (std::vector<std::string>{"2026-12-02 03", "2026-12-02 04"}));
}

TEST_F(TagAutoManagerTest, RetentionExpiresTagsAtCommitWhateverTheMode) {
  Create({{"tag.default-time-retained", "1 h"}});
  Commit(kDay0);
  TagRequest request;
  request.now_millis = kDay0;
  ASSERT_OK(CreateTag(*table_, "short", request));
  auto manager = Manager();
  ASSERT_NE(manager, nullptr);
  ASSERT_OK(manager->Run(kDay0 + kHour));
  EXPECT_EQ(Tags().count("short"), 1u);
  ASSERT_OK(manager->Run(kDay0 + kHour + 1));
  EXPECT_TRUE(Tags().empty());
}

TEST_F(TagAutoManagerTest, TimeExpireCanBeDisabled) {
  Create({{"tag.default-time-retained", "1 h"}, {"tag.time-expire-enabled", "false"}});
  Commit(kDay0);
  TagRequest request;
  request.now_millis = kDay0;
  ASSERT_OK(CreateTag(*table_, "short", request));
  ASSERT_OK(Manager()->Run(kDay0 + 2 * kHour));
  EXPECT_EQ(Tags().count("short"), 1u);
}

TEST_F(TagAutoManagerTest, BatchTagsTheLatestSnapshotAndKeepsTheNewestTags) {
  Create({{"tag.automatic-creation", "batch"}, {"tag.num-retained-max", "2"}});
  auto manager = Manager();
  ASSERT_NE(manager, nullptr);
  Commit(kDay0 - 48 * kHour);
  auto tag = manager->CreateBatchTag(kDay0);
  ASSERT_OK(tag);
  EXPECT_EQ(*tag, "batch-write-2026-11-30");
  Commit(kDay0 - 24 * kHour);
  ASSERT_OK(manager->CreateBatchTag(kDay0));
  // The same day again: the tag moves to the newer snapshot.
  const int64_t again = Commit(kDay0 - 24 * kHour + kHour);
  ASSERT_OK(manager->CreateBatchTag(kDay0));
  const int64_t today = Commit(kDay0 + kHour);
  ASSERT_OK(manager->CreateBatchTag(kDay0));
  EXPECT_EQ(Tags(), (std::map<std::string, int64_t>{{"batch-write-2026-12-01", again},
                                                    {"batch-write-2026-12-02", today}}));
  // Run (every commit) makes no batch tag.
  auto created = manager->Run(kDay0);
  ASSERT_OK(created);
  EXPECT_TRUE(created->empty());
}

TEST_F(TagAutoManagerTest, BatchCustomizedName) {
  Create({{"tag.automatic-creation", "batch"}, {"tag.batch.customized-name", "nightly"}});
  Commit(kDay0);
  auto tag = Manager()->CreateBatchTag(kDay0);
  ASSERT_OK(tag);
  EXPECT_EQ(*tag, "nightly");
  EXPECT_EQ(Tags(), (std::map<std::string, int64_t>{{"nightly", 1}}));
}

TEST_F(TagAutoManagerTest, UnknownModeIsRefused) {
  Create({{"tag.automatic-creation", "sometimes"}});
  EXPECT_TRUE(HasError(TagAutoManager::Make(table_), StatusCode::kInvalidArgument,
                       {"tag.automatic-creation", "sometimes"}));
}

TEST_F(TagAutoManagerTest, CommitMaintenanceRunsTagsOnItsClock) {
  Create({{"tag.automatic-creation", "process-time"}, {"tag.creation-period", "daily"}});
  Commit(kDay0 + kHour);
  auto maintenance = CommitMaintenance::Make(table_, "test", [] { return kDay0 + 5 * kHour; });
  ASSERT_OK(maintenance);
  ASSERT_OK((*maintenance)->AfterCommit());
  auto tag = table_->tag_manager().LoadTag("2026-12-01");
  ASSERT_OK(tag);
  EXPECT_EQ(tag->snapshot.id, 1);
}

// Eight commits of keys 0 and 1 into the key-value table at `path`.
void WriteEightCommits(const std::shared_ptr<FileIO>& io, const std::string& path) {
  for (int i = 1; i <= 8; ++i) {
    ASSERT_OK(
        test::WriteAndCommit(io, path, false, {{Value::Int64(i % 2), Value::String("v")}}, i));
  }
}

// Expires every snapshot but the latest; changelog expires with them (decoupled, it would keep
// their files).
Status ExpireAllButTheLatest(const std::shared_ptr<const FileStoreTable>& table) {
  ExpireConfig expire;
  expire.snapshot_retain_min = 1;
  expire.snapshot_retain_max = 1;
  expire.changelog_retain_min = 1;
  expire.changelog_retain_max = 1;
  return ExpireSnapshotsImpl(table).Expire(expire, 0).status();
}

// The files only a deleted tag kept go with it; those others use stay.
TEST(TagDeletionTest, DeletesTheFilesOnlyTheTagKept) {
  test::TempDir dir;
  const std::string path = dir.path() + "/t";
  auto io = LocalFileIO();
  auto table = test::CreateKvTable(path, /*partitioned=*/false);
  ASSERT_NO_FATAL_FAILURE(WriteEightCommits(io, path));
  ASSERT_OK(CreateTag(*table, "old", TagRequest{.snapshot_id = 2}));
  ASSERT_OK(CreateTag(*table, "twin", TagRequest{.snapshot_id = 2}));
  ASSERT_OK(CreateTag(*table, "latest"));
  ASSERT_OK(ExpireAllButTheLatest(table));
  const std::set<std::string> with_old = test::FilesOnDisk(path);
  EXPECT_EQ(with_old, test::ReferencedFiles(*table));
  // Its twin still names snapshot 2: only the tag file goes.
  auto deleted = DeleteTagAndUnusedFiles(*table, "twin");
  ASSERT_OK(deleted);
  EXPECT_EQ(*deleted, 0);
  deleted = DeleteTagAndUnusedFiles(*table, "old");
  ASSERT_OK(deleted);
  EXPECT_GT(*deleted, 0);
  EXPECT_EQ(test::FilesOnDisk(path), test::ReferencedFiles(*table));
  EXPECT_LT(test::FilesOnDisk(path).size(), with_old.size());
  // The tag of the live snapshot: its files are the snapshot's.
  deleted = DeleteTagAndUnusedFiles(*table, "latest");
  ASSERT_OK(deleted);
  EXPECT_EQ(*deleted, 0);
  EXPECT_TRUE(HasError(DeleteTagAndUnusedFiles(*table, "old"), StatusCode::kNotFound, {"old"}));
  EXPECT_OK(CheckTable(*table));
}

// Java 2.1.1 (apache/paimon#10823): deleting a tag deletes only the tag's metadata while
// anything else still reads its files. Here the tagged snapshot has expired and no other tag
// names it, but branch "dev" was created from the tag: the branch's copy of the snapshot names
// the same manifests and data files, so only the tag file goes, and the branch still reads.
TEST(TagDeletionTest, DeletesOnlyTheTagFileWhileABranchCreatedFromItUsesTheFiles) {
  test::TempDir dir;
  const std::string path = dir.path() + "/t";
  auto io = LocalFileIO();
  auto table = test::CreateKvTable(path, /*partitioned=*/false);
  ASSERT_NO_FATAL_FAILURE(WriteEightCommits(io, path));
  ASSERT_OK(CreateTag(*table, "old", TagRequest{.snapshot_id = 2}));
  ASSERT_OK(BranchManager(io, path).CreateBranchFromTag("dev", "main", "old"));
  ASSERT_OK(ExpireAllButTheLatest(table));
  ASSERT_FALSE(*table->snapshot_manager().SnapshotExists(2));
  auto dev = FileStoreTable::Open(io, path, "dev");
  ASSERT_OK(dev);
  auto dev_rows = test::tags::ReadTableRows(**dev, TableVersion::Latest());
  ASSERT_OK(dev_rows);
  ASSERT_FALSE(dev_rows->empty());
  const std::set<std::string> files = test::FilesOnDisk(path);

  auto deleted = DeleteTagAndUnusedFiles(*table, "old");
  ASSERT_OK(deleted);
  EXPECT_EQ(*deleted, 0);
  EXPECT_FALSE(*table->tag_manager().TagExists("old"));
  EXPECT_EQ(test::FilesOnDisk(path), files);
  auto after = test::tags::ReadTableRows(**dev, TableVersion::Latest());
  ASSERT_OK(after);
  EXPECT_EQ(*after, *dev_rows);
  test::ExpectCheckClean(**dev);
  test::ExpectCheckClean(*table);
}

}  // namespace
}  // namespace sluice
