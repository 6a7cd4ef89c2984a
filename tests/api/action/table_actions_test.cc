// Java's table actions through RunAction (action.h) against a real warehouse: each action with
// Java's argument names does what its procedure does (snapshots expired, tags and branches made,
// renamed and deleted, rollbacks, partitions dropped and expired, consumers reset and cleared,
// orphans removed, a batch compaction), bad arguments name the action and the argument, and
// DescribeAction / the run mode say which actions run once and which continuously.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sluice/action.h"
#include "sluice/catalog.h"
#include "sluice/read_builder.h"
#include "sluice/table.h"
#include "sluice/table_commit.h"
#include "sluice/table_scan.h"
#include "sluice/table_write.h"
#include "sluice/write_builder.h"
#include "test_util.h"
#include "types/field_util.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;
using test::Field;
using test::HasError;

class TableActionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Catalog catalog = Catalog::Filesystem(dir_.path());
    ASSERT_OK(catalog.CreateDatabase("db"));
    NewTableSpec spec;
    spec.columns = {Field(0, "dt", DataType::String(false)),
                    Field(1, "id", DataType::BigInt(false)), Field(2, "v", DataType::String())};
    spec.primary_keys = {"dt", "id"};
    spec.partition_keys = {"dt"};
    // Write-only: the writes make exactly one snapshot each, compactions are the actions'.
    spec.options = {{"bucket", "1"}, {"write-only", "true"}};
    ASSERT_OK(catalog.CreateTable("db.t", spec));
  }

  std::string TablePath() const { return dir_.path() + "/db.db/t"; }

  Table Get(const std::string& name = "db.t") {
    auto table = Catalog::Filesystem(dir_.path()).GetTable(name);
    EXPECT_OK(table);
    return *table;
  }

  // Commits one row per key into partition `dt`; returns the snapshot made.
  int64_t Commit(const std::string& dt, const std::vector<int64_t>& ids,
                 const std::string& name = "db.t") {
    Table table = Get(name);
    WriteBuilder builder = table.NewWriteBuilder();
    auto write = builder.NewWrite();
    EXPECT_OK(write);
    ColumnBatch batch((*write)->input_type());
    for (int64_t id : ids) {
      EXPECT_OK(batch.AppendRow({Value::String(dt), Value::Int64(id), Value::String("v")}));
    }
    EXPECT_OK((*write)->Write(batch));
    auto messages = (*write)->PrepareCommit();
    EXPECT_OK(messages);
    auto commit = builder.NewCommit();
    EXPECT_OK(commit);
    auto result = (*commit)->Commit(std::move(*messages));
    EXPECT_OK(result);
    EXPECT_OK((*write)->Close());
    return result.ok() && !result->snapshot_ids.empty() ? result->snapshot_ids.back() : -1;
  }

  // RunAction once, with the catalog and table arguments first; the log lines in log_.
  Status Run(const std::string& action, std::vector<std::string> args,
             ActionMode mode = ActionMode::kDefault, bool with_table = true) {
    std::vector<std::string> all = {"--warehouse", dir_.path(), "--database", "db"};
    if (with_table) {
      all.push_back("--table");
      all.push_back("t");
    }
    all.insert(all.end(), args.begin(), args.end());
    ActionHooks hooks;
    hooks.mode = mode;
    hooks.log = [this](const std::string& line) { log_.push_back(line); };
    std::atomic<bool> stop{false};
    return RunAction(action, all, stop, hooks);
  }

  std::vector<int64_t> SnapshotIds() {
    auto snapshots = Get().Snapshots();
    EXPECT_OK(snapshots);
    std::vector<int64_t> ids;
    for (const SnapshotInfo& s : *snapshots) ids.push_back(s.id);
    return ids;
  }

  bool TagExists(const std::string& tag) const {
    return fs::exists(TablePath() + "/tag/tag-" + tag);
  }

  test::TempDir dir_;
  std::vector<std::string> log_;
};

TEST_F(TableActionsTest, ExpireSnapshotsKeepsRetainMax) {
  for (int i = 0; i < 5; ++i) Commit("a", {i});
  ASSERT_EQ(SnapshotIds().size(), 5u);
  ASSERT_OK(Run("expire_snapshots", {"--retain_max", "2", "--retain_min", "1"}));
  EXPECT_EQ(SnapshotIds(), (std::vector<int64_t>{4, 5}));
  ASSERT_FALSE(log_.empty());
  EXPECT_NE(log_.back().find("Expired 3 snapshots"), std::string::npos) << log_.back();
  // Java's --options: the snapshot options stand for the arguments left out.
  ASSERT_OK(Run("expire-snapshots",
                {"--options", "snapshot.num-retained.max=1,snapshot.num-retained.min=1"}));
  EXPECT_EQ(SnapshotIds(), (std::vector<int64_t>{5}));
  EXPECT_TRUE(HasError(Run("expire_snapshots", {"--options", "bucket=3"}),
                       StatusCode::kInvalidArgument, {"expire_snapshots", "--options", "bucket"}));
}

TEST_F(TableActionsTest, TagsAreCreatedReplacedRenamedDeletedAndExpired) {
  for (int i = 0; i < 3; ++i) Commit("a", {i});
  ASSERT_OK(Run("create_tag", {"--tag_name", "t1", "--snapshot", "2"}));
  EXPECT_TRUE(TagExists("t1"));
  // The tag reads snapshot 2.
  auto tagged = Get().NewReadBuilder().WithTag("t1").NewScan();
  ASSERT_OK(tagged);
  auto tagged_plan = tagged->Plan();
  ASSERT_OK(tagged_plan);
  EXPECT_EQ(tagged_plan->snapshot_id, 2);
  ASSERT_OK(Run("replace_tag", {"--tag_name", "t1", "--snapshot", "3", "--time_retained", "1 d"}));
  ASSERT_OK(Run("rename_tag", {"--tag_name", "t1", "--target_tag_name", "t2"}));
  EXPECT_FALSE(TagExists("t1"));
  EXPECT_TRUE(TagExists("t2"));
  auto snapshots = Get().Snapshots();
  ASSERT_OK(snapshots);
  ASSERT_OK(Run("create_tag_from_timestamp",
                {"--tag", "t3", "--timestamp", std::to_string((*snapshots)[1].time_millis)}));
  EXPECT_TRUE(TagExists("t3"));
  ASSERT_OK(Run("delete_tag", {"--tag_name", "t2,t3"}));
  EXPECT_FALSE(TagExists("t2"));
  EXPECT_FALSE(TagExists("t3"));
  ASSERT_OK(Run("create_tag", {"--tag_name", "old"}));
  ASSERT_OK(Run("expire_tags", {"--older_than", "2999-01-01 00:00:00"}));
  EXPECT_FALSE(TagExists("old"));
  ASSERT_FALSE(log_.empty());
  EXPECT_EQ(log_.back(), "old");
}

TEST_F(TableActionsTest, BranchesAreCreatedFastForwardedAndDeleted) {
  Commit("a", {1});
  Commit("a", {2});
  ASSERT_OK(Run("create_tag", {"--tag_name", "t1", "--snapshot", "1"}));
  ASSERT_OK(Run("create_branch", {"--branch_name", "b", "--tag_name", "t1"}));
  EXPECT_OK(Get().OnBranch("b"));
  // Again, ignored.
  ASSERT_OK(Run("create_branch", {"--branch_name", "b", "--ignore_if_exists", "true"}));
  EXPECT_TRUE(HasError(Run("create_branch", {"--branch_name", "b"}), StatusCode::kAlreadyExists,
                       {"create_branch", "b"}));
  ASSERT_OK(Run("fast_forward", {"--branch_name", "b"}));
  // Main is now the branch's: snapshot 1.
  EXPECT_EQ(SnapshotIds(), (std::vector<int64_t>{1}));
  ASSERT_OK(Run("delete_branch", {"--branch_name", "b"}));
  EXPECT_TRUE(HasError(Get().OnBranch("b"), StatusCode::kNotFound, {"b"}));
}

TEST_F(TableActionsTest, RollbackToSnapshotTagAndTimestamp) {
  for (int i = 0; i < 5; ++i) Commit("a", {i});
  ASSERT_OK(Run("create_tag", {"--tag_name", "two", "--snapshot", "2"}));
  ASSERT_OK(Run("rollback_to", {"--version", "4"}));
  EXPECT_EQ(SnapshotIds().back(), 4);
  auto snapshots = Get().Snapshots();
  ASSERT_OK(snapshots);
  ASSERT_OK(
      Run("rollback_to_timestamp", {"--timestamp", std::to_string((*snapshots)[2].time_millis)}));
  EXPECT_EQ(SnapshotIds().back(), 3);
  ASSERT_OK(Run("rollback_to", {"--version", "two"}));
  EXPECT_EQ(SnapshotIds().back(), 2);
  EXPECT_TRUE(HasError(Run("rollback_to", {"--version", "nope"}), StatusCode::kNotFound,
                       {"rollback_to", "nope"}));
}

TEST_F(TableActionsTest, DropAndExpirePartitions) {
  Commit("2020-01-01", {1, 2});
  Commit("2020-01-02", {3});
  Commit("2999-01-01", {4});
  ASSERT_OK(Run("drop_partition", {"--partition", "dt=2020-01-02"}));
  ASSERT_OK(Run("expire_partitions",
                {"--expiration_time", "1 d", "--timestamp_formatter", "yyyy-MM-dd"}));
  ASSERT_FALSE(log_.empty());
  EXPECT_EQ(log_.back(), "dt=2020-01-01");
  // What is left: the future partition only.
  auto plan = Get().NewReadBuilder().NewScan();
  ASSERT_OK(plan);
  auto splits = plan->Plan();
  ASSERT_OK(splits);
  ASSERT_EQ(splits->splits.size(), 1u);
  EXPECT_TRUE(HasError(Run("expire_partitions", {"--expiration_time", "1 d"}),
                       StatusCode::kInvalidArgument,
                       {"expire_partitions", "--timestamp_formatter"}));
  EXPECT_TRUE(HasError(Run("drop_partition", {}), StatusCode::kInvalidArgument,
                       {"drop_partition", "--partition"}));
}

TEST_F(TableActionsTest, ConsumersAreResetAndCleared) {
  Commit("a", {1});
  Commit("a", {2});
  const std::string consumers = TablePath() + "/consumer/";
  ASSERT_OK(Run("reset_consumer", {"--consumer_id", "c1", "--next_snapshot", "2"}));
  ASSERT_OK(Run("reset_consumer", {"--consumer_id", "c2", "--next_snapshot", "1"}));
  ASSERT_OK(Run("reset_consumer", {"--consumer_id", "c3", "--next_snapshot", "1"}));
  EXPECT_TRUE(fs::exists(consumers + "consumer-c1"));
  ASSERT_OK(Run("reset_consumer", {"--consumer_id", "c1"}));  // no snapshot: deleted
  EXPECT_FALSE(fs::exists(consumers + "consumer-c1"));
  ASSERT_OK(Run("clear_consumers", {"--excluding_consumers", "c3"}));
  EXPECT_FALSE(fs::exists(consumers + "consumer-c2"));
  EXPECT_TRUE(fs::exists(consumers + "consumer-c3"));
  ASSERT_OK(Run("clear_consumers", {}));
  EXPECT_FALSE(fs::exists(consumers + "consumer-c3"));
}

TEST_F(TableActionsTest, RemoveOrphanFilesOfOneTableOrTheDatabase) {
  Commit("a", {1});
  const std::string orphan = TablePath() + "/dt=a/bucket-0/data-orphan.parquet";
  std::ofstream(orphan) << "x";
  ASSERT_OK(
      Run("remove_orphan_files", {"--older_than", "2999-01-01 00:00:00", "--dry_run", "true"}));
  EXPECT_TRUE(fs::exists(orphan));
  // No --table: every table of the database.
  ASSERT_OK(Run("remove_orphan_files", {"--older_than", "2999-01-01 00:00:00"}, ActionMode::kBatch,
                /*with_table=*/false));
  EXPECT_FALSE(fs::exists(orphan));
}

TEST_F(TableActionsTest, ExpireChangelogsRuns) {
  Commit("a", {1});
  ASSERT_OK(Run("expire_changelogs", {"--delete_all", "true"}));
  ASSERT_FALSE(log_.empty());
  EXPECT_NE(log_.back().find("changelogs of"), std::string::npos) << log_.back();
}

TEST_F(TableActionsTest, BatchCompactRewritesEveryBucketOnce) {
  for (int i = 0; i < 4; ++i) Commit("a", {i, i + 10});
  Commit("b", {1});
  ASSERT_OK(Run("compact", {"--partition", "dt=a"}, ActionMode::kBatch));
  auto snapshots = Get().Snapshots();
  ASSERT_OK(snapshots);
  ASSERT_EQ(snapshots->back().commit_kind, "COMPACT");
  ASSERT_FALSE(log_.empty());
  EXPECT_NE(log_.back().find("compacted 4 files of db.t into 1"), std::string::npos) << log_.back();
  EXPECT_TRUE(HasError(Run("compact", {"--partition", "nope=1"}, ActionMode::kBatch),
                       StatusCode::kInvalidArgument, {"compact", "nope", "partition key"}));
  EXPECT_TRUE(HasError(Run("compact", {"--where", "id > 3"}, ActionMode::kBatch),
                       StatusCode::kInvalidArgument, {"compact", "--where", "id"}));
  EXPECT_TRUE(HasError(Run("compact", {"--compact_strategy", "full"}, ActionMode::kStreaming),
                       StatusCode::kInvalidArgument, {"compact", "full", "batch"}));
  EXPECT_TRUE(HasError(Run("compact", {"--partition_idle_time", "1 h"}, ActionMode::kStreaming),
                       StatusCode::kInvalidArgument,
                       {"compact", "--partition_idle_time", "batch"}));
  EXPECT_TRUE(HasError(Run("compact", {"--compact_strategy", "major"}, ActionMode::kBatch),
                       StatusCode::kInvalidArgument, {"compact", "major"}));
}

TEST_F(TableActionsTest, BadArgumentsNameTheActionAndTheArgument) {
  Commit("a", {1});
  EXPECT_TRUE(HasError(Run("create_tag", {}), StatusCode::kInvalidArgument,
                       {"create_tag", "--tag_name", "required"}));
  EXPECT_TRUE(HasError(Run("create_tag", {"--tag_name", "x", "--snapshot", "two"}),
                       StatusCode::kInvalidArgument, {"create_tag", "--snapshot", "two"}));
  EXPECT_TRUE(HasError(Run("create_tag", {"--tag_name", "x", "--tag", "y"}),
                       StatusCode::kInvalidArgument, {"create_tag", "--tag"}));
  EXPECT_TRUE(HasError(Run("create_tag", {"--tag_name", "x", "--time_retained", "forever"}),
                       StatusCode::kInvalidArgument, {"create_tag", "--time_retained", "forever"}));
  EXPECT_TRUE(HasError(Run("rename_tag", {"--tag_name", "x"}), StatusCode::kInvalidArgument,
                       {"rename_tag", "--target_tag_name"}));
  EXPECT_TRUE(HasError(Run("rollback_to_timestamp", {"--timestamp", "yesterday"}),
                       StatusCode::kInvalidArgument, {"rollback_to_timestamp", "--timestamp"}));
  EXPECT_TRUE(HasError(Run("expire_changelogs", {"--delete_all", "maybe"}),
                       StatusCode::kInvalidArgument, {"expire_changelogs", "--delete_all"}));
  EXPECT_TRUE(HasError(Run("delete_branch", {}, ActionMode::kDefault, /*with_table=*/false),
                       StatusCode::kInvalidArgument, {"delete_branch", "--table"}));
  std::atomic<bool> stop{false};
  EXPECT_TRUE(HasError(RunAction("create_tag", {"--database", "db"}, stop),
                       StatusCode::kInvalidArgument, {"create_tag", "--warehouse"}));
  EXPECT_TRUE(HasError(RunAction("create_tags", {}, stop), StatusCode::kInvalidArgument,
                       {"unknown action", "create_tags", "create_tag"}));
  EXPECT_TRUE(
      HasError(RunAction("compact_database", {"--warehouse", dir_.path(), "--mode", "x"}, stop),
               StatusCode::kInvalidArgument, {"compact_database", "--mode"}));
  EXPECT_TRUE(HasError(Run("create_tag", {"--tag_name", "nope"}, ActionMode::kStreaming),
                       StatusCode::kInvalidArgument, {"create_tag", "streaming"}));
  ActionHooks batch;
  batch.mode = ActionMode::kBatch;
  EXPECT_TRUE(HasError(RunAction("kafka_sync_table", {}, stop, batch), StatusCode::kInvalidArgument,
                       {"kafka_sync_table", "batch"}));
  // --help runs nothing and logs the usage.
  ASSERT_OK(Run("create_tag", {"--help"}));
  ASSERT_FALSE(log_.empty());
  EXPECT_NE(log_.back().find("--tag_name <tag_name>"), std::string::npos) << log_.back();
  EXPECT_FALSE(TagExists("nope"));
}

TEST(DescribeActionTest, SaysHowEachActionRuns) {
  auto compact = DescribeAction("compact-database");
  ASSERT_OK(compact);
  EXPECT_TRUE(compact->continuous);
  EXPECT_TRUE(compact->once);
  EXPECT_EQ(compact->default_mode, ActionMode::kStreaming);
  EXPECT_NE(compact->usage.find("--compaction_threads"), std::string::npos);
  auto expire = DescribeAction("expire_snapshots");
  ASSERT_OK(expire);
  EXPECT_FALSE(expire->continuous);
  EXPECT_TRUE(expire->once);
  EXPECT_EQ(expire->default_mode, ActionMode::kBatch);
  auto sync = DescribeAction("kafka_sync_table");
  ASSERT_OK(sync);
  EXPECT_TRUE(sync->continuous);
  EXPECT_FALSE(sync->once);
  EXPECT_TRUE(HasError(DescribeAction("nope"), StatusCode::kInvalidArgument, {"nope"}));
  // Every name ActionNames lists is described.
  for (const std::string& name : ActionNames()) {
    auto info = DescribeAction(name);
    ASSERT_OK(info) << name;
    EXPECT_EQ(info->name, name);
    EXPECT_TRUE(info->continuous || info->once) << name;
  }
  std::vector<std::string> names = ActionNames();
  for (const char* java :
       {"compact",           "compact_database", "expire_snapshots", "expire_changelogs",
        "expire_partitions", "expire_tags",      "create_tag",       "create_tag_from_timestamp",
        "delete_tag",        "rename_tag",       "replace_tag",      "create_branch",
        "delete_branch",     "fast_forward",     "rollback_to",      "rollback_to_timestamp",
        "drop_partition",    "reset_consumer",   "clear_consumers",  "remove_orphan_files"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), java), names.end()) << java;
  }
}

}  // namespace
}  // namespace sluice
