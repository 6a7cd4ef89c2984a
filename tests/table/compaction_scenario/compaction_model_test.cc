// Randomized model test of primary-key writes with compaction: many commits of random upserts
// and deletes into a bucketed primary-key table, written through FileStoreWrite with compacting
// LSM writers (universal compaction picks, and a full compaction every few commits as
// `full-compaction.delta-commits` asks), committed with FileStoreCommit; after every commit the
// table read through PlanScan + OpenSplitReader must equal an in-memory model (std::map).
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

struct EngineCase {
  std::string name;
  TableOptions options;
  bool partial_update;
  bool background;
};

// Test names and failure messages show the engine, not the bytes of the case.
void PrintTo(const EngineCase& c, std::ostream* os) { *os << c.name; }

class CompactionModelTest : public ::testing::TestWithParam<EngineCase> {};

// The model of one row change: deduplicate replaces the row; partial-update overwrites the
// non-null fields of an existing row. A delete removes the row in both.
void ApplyToModel(std::map<int64_t, ValueList>* model, const ValueList& row, RowKind kind,
                  bool partial_update) {
  const int64_t key = row[0].int64();
  if (kind == RowKind::kDelete) {
    model->erase(key);
    return;
  }
  auto found = model->find(key);
  if (!partial_update || found == model->end()) {
    (*model)[key] = row;
    return;
  }
  for (size_t i = 1; i < row.size(); ++i) {
    if (!row[i].is_null()) found->second[i] = row[i];
  }
}

TEST_P(CompactionModelTest, EveryCommitReadsAsTheModel) {
  const EngineCase& c = GetParam();
  test::TempDir dir;
  const std::string path = dir.path() + "/db.db/t";
  TableOptions options = {{"bucket", "2"},
                          {"num-sorted-run.compaction-trigger", "3"},
                          {"num-sorted-run.stop-trigger", "5"}};
  options.insert(options.end(), c.options.begin(), c.options.end());
  auto table =
      test::CreateTestTable(path,
                            {DataField{0, "k", DataType::BigInt(false), std::nullopt, std::nullopt},
                             DataField{1, "a", DataType::String(), std::nullopt, std::nullopt},
                             DataField{2, "b", DataType::BigInt(), std::nullopt, std::nullopt}},
                            {}, {"k"}, options);
  const DataTypePtr row_type = table->schema().LogicalRowType();
  constexpr int kCommits = 40;
  constexpr int kFullCompactionDeltaCommits = 7;
  constexpr int64_t kKeys = 150;
  std::mt19937_64 rng(c.name.size() * 7919 + 17);
  std::map<int64_t, ValueList> model;
  int compacted_files_seen = 0;
  for (int64_t commit = 1; commit <= kCommits; ++commit) {
    auto write = test::OpenCompactingWrite(path, c.background);
    // A few batches per commit, so that one commit may flush and compact more than once.
    const int batches = 1 + static_cast<int>(rng() % 3);
    for (int batch = 0; batch < batches; ++batch) {
      std::vector<ValueList> rows;
      std::vector<RowKind> kinds;
      const int n = 1 + static_cast<int>(rng() % 60);
      for (int i = 0; i < n; ++i) {
        const int64_t key = static_cast<int64_t>(rng() % kKeys);
        const bool del = rng() % 4 == 0;
        ValueList row = {Value::Int64(key), Value::Null(), Value::Null()};
        if (!del) {
          // Partial updates only of live rows: a partial-update record that meets a delete in a
          // flush or compaction before it meets the older row turns the delete into an update
          // (Paimon semantics), so a row is written whole after it is deleted.
          const bool whole = !c.partial_update || model.count(key) == 0;
          if (whole || rng() % 3 != 0) {
            row[1] =
                Value::String("c" + std::to_string(commit) + "-" + std::to_string(rng() % 100));
          }
          if (whole || rng() % 3 != 0) row[2] = Value::Int64(static_cast<int64_t>(rng() % 1000));
        }
        rows.push_back(row);
        kinds.push_back(del ? RowKind::kDelete : RowKind::kInsert);
        ApplyToModel(&model, row, kinds.back(), c.partial_update);
      }
      Status st = test::WriteRows(write.get(), row_type, rows, kinds);
      ASSERT_OK(st);
    }
    if (IsFullCompactionCommit(commit, kFullCompactionDeltaCommits)) {
      for (int32_t bucket = 0; bucket < 2; ++bucket) {
        Status st = write->Compact(EmptySerializedRow(), bucket, /*full_compaction=*/true);
        ASSERT_OK(st);
      }
    }
    Status st = test::Commit(path, write.get(), commit);
    ASSERT_OK(st) << "commit " << commit;
    ASSERT_OK(write->Close());
    const std::vector<std::string> read = test::ReadAll(path);
    const std::vector<std::string> expected = test::RenderModel(model);
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
    for (const DataFileMeta& f : test::LiveFiles(path)) {
      compacted_files_seen += f.file_source == FileSource::kCompact ? 1 : 0;
    }
  }
  EXPECT_GT(compacted_files_seen, 0);
  Status st = CheckTable(*FileStoreTable::Open(LocalFileIO(), path).value());
  EXPECT_OK(st);
}

INSTANTIATE_TEST_SUITE_P(
    Engines, CompactionModelTest,
    ::testing::Values(EngineCase{"deduplicate", {}, false, false},
                      EngineCase{"partial_update",
                                 {{"merge-engine", "partial-update"},
                                  {"partial-update.remove-record-on-delete", "true"}},
                                 true,
                                 true}),
    [](const ::testing::TestParamInfo<EngineCase>& info) { return info.param.name; });

}  // namespace
}  // namespace sluice
