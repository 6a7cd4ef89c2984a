// The write-buffer budget shared by the bucket writers of a FileStoreWrite (MemoryPoolFactory):
// with many buckets and a small `write-buffer-size`, the buffers together never hold more than
// the budget after a write, the largest is flushed to make room, and every row still lands:
// the table reads as the model after every commit, for fixed buckets and for a cross-partition
// upsert table whose keys move between partitions.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "sluice/lsm/merge_tree_writer.h"
#include "sluice/row/binary_row.h"
#include "sluice/table/table_checker.h"
#include "table/compaction_test_util.h"
#include "table/cross_partition_test_util.h"
#include "test_util.h"

namespace sluice {
namespace {

constexpr int32_t kPartitions = 4;

// The buffers of the open writers hold what the pool says they hold, within its budget.
void ExpectWithinBudget(const FileStoreWrite& write, int64_t step) {
  const MemoryPoolFactory* pool = write.write_buffer_pool();
  ASSERT_NE(pool, nullptr);
  ASSERT_LE(pool->used_bytes(), pool->total_bytes()) << "write " << step;
  int64_t held = 0;
  for (int32_t p = 0; p < kPartitions; ++p) {
    const std::string partition = SerializeBinaryRow(
        EncodeBinaryRow({Value::Int32(p)}, *write.table().schema().LogicalPartitionType()).value(),
        1);
    for (int32_t bucket = 0; bucket < 8; ++bucket) {
      if (auto* writer = dynamic_cast<MergeTreeWriter*>(write.WriterOf(partition, bucket))) {
        EXPECT_EQ(writer->memory_occupancy(), writer->write_buffer().memory_usage());
        held += writer->memory_occupancy();
      }
    }
  }
  EXPECT_EQ(held, pool->used_bytes()) << "write " << step;
}

struct Workload {
  uint64_t state = 11;
  uint64_t Next() {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 33;
  }
};

TEST(WriteBufferPoolTest, FixedBucketWritersShareOneBudget) {
  test::TempDir dir;
  const std::string path = dir.path() + "/db.db/t";
  auto table =
      test::CreateTestTable(path,
                            {DataField{0, "p", DataType::Int(false), std::nullopt, std::nullopt},
                             DataField{1, "k", DataType::BigInt(false), std::nullopt, std::nullopt},
                             DataField{2, "v", DataType::BigInt(), std::nullopt, std::nullopt}},
                            {"p"}, {"p", "k"}, {{"bucket", "4"}, {"write-buffer-size", "24 kb"}});
  auto write = test::OpenCompactingWrite(path);
  const DataTypePtr row_type = table->schema().LogicalRowType();
  std::map<int64_t, ValueList> model;  // p * 1000000 + k -> row
  Workload w;
  int64_t step = 0;
  for (int64_t commit = 1; commit <= 3; ++commit) {
    for (int batch = 0; batch < 12; ++batch, ++step) {
      std::vector<ValueList> rows;
      std::vector<RowKind> kinds;
      for (int i = 0; i < 150; ++i) {
        const auto p = static_cast<int32_t>(w.Next() % kPartitions);
        const auto k = static_cast<int64_t>(w.Next() % 600);
        const bool remove = w.Next() % 8 == 0;
        const ValueList row = {Value::Int32(p), Value::Int64(k),
                               Value::Int64(static_cast<int64_t>(w.Next() % 100000))};
        rows.push_back(row);
        kinds.push_back(remove ? RowKind::kDelete : RowKind::kInsert);
        if (remove) {
          model.erase(p * 1000000 + k);
        } else {
          model[p * 1000000 + k] = row;
        }
      }
      ASSERT_OK(test::WriteRows(write.get(), row_type, rows, kinds));
      ExpectWithinBudget(*write, step);
    }
    ASSERT_OK(test::Commit(path, write.get(), commit));
    EXPECT_EQ(write->write_buffer_pool()->used_bytes(), 0);
    EXPECT_EQ(test::ReadAll(path), test::RenderModel(model)) << "commit " << commit;
  }
  // 16 buckets under 24 kb: buffers were flushed to make room for others.
  EXPECT_GT(write->write_buffer_pool()->preempt_count(), 0);
  ASSERT_OK(write->Close());
  ASSERT_OK(CheckTable(*FileStoreTable::Open(LocalFileIO(), path).value()));
}

TEST(WriteBufferPoolTest, CrossPartitionWritersShareOneBudget) {
  test::TempDir dir;
  const std::string path = dir.path() + "/db.db/t";
  const std::string tmp = dir.path() + "/tmp";
  std::filesystem::create_directories(tmp);
  auto table = test::CreateCrossPartitionTable(
      path, {{"write-buffer-size", "16 kb"}, {"dynamic-bucket.target-row-num", "100"}});
  auto write = test::OpenCrossPartitionWrite(path, tmp);
  ASSERT_OK(write);
  const DataTypePtr row_type = table->schema().LogicalRowType();
  std::map<int64_t, ValueList> model;  // k -> row; a key lives in one partition
  Workload w;
  int64_t step = 0;
  for (int64_t commit = 1; commit <= 3; ++commit) {
    for (int batch = 0; batch < 10; ++batch, ++step) {
      std::vector<ValueList> rows;
      for (int i = 0; i < 150; ++i) {
        const auto p = static_cast<int32_t>(w.Next() % kPartitions);
        const auto k = static_cast<int64_t>(w.Next() % 800);
        rows.push_back(test::Row(p, k, static_cast<int64_t>(w.Next() % 100000)));
        model[k] = rows.back();
      }
      ASSERT_OK(test::WriteRows(write->get(), row_type, rows, {}));
      const MemoryPoolFactory* pool = (*write)->write_buffer_pool();
      ASSERT_LE(pool->used_bytes(), pool->total_bytes()) << "write " << step;
    }
    ASSERT_OK(test::Commit(path, write->get(), commit));
    EXPECT_EQ(test::ReadAll(path), test::RenderModel(model)) << "commit " << commit;
  }
  EXPECT_GT((*write)->write_buffer_pool()->preempt_count(), 0);
  ASSERT_OK((*write)->Close());
  for (const auto& [k, places] : test::PlacesOfKeys(path)) EXPECT_EQ(places.size(), 1u) << k;
  ASSERT_OK(CheckTable(*FileStoreTable::Open(LocalFileIO(), path).value()));
}

}  // namespace
}  // namespace sluice
