// Helpers of the compaction tests: primary-key tables written through FileStoreWrite with
// compaction, committed with FileStoreCommit, read back through PlanScan + OpenSplitReader.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sluice/fs/file_io.h"
#include "sluice/meta/file_paths.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/sink/file_store_commit.h"
#include "sluice/table/sink/file_store_write.h"
#include "sluice/table/sink/merge_tree_compact_rewriter.h"
#include "sluice/table/source/scan_planner.h"
#include "sluice/table/source/split_reader.h"
#include "test_util.h"

namespace sluice::test {

// Writes schema-0 of a table (append or primary-key; ids as the fields carry them) and opens it
// (on `io`).
inline std::shared_ptr<const FileStoreTable> CreateTestTable(
    const std::string& path, std::vector<DataField> fields, std::vector<std::string> partition_keys,
    std::vector<std::string> primary_keys, TableOptions options,
    std::shared_ptr<FileIO> io = LocalFileIO()) {
  int32_t highest = 0;
  for (const DataField& f : fields) highest = std::max(highest, f.id);
  auto schema =
      TableSchema::Make(3, 0, std::move(fields), highest, std::move(partition_keys),
                        std::move(primary_keys), std::move(options), std::nullopt, 1700000000000);
  EXPECT_OK(schema);
  EXPECT_OK(io->MkDirs(SchemaDir(path)));
  EXPECT_OK(io->WriteFileAtomic(SchemaPath(path, 0), schema->ToJson(), false));
  auto table = FileStoreTable::Open(io, path);
  EXPECT_OK(table);
  return std::move(table).value();
}

// A FileStoreWrite whose primary-key buckets compact (MergeTreeCompactManager).
inline std::unique_ptr<FileStoreWrite> OpenCompactingWrite(const std::string& path,
                                                           bool background = false) {
  auto table = FileStoreTable::Open(LocalFileIO(), path).value();
  FileStoreWriteOptions options;
  auto factory = MakeMergeTreeCompactManagerFactory(table, background);
  EXPECT_OK(factory);
  options.compact_manager_factory = std::move(factory).value();
  auto write = FileStoreWrite::Open(table, options);
  EXPECT_OK(write);
  return std::move(write).value();
}

inline Status WriteRows(FileStoreWrite* write, const DataTypePtr& row_type,
                        const std::vector<ValueList>& rows, const std::vector<RowKind>& kinds) {
  ColumnBatch batch(row_type);
  for (const ValueList& row : rows) SLUICE_RETURN_NOT_OK(batch.AppendRow(row));
  batch.set_num_rows(static_cast<int64_t>(rows.size()));
  return write->Write(batch, kinds.empty() ? nullptr : kinds.data());
}

inline Status Commit(const std::string& path, FileStoreWrite* write, int64_t identifier) {
  auto table = FileStoreTable::Open(LocalFileIO(), path);
  SLUICE_RETURN_NOT_OK(table.status());
  SLUICE_ASSIGN_OR_RETURN(std::vector<CommitMessageImpl> messages,
                          write->PrepareCommit(identifier, /*wait_compaction=*/false));
  SLUICE_ASSIGN_OR_RETURN(auto commit, FileStoreCommit::Make(*table, "compaction-test"));
  ManifestCommittable committable;
  committable.identifier = identifier;
  committable.messages = std::move(messages);
  return commit->Commit(committable).status();
}

// The rows of `split` appended to `out`, rendered (Value::DebugString); false (with the test
// failed) when the split does not read.
inline bool AppendSplitRows(const FileStoreTable& table, const DataSplit& split,
                            std::vector<std::string>* out) {
  auto reader = OpenSplitReader(table, table.schema_ptr(), split, SplitReadOptions{});
  EXPECT_OK(reader);
  if (!reader.ok()) return false;
  ColumnBatch batch((*reader)->output_type());
  while (true) {
    auto more = (*reader)->Next(&batch);
    EXPECT_OK(more);
    if (!more.ok()) return false;
    if (!*more) return true;
    for (int64_t i = 0; i < batch.num_rows(); ++i) out->push_back(batch.GetRow(i).DebugString());
  }
}

// Every row of `version` (on `io`), rendered, sorted.
inline std::vector<std::string> ReadAll(const std::string& path,
                                        std::shared_ptr<FileIO> io = LocalFileIO(),
                                        TableVersion version = TableVersion::Latest()) {
  std::vector<std::string> out;
  auto table = FileStoreTable::Open(std::move(io), path);
  EXPECT_OK(table);
  if (!table.ok()) return out;
  ScanOptions scan;
  scan.version = version;
  auto plan = PlanScan(**table, scan);
  EXPECT_OK(plan);
  if (!plan.ok()) return out;
  for (const DataSplit& split : plan->splits) {
    if (!AppendSplitRows(**table, split, &out)) return out;
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The live data files of the latest snapshot.
inline std::vector<DataFileMeta> LiveFiles(const std::string& path) {
  std::vector<DataFileMeta> files;
  auto table = FileStoreTable::Open(LocalFileIO(), path);
  if (!table.ok()) return files;
  auto plan = PlanScan(**table, ScanOptions{});
  if (!plan.ok()) return files;
  for (DataSplit& split : plan->splits) {
    files.insert(files.end(), split.data_files.begin(), split.data_files.end());
  }
  return files;
}

inline std::vector<std::string> RenderModel(const std::map<int64_t, ValueList>& model) {
  std::vector<std::string> out;
  for (const auto& [key, row] : model) out.push_back(Value::Row(row).DebugString());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace sluice::test
