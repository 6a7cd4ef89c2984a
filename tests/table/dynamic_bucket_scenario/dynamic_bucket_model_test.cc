// Randomized model test of dynamic-bucket primary-key tables (bucket = -1): many commits of
// random upserts and deletes over several partitions, written by two writers that share the
// hash space (writer 0 and 1 of 2, as Java's parallel bucket assigners), each committing on
// its own, restarted (a new FileStoreWrite, i.e. a new process's state) at random commits, with
// full compactions now and then, then by a single writer. After every commit: the rows equal
// the model, every key is read from exactly one bucket of its partition and never moves, and
// the checker (hash index checks included) finds nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "sluice/table/table_checker.h"
#include "table/dynamic_bucket_test_util.h"
#include "test_util.h"

namespace sluice {
namespace {

using Key = std::pair<int32_t, int64_t>;

TEST(DynamicBucketModelTest, EveryCommitReadsAsTheModelWithEachKeyInOneBucket) {
  test::TempDir dir;
  const std::string path = dir.path() + "/db.db/t";
  auto table = test::CreateDynamicBucketTable(
      path, {{"dynamic-bucket.target-row-num", "7"}, {"num-sorted-run.compaction-trigger", "3"}});
  const DataTypePtr row_type = table->schema().LogicalRowType();
  constexpr int kTwoWriterCommits = 24;
  constexpr int kSingleWriterCommits = 8;
  constexpr int32_t kPartitions = 4;
  constexpr int64_t kKeys = 60;
  std::mt19937_64 rng(20261202);
  std::map<Key, std::string> model;
  std::map<Key, int32_t> bucket_of;  // where each key was first read
  std::vector<std::unique_ptr<FileStoreWrite>> writers;
  int32_t num_writers = 2;
  auto open_writers = [&]() {
    for (auto& w : writers) {
      if (w) {
        ASSERT_OK(w->Close());
      }
    }
    writers.clear();
    for (int32_t id = 0; id < num_writers; ++id) {
      writers.push_back(test::OpenDynamicWrite(path, num_writers, id));
    }
  };
  open_writers();
  int64_t identifier = 0;
  int restarts = 0;
  int compactions = 0;
  for (int commit = 1; commit <= kTwoWriterCommits + kSingleWriterCommits; ++commit) {
    if (commit == kTwoWriterCommits + 1) {
      num_writers = 1;
      open_writers();
    } else if (rng() % 4 == 0) {
      open_writers();
      ++restarts;
    }
    ++identifier;
    // Rows per writer: each row goes to the writer its key routes to.
    std::vector<std::vector<ValueList>> rows(static_cast<size_t>(num_writers));
    std::vector<std::vector<RowKind>> kinds(static_cast<size_t>(num_writers));
    const int n = 1 + static_cast<int>(rng() % 50);
    for (int i = 0; i < n; ++i) {
      const Key key{static_cast<int32_t>(rng() % kPartitions), static_cast<int64_t>(rng() % kKeys)};
      const bool remove = rng() % 5 == 0;
      const std::string v = "c" + std::to_string(commit) + "-" + std::to_string(i);
      const size_t owner = static_cast<size_t>(ComputeAssigner(
          test::PartitionHash(key.first), test::KeyHash(key.second), num_writers, num_writers));
      rows[owner].push_back({Value::Int32(key.first), Value::Int64(key.second), Value::String(v)});
      kinds[owner].push_back(remove ? RowKind::kDelete : RowKind::kInsert);
      if (remove) {
        model.erase(key);
      } else {
        model[key] = v;
      }
    }
    for (int32_t id = 0; id < num_writers; ++id) {
      FileStoreWrite* w = writers[static_cast<size_t>(id)].get();
      if (!rows[static_cast<size_t>(id)].empty()) {
        ASSERT_OK(test::WriteRows(w, row_type, rows[static_cast<size_t>(id)],
                                  kinds[static_cast<size_t>(id)]));
      }
      if (rng() % 6 == 0) {
        // Fully compact one of this writer's buckets of partition 0 (it may not exist yet).
        const std::string partition = SerializeBinaryRow(
            EncodeBinaryRow({Value::Int32(0)}, *table->schema().LogicalPartitionType()).value(), 1);
        const int32_t bucket = id + num_writers * static_cast<int32_t>(rng() % 3);
        ASSERT_OK(w->Compact(partition, bucket, /*full_compaction=*/true));
        ++compactions;
      }
      ASSERT_OK(test::CommitAs(path, "writer-" + std::to_string(id), w, identifier))
          << "commit " << commit << " writer " << id;
    }

    std::vector<std::string> expected;
    for (const auto& [key, v] : model) {
      expected.push_back(
          Value::Row({Value::Int32(key.first), Value::Int64(key.second), Value::String(v)})
              .DebugString());
    }
    std::sort(expected.begin(), expected.end());
    ASSERT_EQ(test::ReadAll(path), expected) << "commit " << commit;
    for (const auto& [key, buckets] : test::BucketsOfKeys(path)) {
      ASSERT_EQ(buckets.size(), 1u) << "key (" << key.first << ", " << key.second << ")";
      auto [it, fresh] = bucket_of.emplace(key, *buckets.begin());
      ASSERT_EQ(it->second, *buckets.begin())
          << "key (" << key.first << ", " << key.second << ") moved at commit " << commit;
    }
    CheckOptions check;
    check.all_snapshots = false;
    ASSERT_OK_AND_ASSIGN(CheckReport report,
                         RunTableCheck(*FileStoreTable::Open(LocalFileIO(), path).value(), check));
    ASSERT_TRUE(report.ok()) << "commit " << commit << ": " << report.problems[0];
  }
  for (auto& w : writers) ASSERT_OK(w->Close());
  ASSERT_OK(CheckTable(*FileStoreTable::Open(LocalFileIO(), path).value()));
  // More keys than one bucket takes: several buckets per partition, of both writers.
  std::set<int32_t> buckets;
  for (const auto& [key, bucket] : bucket_of) buckets.insert(bucket);
  EXPECT_GE(buckets.size(), 4u);
  EXPECT_GT(restarts, 0);
  EXPECT_GT(compactions, 0);
  std::cout << "dynamic bucket model: " << identifier << " commit rounds, " << restarts
            << " restarts, " << compactions << " compactions, " << bucket_of.size() << " keys in "
            << buckets.size() << " bucket ids\n";
}

}  // namespace
}  // namespace sluice
