// Randomized model test of the changelog producers: commits of random upserts and deletes into a
// bucketed primary-key table, written through FileStoreWrite with compacting LSM writers that
// are restarted now and then, committed with FileStoreCommit. After every commit the changelog
// of each new snapshot is read as a streaming read reads it (PlanScan kDelta) and folded into a
// map of key -> row:
//
//   input             the changelog of a commit is exactly its input rows, in order per key;
//                     folding it (+I/+U put, -U/-D remove) gives the table.
//   lookup            folding gives the table after every commit (commits wait for the
//                     compaction of level 0, `lookup-wait`).
//   full-compaction   folding gives the table as of the last full compaction
//                     (`full-compaction.delta-commits`), and the table at each such commit.
//
// For lookup and full-compaction the fold is strict (a +I only for an absent key, -U / -D only
// with the key's current row) and each commit's changelog of a key is exactly the change of its
// value: nothing, +I new, -D old, or -U old +U new (never for an unchanged value under
// `changelog-producer.row-deduplicate`).
//
// With `deletion-vectors.enabled` (producers input and lookup, every merge engine Java allows
// with them) the same holds, and every split of the table is read without a merge (counted).
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

enum class Producer { kInput, kLookup, kFullCompaction };

struct ChangelogCase {
  std::string name;
  Producer producer;
  TableOptions options;
  bool deletes;       // the workload deletes rows
  bool partial_rows;  // rows leave some fields null (partial-update, aggregation)
  bool row_deduplicate;
};

void PrintTo(const ChangelogCase& c, std::ostream* os) { *os << c.name; }

class ChangelogModelTest : public ::testing::TestWithParam<ChangelogCase> {};

constexpr int32_t kBuckets = 2;
constexpr int kFullCompactionDeltaCommits = 3;

struct Change {
  std::string kind;  // +I, -U, +U, -D
  ValueList row;
};

// The changelog rows of snapshot `id` (a streaming read of it), per key in read order;
// *buckets gets each key's bucket.
std::map<int64_t, std::vector<Change>> ReadChangelog(const std::string& path, int64_t id,
                                                     std::map<int64_t, int32_t>* buckets) {
  std::map<int64_t, std::vector<Change>> out;
  auto table = FileStoreTable::Open(LocalFileIO(), path);
  EXPECT_OK(table);
  if (!table.ok()) return out;
  ScanOptions scan;
  scan.version = TableVersion::SnapshotId(id);
  scan.mode = ScanMode::kDelta;
  auto plan = PlanScan(**table, scan);
  EXPECT_OK(plan);
  if (!plan.ok()) return out;
  SplitReadOptions options;
  options.with_row_kind = true;
  for (DataSplit& split : plan->splits) {
    auto reader = OpenSplitReader(**table, (*table)->schema_ptr(), split, options);
    EXPECT_OK(reader);
    if (!reader.ok()) return out;
    ColumnBatch batch((*reader)->output_type());
    while (true) {
      auto more = (*reader)->Next(&batch);
      EXPECT_OK(more);
      if (!more.ok() || !*more) break;
      for (int64_t i = 0; i < batch.num_rows(); ++i) {
        ValueList row = batch.GetRow(i).list();
        Change change{row[0].bytes(), ValueList(row.begin() + 1, row.end())};
        (*buckets)[change.row[0].int64()] = split.bucket;
        out[change.row[0].int64()].push_back(std::move(change));
      }
    }
  }
  return out;
}

// The rows of `a` not in `b` and of `b` not in `a` (both sorted), for failure messages.
std::string Diff(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::string> only_a, only_b;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(only_a));
  std::set_difference(b.begin(), b.end(), a.begin(), a.end(), std::back_inserter(only_b));
  std::string out;
  for (const std::string& r : only_a) out += "\n  folded only: " + r;
  for (const std::string& r : only_b) out += "\n  table only:  " + r;
  return out;
}

std::vector<std::string> Render(const std::map<int64_t, ValueList>& rows) {
  return test::RenderModel(rows);
}

// The table's rows by key; *buckets gets each key's bucket, *merged_splits counts the splits
// read with a merge.
std::map<int64_t, ValueList> ReadTable(const std::string& path, std::map<int64_t, int32_t>* buckets,
                                       int* merged_splits) {
  std::map<int64_t, ValueList> out;
  auto table = FileStoreTable::Open(LocalFileIO(), path).value();
  auto plan = PlanScan(*table, ScanOptions{});
  EXPECT_OK(plan);
  for (DataSplit& split : plan->splits) {
    if (!split.raw_convertible) ++*merged_splits;
    auto reader = OpenSplitReader(*table, table->schema_ptr(), split, SplitReadOptions{});
    EXPECT_OK(reader);
    ColumnBatch batch((*reader)->output_type());
    while (true) {
      auto more = (*reader)->Next(&batch);
      EXPECT_OK(more);
      if (!more.ok() || !*more) break;
      for (int64_t i = 0; i < batch.num_rows(); ++i) {
        ValueList row = batch.GetRow(i).list();
        (*buckets)[row[0].int64()] = split.bucket;
        out[row[0].int64()] = row;
      }
    }
  }
  return out;
}

TEST_P(ChangelogModelTest, FoldedChangelogIsTheTable) {
  const ChangelogCase& c = GetParam();
  test::TempDir dir;
  const std::string path = dir.path() + "/db.db/t";
  TableOptions options = {{"bucket", std::to_string(kBuckets)},
                          {"num-sorted-run.compaction-trigger", "3"},
                          {"num-sorted-run.stop-trigger", "5"}};
  options.insert(options.end(), c.options.begin(), c.options.end());
  const bool deletion_vectors = std::find(options.begin(), options.end(),
                                          std::pair<std::string, std::string>{
                                              "deletion-vectors.enabled", "true"}) != options.end();
  if (c.producer == Producer::kFullCompaction) {
    options.push_back(
        {"full-compaction.delta-commits", std::to_string(kFullCompactionDeltaCommits)});
  }
  auto table =
      test::CreateTestTable(path,
                            {DataField{0, "k", DataType::BigInt(false), std::nullopt, std::nullopt},
                             DataField{1, "a", DataType::String(), std::nullopt, std::nullopt},
                             DataField{2, "b", DataType::BigInt(), std::nullopt, std::nullopt},
                             DataField{3, "s", DataType::BigInt(), std::nullopt, std::nullopt}},
                            {}, {"k"}, options);
  const DataTypePtr row_type = table->schema().LogicalRowType();
  constexpr int kCommits = 24;
  constexpr int64_t kKeys = 80;
  std::mt19937_64 rng(c.name.size() * 7919 + 31);
  std::map<int64_t, ValueList> folded;
  // Per bucket, its rows after each commit since the last full compaction (full-compaction
  // producer): a universal compaction of a bucket may write the max level too, and the fold
  // then shows the bucket as of that commit.
  std::map<int64_t, int32_t> bucket_of;
  std::vector<std::vector<std::vector<std::string>>> since_full(kBuckets, {{}});
  auto bucket_rows = [&](const std::map<int64_t, ValueList>& rows, int32_t bucket) {
    std::map<int64_t, ValueList> out;
    for (const auto& [key, row] : rows) {
      if (bucket_of.at(key) == bucket) out[key] = row;
    }
    return Render(out);
  };
  int64_t seen_snapshot = 0;
  int64_t changelog_rows = 0;
  std::unique_ptr<FileStoreWrite> write;
  for (int64_t commit = 1; commit <= kCommits; ++commit) {
    // A full compaction at a delta commit covers the buckets its writer wrote since the last
    // one (Java GlobalFullCompactionSinkWrite): full-compaction writers restart right after one.
    const bool may_restart = c.producer != Producer::kFullCompaction ||
                             IsFullCompactionCommit(commit - 1, kFullCompactionDeltaCommits);
    if (write == nullptr || (may_restart && rng() % 3 == 0)) {
      if (write != nullptr) ASSERT_OK(write->Close());
      write = test::OpenCompactingWrite(path);
    }
    // The input rows of this commit per key, in order (input producer).
    std::map<int64_t, std::vector<Change>> input;
    const int batches = 1 + static_cast<int>(rng() % 3);
    for (int batch = 0; batch < batches; ++batch) {
      std::vector<ValueList> rows;
      std::vector<RowKind> kinds;
      const int n = 1 + static_cast<int>(rng() % 50);
      for (int i = 0; i < n; ++i) {
        const int64_t key = static_cast<int64_t>(rng() % kKeys);
        const bool del = c.deletes && rng() % 4 == 0;
        ValueList row = {Value::Int64(key), Value::Null(), Value::Null(), Value::Null()};
        if (!c.partial_rows || rng() % 3 != 0) {
          row[1] = Value::String("c" + std::to_string(commit) + "-" + std::to_string(rng() % 4));
        }
        if (!c.partial_rows || rng() % 3 != 0)
          row[2] = Value::Int64(static_cast<int64_t>(rng() % 5));
        row[3] = Value::Int64(static_cast<int64_t>(rng() % 20));
        rows.push_back(row);
        kinds.push_back(del ? RowKind::kDelete : RowKind::kInsert);
        input[key].push_back(Change{del ? "-D" : "+I", row});
      }
      ASSERT_OK(test::WriteRows(write.get(), row_type, rows, kinds));
    }
    ASSERT_OK(test::Commit(path, write.get(), commit)) << "commit " << commit;

    // This commit's changelog, per key, over its new snapshots.
    std::map<int64_t, std::vector<Change>> changes;
    auto reopened = FileStoreTable::Open(LocalFileIO(), path).value();
    auto latest = reopened->SelectSnapshot(TableVersion::Latest());
    ASSERT_OK(latest);
    ASSERT_TRUE(latest->has_value());
    for (int64_t id = seen_snapshot + 1; id <= (*latest)->id; ++id) {
      for (auto& [key, list] : ReadChangelog(path, id, &bucket_of)) {
        auto& to = changes[key];
        to.insert(to.end(), list.begin(), list.end());
      }
    }
    seen_snapshot = (*latest)->id;

    int merged_splits = 0;
    const std::map<int64_t, ValueList> table_rows = ReadTable(path, &bucket_of, &merged_splits);
    if (deletion_vectors) ASSERT_EQ(merged_splits, 0) << "commit " << commit;
    if (c.producer == Producer::kInput) {
      // The changelog is the input, row for row.
      ASSERT_EQ(changes.size(), input.size()) << "commit " << commit;
      for (const auto& [key, list] : input) {
        const std::vector<Change>& got = changes[key];
        ASSERT_EQ(got.size(), list.size()) << "key " << key << " commit " << commit;
        for (size_t i = 0; i < list.size(); ++i) {
          EXPECT_EQ(got[i].kind, list[i].kind) << "key " << key << " commit " << commit;
          EXPECT_EQ(Value::Row(got[i].row).DebugString(), Value::Row(list[i].row).DebugString());
        }
        for (const Change& change : got) {
          if (change.kind == "+I" || change.kind == "+U") {
            folded[key] = change.row;
          } else {
            folded.erase(key);
          }
        }
        changelog_rows += static_cast<int64_t>(got.size());
      }
      ASSERT_EQ(Render(folded), Render(table_rows))
          << "commit " << commit << Diff(Render(folded), Render(table_rows));
      continue;
    }

    // Strict fold, and each key's changes are exactly the change of its value.
    for (const auto& [key, list] : changes) {
      changelog_rows += static_cast<int64_t>(list.size());
      auto found = folded.find(key);
      const std::optional<ValueList> before =
          found == folded.end() ? std::nullopt : std::optional<ValueList>(found->second);
      for (const Change& change : list) {
        const std::string row = Value::Row(change.row).DebugString();
        if (change.kind == "+I" || change.kind == "+U") {
          ASSERT_EQ(folded.count(key), 0u)
              << change.kind << " of a present key " << row << " commit " << commit;
          folded[key] = change.row;
        } else {
          ASSERT_EQ(folded.count(key), 1u)
              << change.kind << " of an absent key " << row << " commit " << commit;
          ASSERT_EQ(Value::Row(folded[key]).DebugString(), row)
              << change.kind << " does not retract the key's row, commit " << commit;
          folded.erase(key);
        }
      }
      auto now = folded.find(key);
      const std::optional<ValueList> after =
          now == folded.end() ? std::nullopt : std::optional<ValueList>(now->second);
      std::vector<std::string> kinds;
      for (const Change& change : list) kinds.push_back(change.kind);
      using Kinds = std::vector<std::string>;
      if (!before && after) {
        EXPECT_EQ(kinds, (Kinds{"+I"})) << "key " << key << " commit " << commit;
      } else if (before && !after) {
        EXPECT_EQ(kinds, (Kinds{"-D"})) << "key " << key << " commit " << commit;
      } else if (before && after) {
        EXPECT_EQ(kinds, (Kinds{"-U", "+U"})) << "key " << key << " commit " << commit;
        if (c.row_deduplicate) {
          EXPECT_NE(Value::Row(*before).DebugString(), Value::Row(*after).DebugString())
              << "an unchanged row in the changelog of key " << key << " commit " << commit;
        }
      } else {
        EXPECT_TRUE(kinds.empty()) << "changes of a key absent before and after, commit " << commit;
      }
    }
    if (c.producer == Producer::kLookup) {
      ASSERT_EQ(Render(folded), Render(table_rows))
          << "commit " << commit << Diff(Render(folded), Render(table_rows));
    } else {
      if (IsFullCompactionCommit(commit, kFullCompactionDeltaCommits)) {
        ASSERT_EQ(Render(folded), Render(table_rows))
            << "commit " << commit << Diff(Render(folded), Render(table_rows));
      }
      for (int32_t bucket = 0; bucket < kBuckets; ++bucket) {
        std::vector<std::vector<std::string>>& states = since_full[static_cast<size_t>(bucket)];
        if (IsFullCompactionCommit(commit, kFullCompactionDeltaCommits)) states.clear();
        states.push_back(bucket_rows(table_rows, bucket));
        const std::vector<std::string> got = bucket_rows(folded, bucket);
        ASSERT_TRUE(std::find(states.begin(), states.end(), got) != states.end())
            << "the folded changelog of bucket " << bucket
            << " is no state of it since the last full compaction, commit " << commit
            << Diff(got, states.back());
      }
    }
  }
  ASSERT_OK(write->Close());
  EXPECT_GT(changelog_rows, 0);
  EXPECT_OK(CheckTable(*FileStoreTable::Open(LocalFileIO(), path).value()));
}

const TableOptions kPartialUpdate = {{"merge-engine", "partial-update"},
                                     {"partial-update.remove-record-on-delete", "true"}};
const TableOptions kSequenceGroup = {{"merge-engine", "partial-update"},
                                     {"fields.s.sequence-group", "a"}};
const TableOptions kAggregation = {{"merge-engine", "aggregation"},
                                   {"fields.b.aggregate-function", "sum"},
                                   {"fields.a.ignore-retract", "true"},
                                   {"fields.s.ignore-retract", "true"}};
const TableOptions kFirstRow = {{"merge-engine", "first-row"}};
const TableOptions kDv = {{"deletion-vectors.enabled", "true"}};

TableOptions With(TableOptions base,
                  std::initializer_list<std::pair<std::string, std::string>> more) {
  base.insert(base.end(), more.begin(), more.end());
  return base;
}
TableOptions With(TableOptions base, const TableOptions& more) {
  base.insert(base.end(), more.begin(), more.end());
  return base;
}

INSTANTIATE_TEST_SUITE_P(
    Producers, ChangelogModelTest,
    ::testing::Values(
        ChangelogCase{"input_deduplicate",
                      Producer::kInput,
                      {{"changelog-producer", "input"}},
                      true,
                      false,
                      false},
        ChangelogCase{"lookup_deduplicate",
                      Producer::kLookup,
                      {{"changelog-producer", "lookup"}},
                      true,
                      false,
                      false},
        ChangelogCase{
            "lookup_deduplicate_row_deduplicate",
            Producer::kLookup,
            {{"changelog-producer", "lookup"}, {"changelog-producer.row-deduplicate", "true"}},
            true,
            false,
            true},
        ChangelogCase{"lookup_partial_update", Producer::kLookup,
                      With(kPartialUpdate, {{"changelog-producer", "lookup"}}), true, true, false},
        ChangelogCase{"lookup_partial_update_sequence_group", Producer::kLookup,
                      With(kSequenceGroup, {{"changelog-producer", "lookup"},
                                            {"changelog-producer.row-deduplicate", "true"}}),
                      false, true, true},
        ChangelogCase{"lookup_aggregation", Producer::kLookup,
                      With(kAggregation, {{"changelog-producer", "lookup"}}), true, true, false},
        ChangelogCase{"lookup_first_row", Producer::kLookup,
                      With(kFirstRow, {{"changelog-producer", "lookup"}}), false, false, false},
        ChangelogCase{"full_compaction_deduplicate",
                      Producer::kFullCompaction,
                      {{"changelog-producer", "full-compaction"},
                       {"changelog-producer.row-deduplicate", "true"}},
                      true,
                      false,
                      true},
        ChangelogCase{"full_compaction_partial_update", Producer::kFullCompaction,
                      With(kPartialUpdate, {{"changelog-producer", "full-compaction"}}), true, true,
                      false},
        ChangelogCase{"full_compaction_aggregation", Producer::kFullCompaction,
                      With(kAggregation, {{"changelog-producer", "full-compaction"}}), true, true,
                      false},
        ChangelogCase{"dv_input_deduplicate", Producer::kInput,
                      With(kDv, {{"changelog-producer", "input"}}), true, false, false},
        ChangelogCase{"dv_lookup_deduplicate", Producer::kLookup,
                      With(kDv, {{"changelog-producer", "lookup"}}), true, false, false},
        ChangelogCase{"dv_lookup_deduplicate_row_deduplicate", Producer::kLookup,
                      With(kDv, {{"changelog-producer", "lookup"},
                                 {"changelog-producer.row-deduplicate", "true"}}),
                      true, false, true},
        ChangelogCase{"dv_lookup_sequence_field", Producer::kLookup,
                      With(kDv, {{"changelog-producer", "lookup"}, {"sequence.field", "s"}}), true,
                      false, false},
        ChangelogCase{"dv_lookup_partial_update", Producer::kLookup,
                      With(With(kPartialUpdate, {{"changelog-producer", "lookup"}}), kDv), true,
                      true, false},
        ChangelogCase{"dv_lookup_partial_update_sequence_group", Producer::kLookup,
                      With(With(kSequenceGroup, {{"changelog-producer", "lookup"},
                                                 {"changelog-producer.row-deduplicate", "true"}}),
                           kDv),
                      false, true, true},
        ChangelogCase{"dv_lookup_aggregation", Producer::kLookup,
                      With(With(kAggregation, {{"changelog-producer", "lookup"}}), kDv), true, true,
                      false}),
    [](const ::testing::TestParamInfo<ChangelogCase>& info) { return info.param.name; });

}  // namespace
}  // namespace sluice
