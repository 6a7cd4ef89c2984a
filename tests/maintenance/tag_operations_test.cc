// Tags: created from the latest snapshot, a snapshot id, an expired snapshot another tag keeps,
// or a time; replaced, renamed, deleted and expired; the files as Java writes them.

#include <gtest/gtest.h>

#include "maintenance/tags_test_util.h"
#include "sluice/base/json_reader.h"
#include "sluice/maintenance/tag_operations.h"

namespace sluice {
namespace {

using test::HasError;
using test::tags::CreateMaintenanceTable;
using test::tags::OpenBranch;
using test::tags::Row;
using test::tags::WriteAndCommit;

constexpr int64_t kNow = 1767225600000;  // 2026-01-01 00:00:00 UTC

class TagOperationsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    io_ = std::make_shared<MemoryFileIO>();
    CreateMaintenanceTable(io_, /*append=*/false);
    for (int i = 1; i <= 3; ++i) {
      ASSERT_OK(WriteAndCommit(io_, "main", {Row(i, "a", "v" + std::to_string(i))}));
    }
    auto table = OpenBranch(io_);
    ASSERT_OK(table);
    table_ = *table;
  }

  std::string TagFile(const std::string& name) {
    auto text = io_->ReadFile(table_->tag_manager().tag_path(name));
    EXPECT_OK(text);
    return text.ok() ? *text : "";
  }

  std::shared_ptr<MemoryFileIO> io_;
  std::shared_ptr<FileStoreTable> table_;
};

TEST_F(TagOperationsTest, CreateFromLatestWritesThePlainSnapshotJson) {
  auto snapshot = CreateTag(*table_, "t1");
  ASSERT_OK(snapshot);
  EXPECT_EQ(snapshot->id, 3);
  auto latest = table_->snapshot_manager().LoadSnapshot(3);
  ASSERT_OK(latest);
  // Without a retention Java writes the snapshot JSON itself (readable before 0.9).
  EXPECT_EQ(TagFile("t1"), latest->ToJson());
  auto tag = table_->tag_manager().LoadTag("t1");
  ASSERT_OK(tag);
  EXPECT_FALSE(tag->create_time.has_value());
  EXPECT_FALSE(tag->time_retained.has_value());
}

TEST_F(TagOperationsTest, RetentionWritesCreateTimeAndDurationAsJackson) {
  TagRequest request;
  request.snapshot_id = 2;
  request.time_retained_millis = 86400000;
  request.now_millis = kNow + 3723004;  // 01:02:03.004
  auto snapshot = CreateTag(*table_, "daily", request);
  ASSERT_OK(snapshot);
  EXPECT_EQ(snapshot->id, 2);
  const std::string text = TagFile("daily");
  EXPECT_NE(text.find("\"tagCreateTime\" : [ 2026, 1, 1, 1, 2, 3, 4000000 ]"), std::string::npos)
      << text;
  EXPECT_NE(text.find("\"tagTimeRetained\" : 86400.000000000"), std::string::npos) << text;
  auto tag = table_->tag_manager().LoadTag("daily");
  ASSERT_OK(tag);
  EXPECT_EQ(tag->snapshot.id, 2);
  EXPECT_EQ(tag->time_retained->seconds, 86400);
}

TEST_F(TagOperationsTest, DefaultRetentionComesFromTheTableOption) {
  auto table = FileStoreTable::Open(io_, test::tags::kMaintenanceTable, "main",
                                    {{"tag.default-time-retained", "1 h"}});
  ASSERT_OK(table);
  ASSERT_OK(CreateTag(**table, "t"));
  auto tag = table_->tag_manager().LoadTag("t");
  ASSERT_OK(tag);
  ASSERT_TRUE(tag->time_retained.has_value());
  EXPECT_EQ(tag->time_retained->seconds, 3600);
}

TEST_F(TagOperationsTest, ErrorsNameTheTagAndSnapshot) {
  ASSERT_OK(CreateTag(*table_, "t1"));
  EXPECT_TRUE(HasError(CreateTag(*table_, "t1"), StatusCode::kAlreadyExists, {"t1", "exists"}));
  TagRequest ignore;
  ignore.ignore_if_exists = true;
  EXPECT_OK(CreateTag(*table_, "t1", ignore));
  TagRequest missing;
  missing.snapshot_id = 42;
  EXPECT_TRUE(HasError(CreateTag(*table_, "t2", missing), StatusCode::kNotFound, {"#42"}));
  EXPECT_TRUE(HasError(CreateTag(*table_, "  "), StatusCode::kInvalidArgument, {"blank"}));
  EXPECT_TRUE(HasError(ReplaceTag(*table_, "nope"), StatusCode::kNotFound, {"nope"}));
  EXPECT_TRUE(HasError(RenameTag(*table_, "nope", "x"), StatusCode::kNotFound, {"nope"}));
  EXPECT_TRUE(HasError(DeleteTags(*table_, {"nope"}), StatusCode::kNotFound, {"nope"}));
}

TEST_F(TagOperationsTest, AnExpiredSnapshotIsTaggedFromTheTagThatKeepsIt) {
  TagRequest request;
  request.snapshot_id = 1;
  ASSERT_OK(CreateTag(*table_, "keep", request));
  ASSERT_OK(io_->Delete(table_->snapshot_manager().snapshot_path(1), false));
  auto again = CreateTag(*table_, "copy", request);
  ASSERT_OK(again);
  EXPECT_EQ(again->id, 1);
}

TEST_F(TagOperationsTest, ReplaceRenameDelete) {
  TagRequest first;
  first.snapshot_id = 1;
  ASSERT_OK(CreateTag(*table_, "t", first));
  ASSERT_OK(ReplaceTag(*table_, "t"));
  auto replaced = table_->tag_manager().LoadTag("t");
  ASSERT_OK(replaced);
  EXPECT_EQ(replaced->snapshot.id, 3);
  ASSERT_OK(RenameTag(*table_, "t", "u"));
  EXPECT_TRUE(HasError(table_->tag_manager().LoadTag("t"), StatusCode::kNotFound, {"t"}));
  ASSERT_OK(CreateTag(*table_, "v"));
  EXPECT_TRUE(HasError(RenameTag(*table_, "u", "v"), StatusCode::kAlreadyExists, {"v"}));
  ASSERT_OK(DeleteTags(*table_, {"u", "v"}));
  auto names = table_->tag_manager().ListTagNames();
  ASSERT_OK(names);
  EXPECT_TRUE(names->empty());
}

TEST_F(TagOperationsTest, FromTimestampTakesTheFirstSnapshotAtOrAfterIt) {
  auto s2 = table_->snapshot_manager().LoadSnapshot(2);
  ASSERT_OK(s2);
  auto tagged = CreateTagFromTimestamp(*table_, "ts", s2->time_millis);
  ASSERT_OK(tagged);
  // The earliest snapshot committed at or after the time (snapshot 1 when both share a millis).
  EXPECT_LE(tagged->id, 2);
  EXPECT_GE(tagged->time_millis, s2->time_millis);
  EXPECT_TRUE(HasError(CreateTagFromTimestamp(*table_, "late", INT64_MAX / 2),
                       StatusCode::kNotFound, {"later than"}));
}

TEST_F(TagOperationsTest, ExpireDeletesTagsPastTheirRetention) {
  TagRequest old_tag;
  old_tag.time_retained_millis = 1000;
  old_tag.now_millis = kNow;
  ASSERT_OK(CreateTag(*table_, "old", old_tag));
  TagRequest young;
  young.time_retained_millis = 3600000;
  young.now_millis = kNow;
  ASSERT_OK(CreateTag(*table_, "young", young));
  ASSERT_OK(CreateTag(*table_, "forever"));

  ExpireTagsOptions options;
  options.now_millis = kNow + 2000;
  auto expired = ExpireTags(*table_, options);
  ASSERT_OK(expired);
  EXPECT_EQ(*expired, std::vector<std::string>{"old"});
  // older_than takes tags created before it, retention or not.
  options.older_than_millis = kNow + 1;
  expired = ExpireTags(*table_, options);
  ASSERT_OK(expired);
  EXPECT_EQ(*expired, std::vector<std::string>{"young"});
  auto names = table_->tag_manager().ListTagNames();
  ASSERT_OK(names);
  EXPECT_EQ(*names, std::vector<std::string>{"forever"});
}

TEST_F(TagOperationsTest, CreateTimeArrayDropsZeroSecondsAndNanos) {
  test::ScopedEnv tz("TZ", "UTC");
  EXPECT_EQ(TagCreateTimeOf(kNow), (std::vector<int64_t>{2026, 1, 1, 0, 0}));
  EXPECT_EQ(TagCreateTimeOf(kNow + 5000), (std::vector<int64_t>{2026, 1, 1, 0, 0, 5}));
  EXPECT_EQ(TagCreateTimeOf(kNow + 1), (std::vector<int64_t>{2026, 1, 1, 0, 0, 0, 1000000}));
}

// Java's Tag create time is LocalDateTime.now() in the JVM's zone: the process's here, and a
// tag's retention runs from that wall clock in that zone.
TEST_F(TagOperationsTest, CreateTimeIsTheProcesssWallClock) {
  test::ScopedEnv tz("TZ", "Asia/Shanghai");
  EXPECT_EQ(TagCreateTimeOf(kNow), (std::vector<int64_t>{2026, 1, 1, 8, 0}));
  TagRequest request;
  request.now_millis = kNow;
  request.time_retained_millis = 1000;
  ASSERT_OK(CreateTag(*table_, "shanghai", request));
  ExpireTagsOptions options;
  options.now_millis = kNow + 500;
  ASSERT_OK_AND_ASSIGN(std::vector<std::string> expired, ExpireTags(*table_, options));
  EXPECT_TRUE(expired.empty());
  options.now_millis = kNow + 2000;
  ASSERT_OK_AND_ASSIGN(expired, ExpireTags(*table_, options));
  EXPECT_EQ(expired, std::vector<std::string>{"shanghai"});
}

}  // namespace
}  // namespace sluice
