// Scan planning against the corpus: snapshot selection, ADD/DELETE folding, level visibility,
// deletion files, partition / bucket / statistics pruning, schema-evolved statistics, the
// fallback branch, and every read of cases.jsonl.
#include "sluice/table/source/scan_planner.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "sluice/predicate/predicate_parser.h"
#include "sluice/table/file_store_table.h"
#include "test_util.h"

namespace sluice {
namespace {

std::string TablePath(const std::string& relative) {
  return test::CompatTablesDir() + "/" + relative;
}

std::shared_ptr<FileStoreTable> OpenOrDie(const std::string& path,
                                          std::string_view branch = kMainBranch) {
  auto table = FileStoreTable::Open(LocalFileIO(), path, branch);
  EXPECT_OK(table);
  return table.ok() ? *table : nullptr;
}

ScanPlan PlanOrDie(const FileStoreTable& table, const ScanOptions& options) {
  auto plan = PlanScan(table, options);
  EXPECT_OK(plan);
  return plan.ok() ? std::move(*plan) : ScanPlan{};
}

ScanOptions AtSnapshot(int64_t id, ScanMode mode = ScanMode::kBatch) {
  ScanOptions options;
  options.version = TableVersion::SnapshotId(id);
  options.mode = mode;
  return options;
}

int64_t TotalRows(const ScanPlan& plan) {
  int64_t rows = 0;
  for (const auto& split : plan.splits) rows += split.RowCount();
  return rows;
}

std::set<std::string> FileNames(const ScanPlan& plan) {
  std::set<std::string> names;
  for (const auto& split : plan.splits) {
    for (const auto& file : split.data_files) names.insert(file.file_name);
  }
  return names;
}

// "f1=10/bucket-0" per split.
std::vector<std::string> SplitKeys(const ScanPlan& plan) {
  std::vector<std::string> keys;
  for (const auto& split : plan.splits) {
    std::string key;
    for (const auto& v : split.partition_values) {
      key += (v.is_null() ? std::string("null") : std::to_string(v.AsInt64())) + "/";
    }
    keys.push_back(key + "bucket-" + std::to_string(split.bucket));
  }
  return keys;
}

const std::string kPkDv = "orc/pk_table_scan_and_read_dv.db/pk_table_scan_and_read_dv";
const std::string kAppend09 = "parquet/append_09.db/append_09";
const std::string kAlter = "orc/append_table_with_alter_table.db/append_table_with_alter_table";

TEST(ScanPlannerTest, PrimaryKeyDeletionVectorsHideLevelZeroInBatch) {
  auto table = OpenOrDie(TablePath(kPkDv));
  ASSERT_NE(table, nullptr);
  // Snapshot 1 holds only level-0 files: a batch read sees nothing.
  ScanPlan batch1 = PlanOrDie(*table, AtSnapshot(1));
  EXPECT_EQ(batch1.snapshot_id, 1);
  EXPECT_TRUE(batch1.splits.empty());
  // The first plan of a streaming read merges them: 9 rows in f1=10 b0, f1=10 b1, f1=20 b0
  // (bucket key f2: f2 = 1 hashes to bucket 0, f2 = 0 to bucket 1).
  ScanPlan full1 = PlanOrDie(*table, AtSnapshot(1, ScanMode::kStreamFull));
  EXPECT_EQ(SplitKeys(full1),
            (std::vector<std::string>{"10/bucket-0", "10/bucket-1", "20/bucket-0"}));
  EXPECT_EQ(TotalRows(full1), 9);
  for (const auto& split : full1.splits) {
    EXPECT_EQ(split.total_buckets, 2);
    // One level-0 file without deletes per bucket: readable raw (Java MergeTreeSplitGenerator).
    ASSERT_EQ(split.data_files.size(), 1u);
    EXPECT_TRUE(split.raw_convertible);
    ASSERT_EQ(split.data_files.size(), split.data_file_paths.size());
    for (size_t i = 0; i < split.data_files.size(); ++i) {
      EXPECT_EQ(split.data_files[i].level, 0);
      EXPECT_TRUE(std::filesystem::exists(split.data_file_paths[i])) << split.data_file_paths[i];
    }
  }
  // After the compaction of snapshot 2 the same rows are in level > 0 files.
  ScanPlan batch2 = PlanOrDie(*table, AtSnapshot(2));
  EXPECT_EQ(SplitKeys(batch2), SplitKeys(full1));
  EXPECT_EQ(TotalRows(batch2), 9);
  for (const auto& split : batch2.splits) {
    EXPECT_TRUE(split.raw_convertible);
    for (const auto& file : split.data_files) EXPECT_GT(file.level, 0);
    for (const auto& dv : split.deletion_files) EXPECT_FALSE(dv.has_value());
  }
}

TEST(ScanPlannerTest, DeletionFilesAttachAfterCompaction) {
  auto table = OpenOrDie(TablePath(kPkDv));
  ASSERT_NE(table, nullptr);
  // Snapshot 3 deleted Tony (f1=10, bucket 0) and updated Alice (f1=10, bucket 1); the
  // compaction of snapshot 4 marks the old rows in deletion vectors.
  ScanPlan plan = PlanOrDie(*table, AtSnapshot(4));
  int64_t deleted = 0;
  int with_dv = 0;
  for (const auto& split : plan.splits) {
    ASSERT_EQ(split.deletion_files.size(), split.data_files.size());
    for (const auto& dv : split.deletion_files) {
      if (!dv) continue;
      ++with_dv;
      EXPECT_TRUE(std::filesystem::exists(dv->path)) << dv->path;
      EXPECT_GT(dv->length, 0);
      ASSERT_TRUE(dv->cardinality.has_value());
      deleted += *dv->cardinality;
    }
  }
  EXPECT_GE(with_dv, 1);
  EXPECT_GE(deleted, 1);
  // 9 rows, Tony deleted, Alice updated (one new row): live rows = planned rows - deleted.
  EXPECT_EQ(TotalRows(plan) - deleted, 8);

  // Snapshots 5 and 6 only add level-0 files: batch reads still see snapshot 4's files.
  EXPECT_EQ(FileNames(PlanOrDie(*table, AtSnapshot(6))), FileNames(plan));
  ScanPlan full6 = PlanOrDie(*table, AtSnapshot(6, ScanMode::kStreamFull));
  EXPECT_GT(FileNames(full6).size(), FileNames(plan).size());
}

TEST(ScanPlannerTest, DeltaIsExactlyTheAppendSnapshotsFiles) {
  auto table = OpenOrDie(TablePath(kPkDv));
  ASSERT_NE(table, nullptr);
  ScanPlan delta5 = PlanOrDie(*table, AtSnapshot(5, ScanMode::kDelta));
  EXPECT_EQ(TotalRows(delta5), 3);
  for (const auto& split : delta5.splits) {
    EXPECT_TRUE(split.is_streaming);
    EXPECT_TRUE(split.deletion_files.empty());
    for (const auto& file : split.data_files) EXPECT_EQ(file.level, 0);
  }
  ScanPlan full4 = PlanOrDie(*table, AtSnapshot(4, ScanMode::kStreamFull));
  ScanPlan full5 = PlanOrDie(*table, AtSnapshot(5, ScanMode::kStreamFull));
  std::set<std::string> added;
  for (const auto& name : FileNames(full5)) {
    if (FileNames(full4).count(name) == 0) added.insert(name);
  }
  EXPECT_EQ(FileNames(delta5), added);
  // A COMPACT snapshot emits nothing to a streaming read.
  EXPECT_TRUE(PlanOrDie(*table, AtSnapshot(4, ScanMode::kDelta)).splits.empty());
}

TEST(ScanPlannerTest, CompactionRemovesReplacedFiles) {
  auto table = OpenOrDie(TablePath(kAppend09));
  ASSERT_NE(table, nullptr);
  ScanPlan before = PlanOrDie(*table, AtSnapshot(4));
  ScanPlan after = PlanOrDie(*table, ScanOptions{});
  EXPECT_EQ(after.snapshot_id, 5);
  // README: 11 rows at snapshot 4; the full compaction of snapshot 5 keeps them.
  EXPECT_EQ(TotalRows(before), 11);
  EXPECT_EQ(TotalRows(after), 11);
  EXPECT_LT(FileNames(after).size(), FileNames(before).size());
  std::set<std::string> common;
  for (const auto& name : FileNames(after)) {
    if (FileNames(before).count(name)) common.insert(name);
  }
  EXPECT_LT(common.size(), FileNames(before).size()) << "compacted files must be gone";
  // Bucket key f2: f2 = 1 (Alice, Lucy, Paul) is bucket 0, f2 = 0 bucket 1.
  EXPECT_EQ(SplitKeys(after),
            (std::vector<std::string>{"10/bucket-0", "10/bucket-1", "20/bucket-0"}));
  for (const auto& split : after.splits) EXPECT_TRUE(split.raw_convertible);
}

TEST(ScanPlannerTest, PartitionAndBucketFilters) {
  auto table = OpenOrDie(TablePath(kAppend09));
  ASSERT_NE(table, nullptr);
  ScanOptions options = AtSnapshot(4);
  options.partition_spec = {{"f1", "10"}};
  ScanPlan p10 = PlanOrDie(*table, options);
  EXPECT_EQ(SplitKeys(p10), (std::vector<std::string>{"10/bucket-0", "10/bucket-1"}));
  EXPECT_EQ(TotalRows(p10), 9);
  options.bucket = 1;
  ScanPlan p10b1 = PlanOrDie(*table, options);
  EXPECT_EQ(SplitKeys(p10b1), (std::vector<std::string>{"10/bucket-1"}));
  EXPECT_EQ(TotalRows(p10b1), 8);

  ScanOptions by_predicate = AtSnapshot(4);
  auto predicate = ParsePredicate("f1 = 20", *table->schema().LogicalPartitionType());
  ASSERT_OK(predicate);
  by_predicate.partition_filter = *predicate;
  ScanPlan p20 = PlanOrDie(*table, by_predicate);
  EXPECT_EQ(SplitKeys(p20), (std::vector<std::string>{"20/bucket-0"}));
  EXPECT_GT(p20.metrics.manifests_skipped, 0) << "manifests of f1=10 only must not be read";

  ScanOptions bad = AtSnapshot(4);
  bad.partition_spec = {{"f0", "x"}};
  EXPECT_TRUE(test::HasError(PlanScan(*table, bad), StatusCode::kInvalidArgument,
                             {"partition spec key 'f0' is not a partition key of table "}));
}

TEST(ScanPlannerTest, DefaultPartitionNameSelectsTheNullPartition) {
  for (const auto& [name, default_name] : std::vector<std::pair<std::string, std::string>>{
           {"append_with_empty_partition", "__DEFAULT_PARTITION__"},
           {"append_with_empty_partition_with_specific_name", "__HIVE_DEFAULT_PARTITION__"}}) {
    SCOPED_TRACE(name);
    auto table = OpenOrDie(TablePath("orc/" + name + ".db/" + name));
    ASSERT_NE(table, nullptr);
    EXPECT_EQ(PlanOrDie(*table, ScanOptions{}).splits.size(), 3u);
    ScanOptions options;
    options.partition_spec = {{"f0", default_name}};
    ScanPlan plan = PlanOrDie(*table, options);
    ASSERT_EQ(plan.splits.size(), 1u);
    EXPECT_TRUE(plan.splits[0].partition_values[0].is_null());
    EXPECT_EQ(plan.splits[0].bucket_path, table->path() + "/f0=" + default_name + "/bucket-0");
    ASSERT_EQ(plan.splits[0].data_file_paths.size(), 1u);
    EXPECT_TRUE(std::filesystem::exists(plan.splits[0].data_file_paths[0]));
    options.partition_spec = {{"f0", "2025"}};
    plan = PlanOrDie(*table, options);
    ASSERT_EQ(plan.splits.size(), 1u);
    EXPECT_EQ(plan.splits[0].partition_values[0].bytes(), "2025");
  }
}

TEST(ScanPlannerTest, StatisticsPruneFiles) {
  auto table = OpenOrDie(TablePath(kAppend09));
  ASSERT_NE(table, nullptr);
  auto plan_with = [&](const std::string& filter) {
    ScanOptions options = AtSnapshot(4);
    auto predicate = ParsePredicate(filter, *table->schema().LogicalRowType());
    EXPECT_OK(predicate);
    options.filter = *predicate;
    return PlanOrDie(*table, options);
  };
  ScanPlan all = PlanOrDie(*table, AtSnapshot(4));
  // f3 is at most 17.1 everywhere.
  ScanPlan none = plan_with("f3 > 100");
  EXPECT_TRUE(none.splits.empty());
  EXPECT_EQ(none.metrics.files_skipped_by_stats, static_cast<int64_t>(FileNames(all).size()));
  // A bound inside the range keeps the files that may hold it and drops the others.
  ScanPlan some = plan_with("f3 > 16.5");
  EXPECT_FALSE(some.splits.empty());
  EXPECT_LT(FileNames(some).size(), FileNames(all).size());
  EXPECT_GE(TotalRows(some), 2);  // David and Lily, 17.1
  // The partition part of a data filter prunes partitions.
  EXPECT_EQ(SplitKeys(plan_with("f1 = 20")), (std::vector<std::string>{"20/bucket-0"}));
  // Null counts: Paul's f3 is the only null.
  ScanPlan nulls = plan_with("f3 IS NULL");
  EXPECT_EQ(SplitKeys(nulls), (std::vector<std::string>{"20/bucket-0"}));
}

TEST(ScanPlannerTest, MergeOnReadPrunesByKeysAndWholeBuckets) {
  auto table = OpenOrDie(TablePath("orc/pk_table_scan_and_read_mor.db/pk_table_scan_and_read_mor"));
  ASSERT_NE(table, nullptr);
  auto plan_with = [&](const std::string& filter) {
    ScanOptions options;
    auto predicate = ParsePredicate(filter, *table->schema().LogicalRowType());
    EXPECT_OK(predicate);
    options.filter = *predicate;
    return PlanOrDie(*table, options);
  };
  ScanPlan all = PlanOrDie(*table, ScanOptions{});
  EXPECT_EQ(all.snapshot_id, 5);
  // Without deletion vectors every level is merged: level-0 files of snapshots 4 and 5 count.
  bool has_level0 = false;
  for (const auto& split : all.splits) {
    for (const auto& file : split.data_files) has_level0 = has_level0 || file.level == 0;
    EXPECT_TRUE(split.deletion_files.empty());
  }
  EXPECT_TRUE(has_level0);
  for (const auto& split : all.splits)
    for (const auto& f : split.data_files)
      std::cout << "DBG " << split.bucket << " L" << f.level << " rows " << f.row_count << " del "
                << f.delete_row_count.value_or(-1) << "\n";
  // Key statistics: f1=10 / bucket 0 (compacted: Alice .. "Two roads ...") may hold 'Tony';
  // of bucket 1's four level-0 files only the first write (Alex .. Tony) and the DELETE of
  // Tony can; the later writes (Alex .. Skye, Alex .. Skye2) and f1=20 are pruned.
  ScanPlan keys = plan_with("f0 = 'Tony'");
  ASSERT_EQ(SplitKeys(keys), (std::vector<std::string>{"10/bucket-0", "10/bucket-1"}));
  ASSERT_EQ(keys.splits[1].data_files.size(), 2u);
  EXPECT_EQ(keys.splits[1].data_files[0].row_count, 5);
  EXPECT_EQ(keys.splits[1].data_files[1].delete_row_count, 1);
  EXPECT_EQ(keys.metrics.files_skipped_by_stats, 3);
  // A value filter keeps a whole bucket when any of its files may match (the merge needs every
  // version of a key): only f1=10 / bucket 1 has f3 > 30, and it keeps all its files.
  ScanPlan values = plan_with("f3 > 30");
  ASSERT_EQ(SplitKeys(values), (std::vector<std::string>{"10/bucket-1"}));
  for (const auto& split : all.splits) {
    if (split.partition_values[0].AsInt64() == 10 && split.bucket == 1) {
      EXPECT_EQ(values.splits[0].data_files.size(), split.data_files.size());
      EXPECT_GT(split.data_files.size(), 1u);
      EXPECT_FALSE(split.raw_convertible);
    }
  }
}

TEST(ScanPlannerTest, PartialUpdateAndDeltaKeepOverlappingFiles) {
  const std::string path = TablePath("orc/pk_table_partial_update.db/pk_table_partial_update");
  auto plan_with = [&](const DynamicOptions& dynamic, ScanMode mode) {
    auto table = FileStoreTable::Open(LocalFileIO(), path, kMainBranch, dynamic);
    EXPECT_OK(table);
    ScanOptions options = AtSnapshot(2, mode);
    auto predicate = ParsePredicate("v0 > 1000", *(*table)->schema().LogicalRowType());
    EXPECT_OK(predicate);
    options.filter = *predicate;
    return PlanOrDie(**table, options);
  };
  auto table = OpenOrDie(path);
  ASSERT_NE(table, nullptr);
  ScanPlan all = PlanOrDie(*table, AtSnapshot(2));
  ASSERT_EQ(all.splits.size(), 1u);
  ASSERT_GT(all.splits[0].data_files.size(), 1u);
  EXPECT_EQ(all.splits[0].data_files[0].level, 0);
  // No file has v0 > 1000, but a partial-update merge mixes fields of several versions: keep.
  EXPECT_EQ(FileNames(plan_with({}, ScanMode::kBatch)), FileNames(all));
  // A deduplicating merge of the same files can drop the bucket.
  EXPECT_TRUE(plan_with({{"merge-engine", "deduplicate"}}, ScanMode::kBatch).splits.empty());
  // A streaming delta is not pruned by value statistics.
  ScanPlan delta = plan_with({{"merge-engine", "deduplicate"}}, ScanMode::kDelta);
  EXPECT_EQ(FileNames(delta), FileNames(PlanOrDie(*table, AtSnapshot(2, ScanMode::kDelta))));
  EXPECT_FALSE(delta.splits.empty());
}

TEST(ScanPlannerTest, DenseStatisticsUseTheirColumns) {
  auto table =
      OpenOrDie(TablePath("orc/append_10_stats_dense_store.db/append_10_stats_dense_store"));
  ASSERT_NE(table, nullptr);
  ScanPlan all = PlanOrDie(*table, ScanOptions{});
  EXPECT_EQ(TotalRows(all), 5);
  for (const auto& split : all.splits) {
    for (const auto& file : split.data_files) {
      // fields.f3.stats-mode = none: the dense stats leave f3 out.
      ASSERT_TRUE(file.value_stats_cols.has_value());
      EXPECT_EQ(*file.value_stats_cols, (std::vector<std::string>{"f0", "f1", "f2"}));
    }
  }
  auto rows_with = [&](const std::string& filter) {
    ScanOptions options;
    auto predicate = ParsePredicate(filter, *table->schema().LogicalRowType());
    EXPECT_OK(predicate);
    options.filter = *predicate;
    return TotalRows(PlanOrDie(*table, options));
  };
  EXPECT_EQ(rows_with("f3 > 100"), 5);  // no statistics: nothing pruned
  EXPECT_EQ(rows_with("f2 > 5"), 0);
  EXPECT_EQ(rows_with("f0 = 'Tony'"), 3);  // the file of Bob, Emily, Tony
}

TEST(ScanPlannerTest, EvolvedStatisticsMatchFieldsById) {
  auto table = OpenOrDie(TablePath(kAlter));
  ASSERT_NE(table, nullptr);
  auto rows_with = [&](const std::string& filter) {
    ScanOptions options;
    auto predicate = ParsePredicate(filter, *table->schema().LogicalRowType());
    EXPECT_OK(predicate);
    options.filter = *predicate;
    return TotalRows(PlanOrDie(*table, options));
  };
  EXPECT_EQ(TotalRows(PlanOrDie(*table, ScanOptions{})), 10);
  // d (id 7) was added by schema 1: the 5 rows of schema 0 files are all null.
  EXPECT_EQ(rows_with("d IS NOT NULL"), 5);
  EXPECT_EQ(rows_with("d IS NULL"), 5);
  // c is id 3, renamed from b (13..53 then 63..103).
  EXPECT_EQ(rows_with("c > 60"), 5);
  // a is id 5, the old d (15..55 then 65..105); the old `a` (id 2, 12..52) must not be used.
  // Only the schema-0 file of partition (0, 1), holding 15, 25, 35, can match.
  EXPECT_EQ(rows_with("a < 20"), 3);
}

TEST(ScanPlannerTest, FallbackBranchFillsMissingPartitions) {
  for (const char* format : {"orc", "parquet"}) {
    SCOPED_TRACE(format);
    auto table = OpenOrDie(TablePath(
        std::string(format) + "/append_table_with_rt_branch.db/append_table_with_rt_branch"));
    ASSERT_NE(table, nullptr);
    // Main (append) has dt=20240725; rt (primary key, 2 buckets) adds dt=20240726 only.
    ScanPlan plan = PlanOrDie(*table, ScanOptions{});
    ASSERT_GE(plan.splits.size(), 2u);
    int64_t main_rows = 0, fallback_rows = 0;
    for (const auto& split : plan.splits) {
      const std::string& dt = split.partition_values[0].bytes();
      EXPECT_EQ(dt, split.from_fallback_branch ? "20240726" : "20240725");
      (split.from_fallback_branch ? fallback_rows : main_rows) += split.RowCount();
    }
    EXPECT_EQ(main_rows, 2);
    EXPECT_EQ(fallback_rows, 2);
    EXPECT_FALSE(plan.splits.front().from_fallback_branch);

    // A bucket filter does not make the fallback fill dt=20240725, which main has.
    ScanOptions bucket1;
    bucket1.bucket = 1;
    ScanPlan in_bucket1 = PlanOrDie(*table, bucket1);
    EXPECT_EQ(in_bucket1.splits.size(), 1u);
    for (const auto& split : in_bucket1.splits) {
      EXPECT_EQ(split.bucket, 1);
      EXPECT_TRUE(split.from_fallback_branch);
      EXPECT_EQ(split.partition_values[0].bytes(), "20240726");
    }
    // A main snapshot id maps to the fallback's snapshot by commit time.
    EXPECT_EQ(FileNames(PlanOrDie(*table, AtSnapshot(1))), FileNames(plan));

    auto rt = table->OnBranch("rt");
    ASSERT_OK(rt);
    ScanPlan rt_plan = PlanOrDie(**rt, ScanOptions{});
    EXPECT_EQ(TotalRows(rt_plan), 4);
    for (const auto& split : rt_plan.splits) EXPECT_FALSE(split.from_fallback_branch);
  }
}

// A copy of a corpus table in a temp dir, for tags and damaged metadata.
class TableCopy {
 public:
  explicit TableCopy(const std::string& relative) {
    path_ = dir_.path() + "/t";
    std::filesystem::copy(TablePath(relative), path_, std::filesystem::copy_options::recursive);
  }
  const std::string& path() const { return path_; }

 private:
  test::TempDir dir_;
  std::string path_;
};

TEST(ScanPlannerTest, TagTimeAndErrors) {
  TableCopy copy(kAppend09);
  // A tag carries its snapshot's JSON.
  std::filesystem::create_directories(copy.path() + "/tag");
  std::filesystem::copy_file(copy.path() + "/snapshot/snapshot-2", copy.path() + "/tag/tag-t2");
  auto table = OpenOrDie(copy.path());
  ASSERT_NE(table, nullptr);
  ScanOptions by_tag;
  by_tag.version = TableVersion::Tag("t2");
  ScanPlan tagged = PlanOrDie(*table, by_tag);
  EXPECT_EQ(tagged.snapshot_id, 2);
  EXPECT_EQ(FileNames(tagged), FileNames(PlanOrDie(*table, AtSnapshot(2))));

  auto snapshot3 = table->snapshot_manager().LoadSnapshot(3);
  ASSERT_OK(snapshot3);
  ScanOptions as_of;
  as_of.version = TableVersion::AsOfMillis(snapshot3->time_millis);
  EXPECT_EQ(PlanOrDie(*table, as_of).snapshot_id, 3);
  as_of.version = TableVersion::AsOfMillis(snapshot3->time_millis - 1);
  EXPECT_EQ(PlanOrDie(*table, as_of).snapshot_id, 2);
  auto text = TableVersion::AsOf("1970-01-02 00:00:00");
  ASSERT_OK(text);
  EXPECT_EQ(text->time_millis, 86400000);
  as_of.version = *text;
  EXPECT_TRUE(test::HasError(PlanScan(*table, as_of), StatusCode::kInvalidArgument,
                             {"no snapshot earlier than or equal to timestamp 86400000"}));
  EXPECT_EQ(TableVersion::AsOf("123")->time_millis, 123);
  EXPECT_TRUE(test::HasError(TableVersion::AsOf("yesterday"), StatusCode::kInvalidArgument,
                             {"time-travel timestamp 'yesterday'"}));

  auto from_options = [](const DynamicOptions& dynamic) {
    auto options = CoreOptions::Make({}, dynamic);
    EXPECT_OK(options);
    return TableVersion::FromOptions(*options);
  };
  EXPECT_EQ(from_options({})->kind, TableVersion::Kind::kLatest);
  EXPECT_EQ(from_options({{"scan.snapshot-id", "3"}})->snapshot_id, 3);
  EXPECT_EQ(from_options({{"scan.tag-name", "t2"}})->tag, "t2");
  EXPECT_EQ(from_options({{"scan.timestamp-millis", "77"}})->time_millis, 77);
  EXPECT_EQ(from_options({{"scan.timestamp", "1970-01-01 00:00:01"}})->time_millis, 1000);
  EXPECT_TRUE(test::HasError(from_options({{"scan.snapshot-id", "3"}, {"scan.tag-name", "t2"}}),
                             StatusCode::kInvalidArgument,
                             {"only one of the time-travel options may be set", "scan.tag-name"}));
  // CoreOptions types the value once, so a bad one never reaches FromOptions.
  EXPECT_TRUE(test::HasError(CoreOptions::Make({}, {{"scan.snapshot-id", "x3"}}),
                             StatusCode::kInvalidArgument, {"scan.snapshot-id", "x3"}));

  EXPECT_TRUE(test::HasError(PlanScan(*table, AtSnapshot(99)), StatusCode::kNotFound,
                             {"snapshot 99 does not exist in table " + copy.path()}));
  ScanOptions missing_tag;
  missing_tag.version = TableVersion::Tag("nope");
  EXPECT_TRUE(test::HasError(PlanScan(*table, missing_tag), StatusCode::kNotFound,
                             {"tag 'nope' does not exist in table " + copy.path()}));
  EXPECT_TRUE(test::HasError(table->OnBranch("nope"), StatusCode::kNotFound,
                             {"branch 'nope' does not exist in table " + copy.path()}));
  EXPECT_TRUE(test::HasError(FileStoreTable::Open(LocalFileIO(), copy.path(), kMainBranch,
                                                  {{"deletion-vectors.enabled", "maybe"}}),
                             StatusCode::kInvalidArgument, {"deletion-vectors.enabled", "maybe"}));
  EXPECT_TRUE(test::HasError(FileStoreTable::Open(LocalFileIO(), copy.path() + "/manifest"),
                             StatusCode::kNotFound, {"no table at " + copy.path() + "/manifest"}));
}

TEST(ScanPlannerTest, MissingSchemaOfADataFileIsNamed) {
  TableCopy copy(kAlter);
  std::filesystem::remove(copy.path() + "/schema/schema-0");
  auto table = OpenOrDie(copy.path());
  ASSERT_NE(table, nullptr);
  EXPECT_TRUE(test::HasError(PlanScan(*table, ScanOptions{}), StatusCode::kNotFound,
                             {"schema 0", "data file"}));
}

TEST(ScanPlannerTest, GarbledManifestIsAnError) {
  TableCopy copy(kAppend09);
  for (const auto& entry : std::filesystem::directory_iterator(copy.path() + "/manifest")) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("manifest-", 0) == 0 && name.rfind("manifest-list-", 0) != 0) {
      std::ofstream(entry.path(), std::ios::trunc) << "garbage";
    }
  }
  auto table = OpenOrDie(copy.path());
  ASSERT_NE(table, nullptr);
  EXPECT_TRUE(test::HasError(PlanScan(*table, AtSnapshot(4)), StatusCode::kCorruption,
                             {copy.path() + "/manifest/manifest-"}));
}

TEST(ScanPlannerTest, MissingOrGarbledMetadataFilesAreNamed) {
  TableCopy copy(kPkDv);
  auto table = OpenOrDie(copy.path());
  ASSERT_NE(table, nullptr);
  auto snapshot = table->snapshot_manager().LoadSnapshot(4);
  ASSERT_OK(snapshot);
  ASSERT_TRUE(snapshot->index_manifest.has_value());
  // A garbled index manifest (deletion vectors) fails the batch plan, naming it.
  const std::string index_manifest = copy.path() + "/manifest/" + *snapshot->index_manifest;
  std::ofstream(index_manifest, std::ios::trunc) << "Obj\x01garbage";
  EXPECT_TRUE(test::HasError(PlanScan(*table, AtSnapshot(4)), StatusCode::kCorruption,
                             {*snapshot->index_manifest}));
  // A missing manifest list fails, naming it: the delta list of APPEND snapshot 5 for a delta
  // read, and for a full read of it.
  auto snapshot5 = table->snapshot_manager().LoadSnapshot(5);
  ASSERT_OK(snapshot5);
  ASSERT_EQ(snapshot5->commit_kind, CommitKind::kAppend);
  std::filesystem::remove(copy.path() + "/manifest/" + snapshot5->delta_manifest_list);
  for (ScanMode mode : {ScanMode::kDelta, ScanMode::kStreamFull}) {
    EXPECT_TRUE(test::HasError(PlanScan(*table, AtSnapshot(5, mode)), StatusCode::kNotFound,
                               {snapshot5->delta_manifest_list}));
  }
}

// Every snapshot of every corpus table plans in batch and stream_full mode, and every planned
// file that is not at an external path exists.
TEST(ScanPlannerTest, EverySnapshotOfEveryTablePlans) {
  int tables = 0, snapshots = 0, files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(test::CompatTablesDir())) {
    if (!entry.is_directory() || entry.path().filename() != "schema") continue;
    const std::string path = entry.path().parent_path().string();
    if (path.find("/branch/") != std::string::npos) continue;
    SCOPED_TRACE(path);
    auto table = OpenOrDie(path);
    ASSERT_NE(table, nullptr);
    ++tables;
    auto ids = table->snapshot_manager().ListSnapshotIds();
    ASSERT_OK(ids);
    for (int64_t id : *ids) {
      ++snapshots;
      for (ScanMode mode : {ScanMode::kBatch, ScanMode::kStreamFull}) {
        ScanPlan plan = PlanOrDie(*table, AtSnapshot(id, mode));
        EXPECT_EQ(plan.snapshot_id, id);
        for (const auto& split : plan.splits) {
          for (size_t i = 0; i < split.data_files.size(); ++i) {
            if (split.data_files[i].external_path) continue;
            ++files;
            EXPECT_TRUE(std::filesystem::exists(split.data_file_paths[i]))
                << split.data_file_paths[i];
          }
        }
      }
    }
  }
  EXPECT_GT(tables, 90);
  std::cout << "planned " << snapshots << " snapshots of " << tables << " tables, " << files
            << " planned files found on disk\n";
}

// Every read of cases.jsonl plans; for append tables the planned files hold at least the
// expected rows.
TEST(ScanPlannerTest, EveryCaseReadPlans) {
  std::ifstream in(test::CompatDir() + "/cases.jsonl");
  ASSERT_TRUE(in.good());
  std::string line;
  int cases = 0, row_checked = 0, exact_checked = 0, dv_checked = 0, first_row_checked = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    auto json = nlohmann::json::parse(line);
    const std::string id = json["id"];
    SCOPED_TRACE(id);
    const auto& read = json["read"];
    std::map<std::string, std::string> dynamic;
    if (read.contains("options")) {
      for (auto& [k, v] : read["options"].items()) dynamic[k] = v.get<std::string>();
    }
    std::string branch = read.value("branch", std::string(kMainBranch));
    auto table = FileStoreTable::Open(LocalFileIO(), TablePath(json["table"]), branch, dynamic);
    ASSERT_OK(table);
    ScanOptions options;
    if (read.contains("snapshot") && !read["snapshot"].is_null()) {
      options.version = TableVersion::SnapshotId(read["snapshot"].get<int64_t>());
    }
    if (read.contains("mode")) {
      auto mode = ScanModeFromName(read["mode"].get<std::string>());
      ASSERT_OK(mode);
      options.mode = *mode;
    }
    if (read.contains("partition")) {
      for (auto& [k, v] : read["partition"].items()) {
        options.partition_spec.emplace_back(k, v.get<std::string>());
      }
    }
    if (read.contains("bucket")) options.bucket = read["bucket"].get<int32_t>();
    if (read.contains("path_remap")) {
      for (auto& [k, v] : read["path_remap"].items()) {
        options.path_remap.emplace_back(k, v.get<std::string>());
      }
    }
    if (read.contains("filter")) {
      auto predicate =
          ParsePredicate(read["filter"].get<std::string>(), *(*table)->schema().LogicalRowType());
      if (predicate.ok()) options.filter = *predicate;
    }
    auto plan = PlanScan(**table, options);
    ASSERT_OK(plan);
    ++cases;
    for (const auto& split : plan->splits) {
      for (const auto& path : split.data_file_paths) {
        EXPECT_TRUE(std::filesystem::exists(path)) << path;
      }
      for (const auto& dv : split.deletion_files) {
        if (dv) {
          EXPECT_TRUE(std::filesystem::exists(dv->path)) << dv->path;
        }
      }
    }
    const int64_t expected_rows = static_cast<int64_t>(json["rows"].size());
    const FileStoreTable& t = **table;
    const bool dv = t.options().deletion_vectors_enabled();
    const bool data_evolution = t.options().data_evolution_enabled();
    if (!t.schema().is_primary_key_table() && !dv) {
      ++row_checked;
      // Without a filter every planned row is read (data evolution spreads a row over files).
      if (read.contains("filter") || data_evolution) {
        EXPECT_GE(TotalRows(*plan), expected_rows);
      } else {
        ++exact_checked;
        EXPECT_EQ(TotalRows(*plan), expected_rows);
      }
    } else if (t.schema().is_primary_key_table() && !dv &&
               t.options().merge_engine() == MergeEngine::kFirstRow &&
               options.mode == ScanMode::kBatch && !read.contains("filter") &&
               !read.contains("options")) {
      // First-row batch reads see compacted files only, which hold each key once.
      ++first_row_checked;
      EXPECT_EQ(TotalRows(*plan), expected_rows);
    } else if (t.schema().is_primary_key_table() && dv && !read.contains("filter") &&
               options.mode == ScanMode::kBatch && !read.contains("options")) {
      // Level > 0 files hold each key once; deletion vectors remove the stale rows.
      int64_t live = TotalRows(*plan);
      bool cardinalities_known = true;
      for (const auto& split : plan->splits) {
        for (const auto& file : split.deletion_files) {
          if (!file) continue;
          if (!file->cardinality) cardinalities_known = false;
          live -= file->cardinality.value_or(0);
        }
      }
      if (cardinalities_known) {
        ++dv_checked;
        EXPECT_EQ(live, expected_rows);
      }
    }
  }
  EXPECT_EQ(cases, 212);
  EXPECT_GT(row_checked, 100);
  std::cout << "planned " << cases << " case reads; append row counts checked on " << row_checked
            << " (" << exact_checked << " exactly); deletion-vector live rows on " << dv_checked
            << "; first-row rows on " << first_row_checked << "\n";
}

}  // namespace
}  // namespace sluice
