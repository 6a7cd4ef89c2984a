// Randomized model test of primary-key tables with deletion vectors: commits of random upserts
// and deletes, writers restarted every commit, compactions (universal, level 0 always pushed up,
// full compactions now and then) that mark superseded rows in deletion vectors. After every
// commit the batch read equals an in-memory model, every split is read without a merge (raw
// files under their deletion vectors; merges are counted and must stay 0), and at the end the
// table checker finds nothing wrong.
//
// Merge engines that fold a key's records (partial-update, aggregation) and `sequence.field`
// have a twin table as their model: the same options and writes without deletion vectors, read
// with a merge. Their compactions merge the looked-up value into the output (Java
// LookupMergeFunction); the lookup changelog producer runs beside them (changelog_scenario
// covers deletion vectors with the input and lookup producers and their changelog).
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <random>

#include "sluice/lsm/compaction_options.h"
#include "sluice/table/table_checker.h"
#include "table/compaction_test_util.h"
#include "test_util.h"

namespace sluice {
namespace {

struct DvCase {
  std::string name;
  TableOptions options;
  bool background;
  bool ignore_delete = false;  // deletes never reach the table
  bool twin = false;           // the model is a twin table without deletion vectors
};

void PrintTo(const DvCase& c, std::ostream* os) { *os << c.name; }

class DeletionVectorModelTest : public ::testing::TestWithParam<DvCase> {};

// Every row of the latest snapshot, sorted; `*merged_splits` counts splits read with a merge and
// `*deletion_files` the deletion vectors attached to splits.
std::vector<std::string> ReadCounting(const std::string& path, int* merged_splits,
                                      int* deletion_files) {
  std::vector<std::string> out;
  auto table = FileStoreTable::Open(LocalFileIO(), path);
  EXPECT_OK(table);
  if (!table.ok()) return out;
  auto plan = PlanScan(**table, ScanOptions{});
  EXPECT_OK(plan);
  if (!plan.ok()) return out;
  for (DataSplit& split : plan->splits) {
    if (!split.raw_convertible) ++*merged_splits;
    for (const auto& dv : split.deletion_files) *deletion_files += dv ? 1 : 0;
    if (!test::AppendSplitRows(**table, split, &out)) return out;
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST_P(DeletionVectorModelTest, EveryCommitReadsAsTheModelWithoutMerging) {
  const DvCase& c = GetParam();
  test::TempDir dir;
  const std::string path = dir.path() + "/db.db/t";
  const std::string twin_path = dir.path() + "/db.db/twin";
  TableOptions options = {{"bucket", "2"},
                          {"num-sorted-run.compaction-trigger", "3"},
                          {"num-sorted-run.stop-trigger", "5"}};
  options.insert(options.end(), c.options.begin(), c.options.end());
  const std::vector<DataField> fields = {
      DataField{0, "k", DataType::BigInt(false), std::nullopt, std::nullopt},
      DataField{1, "a", DataType::String(), std::nullopt, std::nullopt},
      DataField{2, "b", DataType::BigInt(), std::nullopt, std::nullopt}};
  if (c.twin) test::CreateTestTable(twin_path, fields, {}, {"k"}, options);
  options.push_back({"deletion-vectors.enabled", "true"});
  auto table = test::CreateTestTable(path, fields, {}, {"k"}, options);
  const DataTypePtr row_type = table->schema().LogicalRowType();
  constexpr int kCommits = 20;
  constexpr int64_t kKeys = 120;
  std::mt19937_64 rng(c.name.size() * 104729 + 3);
  std::map<int64_t, ValueList> model;
  int merged_splits = 0;
  int deletion_files = 0;
  for (int64_t commit = 1; commit <= kCommits; ++commit) {
    auto write = test::OpenCompactingWrite(path, c.background);
    std::unique_ptr<FileStoreWrite> twin_write;
    if (c.twin) twin_write = test::OpenCompactingWrite(twin_path);
    const int batches = 1 + static_cast<int>(rng() % 3);
    for (int batch = 0; batch < batches; ++batch) {
      std::vector<ValueList> rows;
      std::vector<RowKind> kinds;
      const int n = 1 + static_cast<int>(rng() % 50);
      for (int i = 0; i < n; ++i) {
        const int64_t key = static_cast<int64_t>(rng() % kKeys);
        const bool del = rng() % 4 == 0;
        ValueList row = {Value::Int64(key), Value::Null(), Value::Null()};
        if (!del) {
          // Twin cases leave fields null now and then (partial-update).
          if (!c.twin || rng() % 3 != 0) {
            row[1] =
                Value::String("c" + std::to_string(commit) + "-" + std::to_string(rng() % 100));
          }
          if (!c.twin || rng() % 3 != 0) row[2] = Value::Int64(static_cast<int64_t>(rng() % 1000));
          model[key] = row;
        } else if (!c.ignore_delete) {
          model.erase(key);
        }
        rows.push_back(row);
        kinds.push_back(del ? RowKind::kDelete : RowKind::kInsert);
      }
      ASSERT_OK(test::WriteRows(write.get(), row_type, rows, kinds));
      if (twin_write) ASSERT_OK(test::WriteRows(twin_write.get(), row_type, rows, kinds));
    }
    if (commit % 7 == 0) {
      for (int32_t bucket = 0; bucket < 2; ++bucket) {
        ASSERT_OK(write->Compact(EmptySerializedRow(), bucket, /*full_compaction=*/true));
      }
    }
    ASSERT_OK(test::Commit(path, write.get(), commit)) << "commit " << commit;
    ASSERT_OK(write->Close());
    if (twin_write) {
      ASSERT_OK(test::Commit(twin_path, twin_write.get(), commit));
      ASSERT_OK(twin_write->Close());
    }
    const std::vector<std::string> read = ReadCounting(path, &merged_splits, &deletion_files);
    const std::vector<std::string> expected =
        c.twin ? test::ReadAll(twin_path) : test::RenderModel(model);
    if (read != expected) {
      std::vector<std::string> missing, extra;
      std::set_difference(expected.begin(), expected.end(), read.begin(), read.end(),
                          std::back_inserter(missing));
      std::set_difference(read.begin(), read.end(), expected.begin(), expected.end(),
                          std::back_inserter(extra));
      std::string diff;
      for (const std::string& r : missing) diff += "\n  expected, not read: " + r;
      for (const std::string& r : extra) diff += "\n  read, not expected: " + r;
      FAIL() << "after commit " << commit << diff;
    }
    ASSERT_EQ(merged_splits, 0) << "after commit " << commit;
  }
  // Deletion vectors did the work: splits carried them.
  EXPECT_GT(deletion_files, 0);
  auto report = RunTableCheck(*FileStoreTable::Open(LocalFileIO(), path).value());
  ASSERT_OK(report);
  EXPECT_TRUE(report->ok()) << report->problems.front();
}

INSTANTIATE_TEST_SUITE_P(
    Options, DeletionVectorModelTest,
    ::testing::Values(DvCase{"bitmap32", {}, false},
                      DvCase{"bitmap64_background", {{"deletion-vectors.bitmap64", "true"}}, true},
                      DvCase{"ignore_delete", {{"ignore-delete", "true"}}, false, true},
                      DvCase{"sequence_field", {{"sequence.field", "b"}}, false, false, true},
                      DvCase{"partial_update",
                             {{"merge-engine", "partial-update"},
                              {"partial-update.remove-record-on-delete", "true"}},
                             false,
                             false,
                             true},
                      DvCase{"aggregation_background",
                             {{"merge-engine", "aggregation"},
                              {"fields.b.aggregate-function", "sum"},
                              {"fields.a.ignore-retract", "true"}},
                             true,
                             false,
                             true},
                      DvCase{"lookup_changelog_partial_update",
                             {{"merge-engine", "partial-update"},
                              {"partial-update.remove-record-on-delete", "true"},
                              {"changelog-producer", "lookup"}},
                             false,
                             false,
                             true},
                      DvCase{"lookup_changelog_ignore_delete",
                             {{"changelog-producer", "lookup"}, {"ignore-delete", "true"}},
                             false,
                             true}),
    [](const ::testing::TestParamInfo<DvCase>& info) { return info.param.name; });

}  // namespace
}  // namespace sluice
