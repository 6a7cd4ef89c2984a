// Helpers of the cross-partition upsert tests: tables partitioned by `p INT` with primary key
// (k) (so a key may move between partitions), writers with a small key index under a test
// directory, and where each key is read from.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sluice/table/sink/file_store_write.h"
#include "sluice/table/sink/merge_tree_compact_rewriter.h"
#include "sluice/table/source/scan_planner.h"
#include "sluice/table/source/split_reader.h"
#include "table/compaction_test_util.h"
#include "test_util.h"

namespace sluice::test {

// p INT NOT NULL, k BIGINT NOT NULL, v BIGINT; partitioned by p, primary key (k), bucket -1.
inline std::shared_ptr<const FileStoreTable> CreateCrossPartitionTable(const std::string& path,
                                                                       TableOptions options) {
  options.emplace_back("bucket", "-1");
  return CreateTestTable(path,
                         {DataField{0, "p", DataType::Int(false), std::nullopt, std::nullopt},
                          DataField{1, "k", DataType::BigInt(false), std::nullopt, std::nullopt},
                          DataField{2, "v", DataType::BigInt(), std::nullopt, std::nullopt}},
                         {"p"}, {"k"}, std::move(options));
}

// A compacting writer whose key index lives under `tmp_dir` with `memory_bytes` of memory.
inline Result<std::unique_ptr<FileStoreWrite>> OpenCrossPartitionWrite(
    const std::string& path, const std::string& tmp_dir, int64_t memory_bytes = int64_t{1} << 20,
    int32_t writers = 1, int32_t id = 0) {
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<const FileStoreTable> table,
                          FileStoreTable::Open(LocalFileIO(), path));
  FileStoreWriteOptions options;
  SLUICE_ASSIGN_OR_RETURN(options.compact_manager_factory,
                          MakeMergeTreeCompactManagerFactory(table, false));
  options.tmp_dir = tmp_dir;
  options.key_index_memory_bytes = memory_bytes;
  options.dynamic_bucket_writers = writers;
  options.dynamic_bucket_assign_id = id;
  return FileStoreWrite::Open(table, options);
}

inline ValueList Row(int32_t p, int64_t k, int64_t v) {
  return {Value::Int32(p), Value::Int64(k), Value::Int64(v)};
}

// k -> every (p, bucket) its row is read from.
inline std::map<int64_t, std::set<std::pair<int32_t, int32_t>>> PlacesOfKeys(
    const std::string& path) {
  std::map<int64_t, std::set<std::pair<int32_t, int32_t>>> out;
  auto table = FileStoreTable::Open(LocalFileIO(), path).value();
  auto plan = PlanScan(*table, ScanOptions{});
  EXPECT_OK(plan);
  if (!plan.ok()) return out;
  for (DataSplit& split : plan->splits) {
    const int32_t bucket = split.bucket;
    auto reader =
        OpenSplitReader(*table, table->schema_ptr(), std::move(split), SplitReadOptions{});
    EXPECT_OK(reader);
    if (!reader.ok()) return out;
    ColumnBatch batch((*reader)->output_type());
    while (true) {
      auto more = (*reader)->Next(&batch);
      EXPECT_OK(more);
      if (!more.ok() || !*more) break;
      for (int64_t i = 0; i < batch.num_rows(); ++i) {
        const ValueList row = batch.GetRow(i).list();
        out[row[1].int64()].insert({row[0].int32(), bucket});
      }
    }
  }
  return out;
}

}  // namespace sluice::test
