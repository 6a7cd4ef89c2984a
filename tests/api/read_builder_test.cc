// ReadBuilder's version choice: snapshot ids, as-of times (epoch millis, or wall-clock text in
// UTC or in the session time zone), the table's time-travel options, branches.
#include "sluice/read_builder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "api/api_test_util.h"
#include "sluice/api/api_access.h"
#include "sluice/value_json.h"
#include "test_util.h"

namespace sluice {
namespace {

// Snapshots 1-5 of append_09 were committed at 2025-08-21 06:37:42.687 ... 06:37:44.539 UTC.
const char kTable[] = "parquet/append_09.db/append_09";
constexpr int64_t kSnapshot2Millis = 1755758263453;

ReadBuilder NewRead(const std::string& table = kTable) {
  auto opened = Table::Open(test::CompatTablesDir() + "/" + table);
  EXPECT_OK(opened);
  return opened->NewReadBuilder();
}

std::optional<int64_t> PlannedSnapshot(const ReadBuilder& read) {
  auto plan = test::PlanOf(read);
  EXPECT_OK(plan);
  return plan.ok() ? plan->snapshot_id : std::nullopt;
}

TEST(ReadBuilderTest, SnapshotIdsAndLatest) {
  EXPECT_EQ(PlannedSnapshot(NewRead()), 5);
  EXPECT_EQ(PlannedSnapshot(NewRead().WithSnapshot(3)), 3);
}

TEST(ReadBuilderTest, AsOfEpochMillisAndWallClockText) {
  EXPECT_EQ(PlannedSnapshot(NewRead().WithAsOf(std::to_string(kSnapshot2Millis))), 2);
  EXPECT_EQ(PlannedSnapshot(NewRead().WithAsOf(std::to_string(kSnapshot2Millis - 1))), 1);
  // Wall-clock text is UTC by default, and local to the session time zone when one is set.
  EXPECT_EQ(PlannedSnapshot(NewRead().WithAsOf("2025-08-21 06:37:43.5")), 2);
  EXPECT_EQ(PlannedSnapshot(
                NewRead().WithAsOf("2025-08-21 14:37:43.5").WithSessionTimeZone("Asia/Shanghai")),
            2);
  EXPECT_EQ(PlannedSnapshot(NewRead().WithAsOf("2025-08-21 06:37:44")), 3);
  // Before the first snapshot: an error naming the time.
  EXPECT_TRUE(test::HasError(test::PlanOf(NewRead().WithAsOf("2025-08-21 06:00:00")),
                             StatusCode::kInvalidArgument, {"2025-08-21 06:00:00"}));
}

// Without a session time zone, as-of wall-clock text is read in the process's zone, as Java
// reads it in the JVM's default zone.
TEST(ReadBuilderTest, AsOfWallClockTextIsInTheProcesssZoneByDefault) {
  test::ScopedEnv tz("TZ", "Asia/Shanghai");
  EXPECT_EQ(PlannedSnapshot(NewRead().WithAsOf("2025-08-21 14:37:43.5")), 2);
  EXPECT_EQ(PlannedSnapshot(NewRead().WithAsOf("2025-08-21 06:37:43.5").WithSessionTimeZone("UTC")),
            2);
}

TEST(ReadBuilderTest, TimeTravelOptionsApplyWhenNoVersionIsGiven) {
  EXPECT_EQ(PlannedSnapshot(NewRead().WithOption("scan.snapshot-id", "2")), 2);
  EXPECT_EQ(PlannedSnapshot(NewRead().WithOption("scan.snapshot-id", "2").WithSnapshot(4)), 4);
}

std::vector<std::string> ColumnNames(const ReadBuilder& builder) {
  std::vector<std::string> names;
  auto read = builder.NewRead();
  EXPECT_OK(read);
  if (!read.ok()) return names;
  for (const DataField& f : read->output_type()->fields()) names.push_back(f.name);
  return names;
}

// Java time travel reads a snapshot through the schema it was written with
// (AbstractFileStoreTable.tryTimeTravel). append_table_with_alter_table: snapshot 1 is schema 0
// (key0 key1 a b c d k); schema 1 dropped, renamed, reordered and added columns.
TEST(ReadBuilderTest, TimeTravelReadsThroughTheSnapshotsSchema) {
  const std::string table =
      "parquet/append_table_with_alter_table.db/append_table_with_alter_table";
  const std::vector<std::string> schema0 = {"key0", "key1", "a", "b", "c", "d", "k"};
  const std::vector<std::string> schema1 = {"key0", "key1", "k", "c", "d", "a", "e"};
  EXPECT_EQ(ColumnNames(NewRead(table).WithSnapshot(1)), schema0);
  EXPECT_EQ(ColumnNames(NewRead(table).WithOption("scan.snapshot-id", "1")), schema0);
  EXPECT_EQ(ColumnNames(NewRead(table)), schema1);
  EXPECT_EQ(ColumnNames(NewRead(table).WithSnapshot(2)), schema1);
  // An explicit schema id still wins.
  EXPECT_EQ(ColumnNames(NewRead(table).WithSnapshot(1).WithSchemaId(1)), schema1);
  // The rows of snapshot 1 under their own names: a = 12 in the first row written.
  ASSERT_OK_AND_ASSIGN(std::vector<std::string> rows,
                       test::SortedJsonRows(NewRead(table).WithSnapshot(1)));
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0], R"({"key0": 0, "key1": 1, "a": 12, "b": 13, "c": 14, "d": 15, "k": 16})");
}

TEST(ReadBuilderTest, BranchesHaveTheirOwnSnapshots) {
  const std::string table = "parquet/append_table_with_rt_branch.db/append_table_with_rt_branch";
  auto main = test::PlanOf(NewRead(table));
  ASSERT_OK(main);
  auto branch = test::PlanOf(NewRead(table).WithBranch("rt"));
  ASSERT_OK(branch);
  for (const Split& split : branch->splits) {
    EXPECT_FALSE(ApiAccess::DataSplitOf(split).from_fallback_branch);
  }
  // The main branch falls back to `rt` for the partitions it lacks.
  bool fallback = false;
  for (const Split& split : main->splits) {
    fallback = fallback || ApiAccess::DataSplitOf(split).from_fallback_branch;
  }
  EXPECT_TRUE(fallback);
}

// Java FallbackReadFileStoreTable reads the fallback branch's splits with that branch's own
// read: its files name the branch's schema ids. append_table_with_append_pt_branch: main's
// schema 1 only set the fallback option, branch test's schema 1 added value2 (as main's
// schema 2 did), so the branch's value2 = 2200 must not read as null through main's schema 1.
TEST(ReadBuilderTest, FallbackBranchFilesReadThroughTheBranchsSchema) {
  for (const char* format : {"orc", "parquet"}) {
    SCOPED_TRACE(format);
    const std::string table = std::string(format) +
                              "/append_table_with_append_pt_branch.db/"
                              "append_table_with_append_pt_branch";
    const std::vector<std::string> expected = {
        R"({"pt": 1, "value": 110, "value2": null})", R"({"pt": 1, "value": 120, "value2": 1200})",
        R"({"pt": 2, "value": 210, "value2": null})", R"({"pt": 2, "value": 220, "value2": 2200})"};
    ASSERT_OK_AND_ASSIGN(std::vector<std::string> rows, test::SortedJsonRows(NewRead(table)));
    EXPECT_EQ(rows, expected);
    // A projection and a filter apply to both branches' files.
    const std::vector<std::string> projected = {R"({"value2": 1200})", R"({"value2": 2200})"};
    ASSERT_OK_AND_ASSIGN(
        rows,
        test::SortedJsonRows(NewRead(table).WithProjection({"value2"}).WithWhere("value2 > 0")));
    EXPECT_EQ(rows, projected);
  }
}

}  // namespace
}  // namespace sluice
