// Randomized model test of cross-partition upsert tables (bucket = -1, primary key k,
// partitioned by p), one run per merge engine: many commits of random upserts (and deletes,
// but for first-row) whose keys land in random partitions, so keys keep arriving in a
// partition other than the one they live in; the writer restarted (a new FileStoreWrite, so
// its key index is bootstrapped from the table) at random commits, its key index small enough
// to spill. The model follows Java's rules: the key index maps a key to where it was first
// put (deduplicate: where it last arrived) and, after a restart, to where it lives;
// deduplicate moves the key, partial-update and aggregation update it where it lives,
// first-row drops rows of a key living elsewhere. After every commit: the rows equal the
// model, each key is read from one bucket of one partition, and the checker (keys checked
// in one place) finds nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "sluice/table/table_checker.h"
#include "table/cross_partition_test_util.h"
#include "test_util.h"

namespace sluice {
namespace {

struct Engine {
  const char* name;
  TableOptions options;
  bool deletes;
};

class CrossPartitionModelTest : public ::testing::TestWithParam<Engine> {};

struct Live {
  int32_t p;
  int64_t v;
};

TEST_P(CrossPartitionModelTest, EveryCommitReadsAsTheModelWithEachKeyInOnePlace) {
  const Engine& engine = GetParam();
  test::TempDir dir;
  const std::string path = dir.path() + "/db.db/t";
  const std::string tmp = dir.path() + "/tmp";
  std::filesystem::create_directories(tmp);
  TableOptions options = engine.options;
  options.emplace_back("dynamic-bucket.target-row-num", "4");
  options.emplace_back("num-sorted-run.compaction-trigger", "3");
  auto table = test::CreateCrossPartitionTable(path, options);
  const DataTypePtr row_type = table->schema().LogicalRowType();
  const std::string name = engine.name;
  constexpr int kCommits = 14;
  constexpr int32_t kPartitions = 4;
  constexpr int64_t kKeys = 40;
  std::mt19937_64 rng(20261202);
  std::map<int64_t, int32_t> index;  // the writer's key index: k -> p
  std::map<int64_t, Live> live;
  std::unique_ptr<FileStoreWrite> write;
  int restarts = 0;
  int moves = 0;
  int64_t spills = 0;
  auto open = [&]() {
    if (write) {
      spills += write->key_index_spills();
      ASSERT_OK(write->Close());
    }
    // A key index of 1 KiB: it spills every twenty-odd keys.
    auto opened = test::OpenCrossPartitionWrite(path, tmp, 1 << 10);
    ASSERT_OK(opened);
    write = std::move(opened).value();
    // Bootstrapped from the table: where each live key lives.
    index.clear();
    for (const auto& [k, row] : live) index[k] = row.p;
  };
  open();
  for (int commit = 1; commit <= kCommits; ++commit) {
    if (commit > 1 && rng() % 4 == 0) {
      open();
      ++restarts;
    }
    std::vector<ValueList> rows;
    std::vector<RowKind> kinds;
    const int n = 1 + static_cast<int>(rng() % 30);
    for (int i = 0; i < n; ++i) {
      const int64_t k = static_cast<int64_t>(rng() % kKeys);
      const int32_t p = static_cast<int32_t>(rng() % kPartitions);
      const int64_t v = static_cast<int64_t>(rng() % 100);
      const bool remove = engine.deletes && rng() % 6 == 0;
      rows.push_back(test::Row(p, k, v));
      kinds.push_back(remove ? RowKind::kDelete : RowKind::kInsert);
      auto indexed = index.find(k);
      if (indexed != index.end() && indexed->second != p) ++moves;
      if (name == "deduplicate") {
        index[k] = p;
        if (remove) {
          live.erase(k);
        } else {
          live[k] = Live{p, v};
        }
      } else if (name == "first-row") {
        if (indexed == index.end()) index[k] = p;
        if (index[k] == p && live.count(k) == 0) live[k] = Live{p, v};
      } else {
        const int32_t target = indexed == index.end() ? (index[k] = p) : indexed->second;
        auto found = live.find(k);
        if (remove) {
          live.erase(k);
        } else if (found == live.end()) {
          live[k] = Live{target, v};
        } else {
          found->second.v = name == "aggregation" ? found->second.v + v : v;
        }
      }
    }
    ASSERT_OK(test::WriteRows(write.get(), row_type, rows, kinds)) << "commit " << commit;
    ASSERT_OK(test::Commit(path, write.get(), commit)) << "commit " << commit;

    std::vector<std::string> expected;
    for (const auto& [k, row] : live) {
      expected.push_back(Value::Row(test::Row(row.p, k, row.v)).DebugString());
    }
    std::sort(expected.begin(), expected.end());
    ASSERT_EQ(test::ReadAll(path), expected) << name << " commit " << commit;
    for (const auto& [k, places] : test::PlacesOfKeys(path)) {
      ASSERT_EQ(places.size(), 1u) << name << " key " << k << " commit " << commit;
    }
    CheckOptions check;
    check.all_snapshots = false;
    ASSERT_OK_AND_ASSIGN(CheckReport report,
                         RunTableCheck(*FileStoreTable::Open(LocalFileIO(), path).value(), check));
    ASSERT_TRUE(report.ok()) << name << " commit " << commit << ": " << report.problems[0];
  }
  spills += write->key_index_spills();
  ASSERT_OK(write->Close());
  EXPECT_TRUE(std::filesystem::is_empty(tmp));
  EXPECT_GT(restarts, 0);
  EXPECT_GT(spills, 0);
  EXPECT_GT(moves, 10);
  std::cout << name << ": " << kCommits << " commits, " << restarts << " restarts, " << moves
            << " rows of a key arriving in another partition, " << live.size() << " live keys\n";
}

INSTANTIATE_TEST_SUITE_P(
    MergeEngines, CrossPartitionModelTest,
    ::testing::Values(Engine{"deduplicate", {}, true},
                      Engine{"partial-update",
                             {{"merge-engine", "partial-update"},
                              {"partial-update.remove-record-on-delete", "true"}},
                             true},
                      // Upserts only: with `aggregation.remove-record-on-delete` a DELETE
                      // seeds the accumulator with its own values (Java
                      // AggregateMergeFunction), so what a later row adds to depends on when
                      // compactions dropped the DELETE.
                      Engine{
                          "aggregation",
                          {{"merge-engine", "aggregation"}, {"fields.v.aggregate-function", "sum"}},
                          false},
                      Engine{"first-row", {{"merge-engine", "first-row"}}, false}),
    [](const ::testing::TestParamInfo<Engine>& info) {
      std::string name = info.param.name;
      std::replace(name.begin(), name.end(), '-', '_');
      return name;
    });

}  // namespace
}  // namespace sluice
