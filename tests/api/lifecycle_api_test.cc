// Tags, branches, system tables, procedures and diff through the public API: the procedures by
// Java's names and argument names, the system tables with Java's columns and types (the type
// strings of the Java classes, org.apache.paimon.table.system.*), diff between snapshots, tags
// and branches.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sluice/branches.h"
#include "sluice/catalog.h"
#include "sluice/procedures.h"
#include "sluice/system_tables.h"
#include "sluice/table_diff.h"
#include "sluice/tags.h"
#include "sluice/write_builder.h"
#include "test_util.h"
#include "types/field_util.h"

namespace sluice {
namespace {

using test::Field;
using test::HasError;

class LifecycleApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(catalog().CreateDatabase("db"));
    NewTableSpec spec;
    spec.columns = {Field(0, "id", DataType::BigInt(false)), Field(1, "p", DataType::String(false)),
                    Field(2, "v", DataType::String())};
    spec.partition_keys = {"p"};
    spec.primary_keys = {"id", "p"};
    spec.options = {{"bucket", "1"}};
    ASSERT_OK(catalog().CreateTable("db.t", spec));
  }

  Catalog catalog() { return Catalog::Filesystem(dir_.path()); }

  Table Get(const std::string& name) {
    auto table = catalog().GetTable(name);
    EXPECT_OK(table);
    return *table;
  }

  void Write(const std::string& name,
             const std::vector<std::tuple<int64_t, std::string, std::string>>& rows,
             RowKind kind = RowKind::kInsert) {
    Table table = Get(name);
    WriteBuilder builder = table.NewWriteBuilder();
    auto writer = builder.NewWrite();
    ASSERT_OK(writer);
    ColumnBatch batch((*writer)->input_type());
    for (const auto& [id, p, v] : rows) {
      ASSERT_OK(batch.AppendRow({Value::Int64(id), Value::String(p), Value::String(v)}));
    }
    const std::vector<RowKind> kinds(rows.size(), kind);
    ASSERT_OK((*writer)->Write(batch, kinds.data()));
    auto messages = (*writer)->PrepareCommit();
    ASSERT_OK(messages);
    auto commit = builder.NewCommit();
    ASSERT_OK(commit);
    ASSERT_OK((*commit)->Commit(std::move(*messages)));
    ASSERT_OK((*writer)->Close());
  }

  std::vector<std::string> Call(const std::string& name,
                                std::vector<std::pair<std::string, std::string>> args) {
    auto lines = CallProcedure(catalog(), name, args);
    EXPECT_OK(lines) << name;
    return lines.ok() ? *lines : std::vector<std::string>{};
  }

  // "name TYPE" per column of a system table's rows.
  static std::vector<std::string> Columns(const ColumnBatch& rows) {
    std::vector<std::string> out;
    for (const DataField& f : rows.schema()->fields())
      out.push_back(f.name + " " + f.type->ToString());
    return out;
  }

  ColumnBatch System(const std::string& id) {
    auto rows = ReadSystemTable(catalog(), id);
    EXPECT_OK(rows) << id;
    return rows.ok() ? std::move(*rows) : ColumnBatch(DataType::Row({}));
  }

  test::TempDir dir_;
};

// Expiry runs after every commit (retain 1 to 2 snapshots); a consumer holds the snapshots from
// its next one on until it is idle longer than `consumer.expiration-time`, when the expiry
// after a commit deletes it first.
TEST_F(LifecycleApiTest, CommitsExpireSnapshotsAndIdleConsumers) {
  NewTableSpec spec;
  spec.columns = {Field(0, "id", DataType::BigInt(false)), Field(1, "p", DataType::String(false)),
                  Field(2, "v", DataType::String())};
  spec.primary_keys = {"id", "p"};
  spec.options = {{"bucket", "1"},
                  {"snapshot.num-retained.min", "1"},
                  {"snapshot.num-retained.max", "2"},
                  {"consumer.expiration-time", "1 h"},
                  // One snapshot per commit: no compaction.
                  {"num-sorted-run.compaction-trigger", "50"},
                  {"num-sorted-run.stop-trigger", "100"}};
  ASSERT_OK(catalog().CreateTable("db.e", spec));
  auto ids = [&] {
    std::vector<int64_t> out;
    auto snapshots = Get("db.e").Snapshots();
    EXPECT_OK(snapshots);
    if (snapshots.ok()) {
      for (const SnapshotInfo& s : *snapshots) out.push_back(s.id);
    }
    return out;
  };
  for (int i = 1; i <= 3; ++i) Write("db.e", {{i, "a", "x"}});
  EXPECT_EQ(ids(), (std::vector<int64_t>{2, 3}));
  Call("reset_consumer", {{"table", "db.e"}, {"consumer_id", "c"}, {"next_snapshot_id", "3"}});
  for (int i = 4; i <= 5; ++i) Write("db.e", {{i, "a", "x"}});
  EXPECT_EQ(ids(), (std::vector<int64_t>{3, 4, 5}));
  EXPECT_EQ(System("db.e$consumers").num_rows(), 1);
  // Idle for two hours: the next commit's expiry deletes the consumer, then its snapshots go.
  const std::string consumer = dir_.path() + "/db.db/e/consumer/consumer-c";
  std::filesystem::last_write_time(
      consumer, std::filesystem::last_write_time(consumer) - std::chrono::hours(2));
  Write("db.e", {{6, "a", "x"}});
  EXPECT_EQ(ids(), (std::vector<int64_t>{5, 6}));
  EXPECT_FALSE(std::filesystem::exists(consumer));
  EXPECT_EQ(System("db.e$consumers").num_rows(), 0);
}

TEST_F(LifecycleApiTest, SystemTableColumnsAreJavas) {
  Write("db.t", {{1, "a", "x"}});
  EXPECT_EQ(
      Columns(System("db.t$snapshots")),
      (std::vector<std::string>{
          "snapshot_id BIGINT NOT NULL", "schema_id BIGINT NOT NULL", "commit_user STRING NOT NULL",
          "commit_identifier BIGINT NOT NULL", "commit_kind STRING NOT NULL",
          "commit_time TIMESTAMP(3) NOT NULL", "base_manifest_list STRING NOT NULL",
          "delta_manifest_list STRING NOT NULL", "changelog_manifest_list STRING",
          "total_record_count BIGINT", "delta_record_count BIGINT", "changelog_record_count BIGINT",
          "watermark BIGINT", "next_row_id BIGINT"}));
  EXPECT_EQ(Columns(System("db.t$schemas")),
            (std::vector<std::string>{"schema_id BIGINT NOT NULL", "fields STRING NOT NULL",
                                      "partition_keys STRING NOT NULL",
                                      "primary_keys STRING NOT NULL", "options STRING NOT NULL",
                                      "comment STRING", "update_time TIMESTAMP(3) NOT NULL"}));
  EXPECT_EQ(Columns(System("db.t$options")),
            (std::vector<std::string>{"key STRING NOT NULL", "value STRING NOT NULL"}));
  EXPECT_EQ(Columns(System("db.t$tags")),
            (std::vector<std::string>{"tag_name STRING NOT NULL", "snapshot_id BIGINT NOT NULL",
                                      "schema_id BIGINT NOT NULL",
                                      "commit_time TIMESTAMP(3) NOT NULL", "record_count BIGINT",
                                      "create_time TIMESTAMP(3)", "time_retained STRING"}));
  EXPECT_EQ(Columns(System("db.t$branches")),
            (std::vector<std::string>{"branch_name STRING NOT NULL",
                                      "create_time TIMESTAMP(3) NOT NULL"}));
  EXPECT_EQ(Columns(System("db.t$consumers")),
            (std::vector<std::string>{"consumer_id STRING NOT NULL",
                                      "next_snapshot_id BIGINT NOT NULL"}));
  EXPECT_EQ(Columns(System("db.t$manifests")),
            (std::vector<std::string>{
                "file_name STRING NOT NULL", "file_size BIGINT NOT NULL",
                "num_added_files BIGINT NOT NULL", "num_deleted_files BIGINT NOT NULL",
                "schema_id BIGINT NOT NULL", "min_partition_stats STRING",
                "max_partition_stats STRING", "min_row_id BIGINT", "max_row_id BIGINT"}));
  EXPECT_EQ(Columns(System("db.t$files")),
            (std::vector<std::string>{"partition STRING",
                                      "bucket INT NOT NULL",
                                      "file_path STRING NOT NULL",
                                      "file_format STRING NOT NULL",
                                      "schema_id BIGINT NOT NULL",
                                      "level INT NOT NULL",
                                      "record_count BIGINT NOT NULL",
                                      "file_size_in_bytes BIGINT NOT NULL",
                                      "min_key STRING",
                                      "max_key STRING",
                                      "null_value_counts STRING NOT NULL",
                                      "min_value_stats STRING NOT NULL",
                                      "max_value_stats STRING NOT NULL",
                                      "min_sequence_number BIGINT",
                                      "max_sequence_number BIGINT",
                                      "creation_time TIMESTAMP(3)",
                                      "deleteRowCount BIGINT",
                                      "file_source STRING",
                                      "first_row_id BIGINT",
                                      "write_cols ARRAY<STRING>"}));
  EXPECT_EQ(
      Columns(System("db.t$partitions")),
      (std::vector<std::string>{"partition STRING", "record_count BIGINT NOT NULL",
                                "file_size_in_bytes BIGINT NOT NULL", "file_count BIGINT NOT NULL",
                                "last_update_time TIMESTAMP(3)", "created_at TIMESTAMP(3)",
                                "created_by STRING", "updated_by STRING", "options STRING"}));
  EXPECT_EQ(Columns(System("db.t$buckets")),
            (std::vector<std::string>{
                "partition STRING", "bucket INT NOT NULL", "record_count BIGINT NOT NULL",
                "file_size_in_bytes BIGINT NOT NULL", "file_count BIGINT NOT NULL",
                "last_update_time TIMESTAMP(3)"}));
  EXPECT_EQ(
      Columns(System("db.t$aggregation_fields")),
      (std::vector<std::string>{"field_name STRING NOT NULL", "field_type STRING NOT NULL",
                                "function STRING", "function_options STRING", "comment STRING"}));
  EXPECT_EQ(Columns(System("sys.all_table_options")),
            (std::vector<std::string>{"database_name STRING", "table_name STRING", "key STRING",
                                      "value STRING"}));
}

TEST_F(LifecycleApiTest, SystemTablesShowTheTable) {
  Write("db.t", {{1, "a", "x"}, {2, "b", "y"}});
  Write("db.t", {{3, "a", "z"}});
  ColumnBatch snapshots = System("db.t$snapshots");
  ASSERT_EQ(snapshots.num_rows(), 2);
  EXPECT_EQ(snapshots.GetRow(1).list()[0], Value::Int64(2));
  EXPECT_EQ(snapshots.GetRow(1).list()[4], Value::String("APPEND"));
  EXPECT_EQ(snapshots.GetRow(1).list()[9], Value::Int64(3));  // total_record_count

  ColumnBatch files = System("db.t$files");
  EXPECT_EQ(files.num_rows(), 3);
  EXPECT_EQ(files.GetRow(0).list()[0], Value::String("{a}"));
  EXPECT_EQ(files.GetRow(0).list()[3], Value::String("parquet"));
  EXPECT_EQ(files.GetRow(0).list()[8], Value::String("[1]"));  // min_key: the trimmed key

  ColumnBatch partitions = System("db.t$partitions");
  ASSERT_EQ(partitions.num_rows(), 2);
  EXPECT_EQ(partitions.GetRow(0).list()[0], Value::String("p=a"));
  EXPECT_EQ(partitions.GetRow(0).list()[1], Value::Int64(2));

  ColumnBatch options = System("db.t$options");
  ASSERT_EQ(options.num_rows(), 1);
  EXPECT_EQ(options.GetRow(0).list()[0], Value::String("bucket"));

  ColumnBatch schemas = System("db.t$schemas");
  ASSERT_EQ(schemas.num_rows(), 1);
  EXPECT_EQ(schemas.GetRow(0).list()[2], Value::String("[\"p\"]"));
  EXPECT_EQ(schemas.GetRow(0).list()[3], Value::String("[\"id\",\"p\"]"));
  EXPECT_EQ(schemas.GetRow(0).list()[4], Value::String("{\"bucket\":\"1\"}"));

  EXPECT_TRUE(HasError(ReadSystemTable(catalog(), "db.t$nope"), StatusCode::kNotFound,
                       {"nope", "snapshots"}));
}

// Every row of a system table, rendered, sorted.
std::vector<std::string> Rendered(const ColumnBatch& rows) {
  std::vector<std::string> out;
  for (int64_t i = 0; i < rows.num_rows(); ++i) out.push_back(rows.GetRow(i).DebugString());
  std::sort(out.begin(), out.end());
  return out;
}

// $audit_log, $binlog and $ro read the data: the row kinds (a delete not yet compacted away
// shows as -D), each value as a one-element array, and the compacted files alone.
TEST_F(LifecycleApiTest, DataSystemTablesShowRowKindsArraysAndCompactedRows) {
  Write("db.t", {{1, "a", "x"}, {2, "b", "y"}});
  Write("db.t", {{1, "a", "x2"}});
  Write("db.t", {{2, "b", "y"}}, RowKind::kDelete);
  EXPECT_EQ(Columns(System("db.t$audit_log")),
            (std::vector<std::string>{"rowkind STRING", "id BIGINT NOT NULL", "p STRING NOT NULL",
                                      "v STRING"}));
  EXPECT_EQ(Columns(System("db.t$binlog")),
            (std::vector<std::string>{"rowkind STRING", "id ARRAY<BIGINT>", "p ARRAY<STRING>",
                                      "v ARRAY<STRING>"}));
  EXPECT_EQ(Columns(System("db.t$ro")),
            (std::vector<std::string>{"id BIGINT NOT NULL", "p STRING NOT NULL", "v STRING"}));
  const std::vector<std::string> audit = Rendered(System("db.t$audit_log"));
  ASSERT_EQ(audit.size(), 2u);
  EXPECT_NE(audit[0].find("+I"), std::string::npos) << audit[0];
  EXPECT_NE(audit[0].find("x2"), std::string::npos) << audit[0];
  EXPECT_NE(audit[1].find("-D"), std::string::npos) << audit[1];
  const std::vector<std::string> binlog = Rendered(System("db.t$binlog"));
  ASSERT_EQ(binlog.size(), 2u);
  EXPECT_EQ(System("db.t$binlog").GetRow(0).list()[3].list().size(), 1u);
  // Nothing is compacted to the top level yet: the read-optimized view is empty.
  EXPECT_EQ(System("db.t$ro").num_rows(), 0);

  Call("compact", {{"table", "db.t"}, {"compact_strategy", "full"}});
  const std::vector<std::string> ro = Rendered(System("db.t$ro"));
  ASSERT_EQ(ro.size(), 1u);
  EXPECT_NE(ro[0].find("x2"), std::string::npos) << ro[0];
  // Full compaction dropped the delete.
  const std::vector<std::string> compacted = Rendered(System("db.t$audit_log"));
  ASSERT_EQ(compacted.size(), 1u);
  EXPECT_NE(compacted[0].find("+I"), std::string::npos) << compacted[0];
}

TEST_F(LifecycleApiTest, TagProceduresAndTheTagsTable) {
  Write("db.t", {{1, "a", "x"}});
  Write("db.t", {{2, "a", "y"}});
  EXPECT_EQ(Call("create_tag", {{"table", "db.t"}, {"tag", "t1"}, {"snapshot_id", "1"}}),
            std::vector<std::string>{"Created tag 't1' of snapshot 1 in db.t"});
  Call("create_tag", {{"table", "db.t"}, {"tag", "t2"}, {"time_retained", "1 d"}});
  ColumnBatch tags = System("db.t$tags");
  ASSERT_EQ(tags.num_rows(), 2);
  EXPECT_EQ(tags.GetRow(0).list()[0], Value::String("t1"));
  EXPECT_TRUE(tags.GetRow(0).list()[6].is_null());
  EXPECT_EQ(tags.GetRow(1).list()[6], Value::String("PT24H"));
  EXPECT_EQ(Call("rename_tag", {{"table", "db.t"}, {"tagName", "t1"}, {"targetTagName", "one"}}),
            std::vector<std::string>{"Rename [t1] to [one] successfully."});
  Call("delete_tag", {{"table", "db.t"}, {"tag", "one,t2"}});
  EXPECT_EQ(System("db.t$tags").num_rows(), 0);
  EXPECT_EQ(Call("expire_tags", {{"table", "db.t"}}), std::vector<std::string>{"No expired tags."});

  EXPECT_TRUE(HasError(CallProcedure(catalog(), "nope", {}), StatusCode::kInvalidArgument,
                       {"nope", "create_tag"}));
  EXPECT_TRUE(HasError(CallProcedure(catalog(), "create_tag", {{"table", "db.t"}, {"tga", "x"}}),
                       StatusCode::kInvalidArgument, {"tga", "snapshot_id"}));
  EXPECT_TRUE(HasError(CallProcedure(catalog(), "create_tag", {{"table", "db.t"}}),
                       StatusCode::kInvalidArgument, {"tag", "required"}));
}

TEST_F(LifecycleApiTest, BranchProceduresMergeAndDiff) {
  Write("db.t", {{1, "a", "x"}});
  Call("create_tag", {{"table", "db.t"}, {"tag", "fork"}});
  EXPECT_EQ(Call("create_branch", {{"table", "db.t"}, {"branch", "dev"}, {"tag", "fork"}}),
            std::vector<std::string>{"Created branch 'dev' of db.t from tag 'fork'"});
  Write("db.t$branch_dev", {{2, "b", "dev"}});
  Write("db.t", {{3, "c", "main"}});
  ColumnBatch branches = System("db.t$branches");
  ASSERT_EQ(branches.num_rows(), 1);
  EXPECT_EQ(branches.GetRow(0).list()[0], Value::String("dev"));
  EXPECT_EQ(System("db.t$branch_dev$snapshots").num_rows(), 2);

  auto diff = DiffTable(Get("db.t"), "fork", "dev");
  ASSERT_OK(diff);
  EXPECT_EQ(diff->files_added.size(), 1u);
  EXPECT_TRUE(diff->files_removed.empty());
  ASSERT_EQ(diff->rows_added.size(), 1u);
  EXPECT_EQ(diff->rows_added[0].list()[0], Value::Int64(2));

  std::vector<std::string> merged = Call("merge_branch", {{"table", "db.t"}, {"branch", "dev"}});
  ASSERT_FALSE(merged.empty());
  EXPECT_NE(merged[0].find("Merged branch 'dev' into 'main' of db.t as snapshot 3"),
            std::string::npos)
      << merged[0];
  auto after = DiffTable(Get("db.t"), "2", "3");
  ASSERT_OK(after);
  ASSERT_EQ(after->rows_added.size(), 1u);
  EXPECT_EQ(after->rows_added[0].list()[2], Value::String("dev"));
  auto same = DiffTable(Get("db.t"), "branch:main", "3");
  ASSERT_OK(same);
  EXPECT_TRUE(same->rows_added.empty() && same->rows_removed.empty() && same->rows_changed.empty());

  Call("rename_branch", {{"table", "db.t"}, {"from_branch", "dev"}, {"to_branch", "feature"}});
  Call("delete_branch", {{"table", "db.t"}, {"branch", "feature"}});
  EXPECT_EQ(System("db.t$branches").num_rows(), 0);
  EXPECT_TRUE(HasError(DiffTable(Get("db.t"), "ghost", "1"), StatusCode::kNotFound, {"ghost"}));
}

// A drop cut short by a crash leaves its folder under a hidden name in the warehouse (see
// filesystem_catalog.h); remove_orphan_files finds it (dry run) and deletes it.
TEST_F(LifecycleApiTest, RemoveOrphanFilesDeletesFoldersOfDropsCutShort) {
  const std::string dropped = dir_.path() + "/.sluice-dropped.db.gone.0000";
  std::filesystem::create_directories(dropped + "/schema");
  std::ofstream(dropped + "/schema/schema-0") << "{}";
  std::vector<std::string> lines =
      Call("remove_orphan_files", {{"table", "db.t"}, {"dry_run", "true"}});
  EXPECT_EQ(lines, (std::vector<std::string>{"Found 0 orphan files (0 bytes)", dropped,
                                             "Found 1 folders of dropped tables and databases"}));
  EXPECT_TRUE(std::filesystem::exists(dropped));
  lines = Call("remove_orphan_files", {{"table", "db.t"}});
  EXPECT_EQ(lines.back(), "Removed 1 folders of dropped tables and databases");
  EXPECT_FALSE(std::filesystem::exists(dropped));
  EXPECT_EQ(*catalog().ListDatabases(), std::vector<std::string>{"db"});
}

}  // namespace
}  // namespace sluice
