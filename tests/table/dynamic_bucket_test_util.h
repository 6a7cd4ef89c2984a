// Helpers of the dynamic-bucket tests: tables partitioned by `p INT` with primary key (p, k),
// writers that assign buckets (one of several), the key hashes Java computes, where each key
// lives, and the HASH entries of the latest snapshot.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sluice/index/hash_index_file.h"
#include "sluice/meta/manifest_file.h"
#include "sluice/row/binary_row.h"
#include "sluice/table/sink/file_store_commit.h"
#include "sluice/table/sink/file_store_write.h"
#include "sluice/table/sink/merge_tree_compact_rewriter.h"
#include "sluice/table/source/scan_planner.h"
#include "sluice/table/source/split_reader.h"
#include "table/compaction_test_util.h"
#include "test_util.h"

namespace sluice::test {

// p INT NOT NULL, k BIGINT NOT NULL, v STRING; partitioned by p, primary key (p, k), bucket -1.
inline std::shared_ptr<const FileStoreTable> CreateDynamicBucketTable(const std::string& path,
                                                                      TableOptions options) {
  options.emplace_back("bucket", "-1");
  return CreateTestTable(path,
                         {DataField{0, "p", DataType::Int(false), std::nullopt, std::nullopt},
                          DataField{1, "k", DataType::BigInt(false), std::nullopt, std::nullopt},
                          DataField{2, "v", DataType::String(), std::nullopt, std::nullopt}},
                         {"p"}, {"p", "k"}, std::move(options));
}

inline int32_t RowHash(const Value& value, const DataTypePtr& type) {
  const DataTypePtr row_type =
      DataType::Row({DataField{0, "f0", type, std::nullopt, std::nullopt}});
  std::string bytes = EncodeBinaryRow({value}, *row_type).value();
  return BinaryRowView::Make(bytes, 1).value().HashCode();
}
// BinaryRow hashes of the partition (p) and of the trimmed primary key (k).
inline int32_t PartitionHash(int32_t p) { return RowHash(Value::Int32(p), DataType::Int(false)); }
inline int32_t KeyHash(int64_t k) { return RowHash(Value::Int64(k), DataType::BigInt(false)); }

// Writer `id` of `writers`, with compaction.
inline std::unique_ptr<FileStoreWrite> OpenDynamicWrite(const std::string& path, int32_t writers,
                                                        int32_t id, bool overwrite = false) {
  auto table = FileStoreTable::Open(LocalFileIO(), path).value();
  FileStoreWriteOptions options;
  options.compact_manager_factory = MakeMergeTreeCompactManagerFactory(table, false).value();
  options.dynamic_bucket_writers = writers;
  options.dynamic_bucket_assign_id = id;
  options.overwrite = overwrite;
  auto write = FileStoreWrite::Open(table, options);
  EXPECT_OK(write);
  return std::move(write).value();
}

inline Status CommitAs(const std::string& path, const std::string& user, FileStoreWrite* write,
                       int64_t identifier) {
  SLUICE_ASSIGN_OR_RETURN(auto table, FileStoreTable::Open(LocalFileIO(), path));
  SLUICE_ASSIGN_OR_RETURN(std::vector<CommitMessageImpl> messages,
                          write->PrepareCommit(identifier, /*wait_compaction=*/true));
  SLUICE_ASSIGN_OR_RETURN(auto commit, FileStoreCommit::Make(table, user));
  ManifestCommittable committable;
  committable.identifier = identifier;
  committable.messages = std::move(messages);
  return commit->Commit(committable).status();
}

// (p, k) -> every bucket its row is read from.
inline std::map<std::pair<int32_t, int64_t>, std::set<int32_t>> BucketsOfKeys(
    const std::string& path) {
  std::map<std::pair<int32_t, int64_t>, std::set<int32_t>> out;
  auto table = FileStoreTable::Open(LocalFileIO(), path).value();
  auto plan = PlanScan(*table, ScanOptions{});
  EXPECT_OK(plan);
  if (!plan.ok()) return out;
  for (DataSplit& split : plan->splits) {
    auto reader = OpenSplitReader(*table, table->schema_ptr(), split, SplitReadOptions{});
    EXPECT_OK(reader);
    if (!reader.ok()) return out;
    ColumnBatch batch((*reader)->output_type());
    while (true) {
      auto more = (*reader)->Next(&batch);
      EXPECT_OK(more);
      if (!more.ok() || !*more) break;
      for (int64_t i = 0; i < batch.num_rows(); ++i) {
        const ValueList row = batch.GetRow(i).list();
        out[{row[0].int32(), row[1].int64()}].insert(split.bucket);
      }
    }
  }
  return out;
}

// The HASH entries of the latest snapshot's index manifest.
inline std::vector<IndexManifestEntry> LatestHashEntries(const std::string& path) {
  std::vector<IndexManifestEntry> out;
  auto table = FileStoreTable::Open(LocalFileIO(), path).value();
  auto latest = table->SelectSnapshot(TableVersion::Latest()).value();
  if (!latest || !latest->index_manifest) return out;
  auto entries =
      ReadIndexManifest(*LocalFileIO(), ManifestFilePath(path, *latest->index_manifest)).value();
  for (auto& e : entries) {
    if (e.index_type == kHashIndexType) out.push_back(std::move(e));
  }
  return out;
}

}  // namespace sluice::test
