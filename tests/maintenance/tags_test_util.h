// Helpers of the tag and branch tests: a partitioned table on any FileIO (usually a MemoryFileIO),
// rows written and committed on any branch through FileStoreWrite + FileStoreCommit, and read
// back on any branch and version.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sluice/fs/memory_file_io.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/sink/file_store_commit.h"
#include "sluice/table/sink/file_store_write.h"
#include "sluice/table/source/scan_planner.h"
#include "sluice/table/source/split_reader.h"
#include "sluice/table/table_checker.h"
#include "table/compaction_test_util.h"
#include "test_util.h"

namespace sluice::test::tags {

inline constexpr char kMaintenanceTable[] = "/warehouse/db.db/t";

// (k BIGINT NOT NULL, p STRING NOT NULL, v STRING), partitioned by p; primary key (k, p) unless
// `append`.
inline std::vector<DataField> MaintenanceFields() {
  return {DataField{0, "k", DataType::BigInt(false), std::nullopt, std::nullopt},
          DataField{1, "p", DataType::String(false), std::nullopt, std::nullopt},
          DataField{2, "v", DataType::String(), std::nullopt, std::nullopt}};
}

inline DataTypePtr MaintenanceRowType() { return DataType::Row(MaintenanceFields()); }

inline std::shared_ptr<const FileStoreTable> CreateMaintenanceTable(std::shared_ptr<FileIO> io,
                                                                    bool append,
                                                                    TableOptions options = {}) {
  if (options.empty()) options = {{"bucket", "2"}};
  return CreateTestTable(kMaintenanceTable, MaintenanceFields(), {"p"},
                         append ? std::vector<std::string>{} : std::vector<std::string>{"k", "p"},
                         std::move(options), std::move(io));
}

inline Result<std::shared_ptr<FileStoreTable>> OpenBranch(const std::shared_ptr<FileIO>& io,
                                                          const std::string& branch = "main") {
  return FileStoreTable::Open(io, kMaintenanceTable, branch);
}

// Writes `rows` to `branch` and commits them; returns the snapshot ids made.
inline Result<std::vector<int64_t>> WriteAndCommit(const std::shared_ptr<FileIO>& io,
                                                   const std::string& branch,
                                                   const std::vector<ValueList>& rows) {
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> table, OpenBranch(io, branch));
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<FileStoreWrite> write, FileStoreWrite::Open(table));
  Result<CommitResult> result = [&]() -> Result<CommitResult> {
    SLUICE_RETURN_NOT_OK(WriteRows(write.get(), MaintenanceRowType(), rows, {}));
    SLUICE_ASSIGN_OR_RETURN(std::vector<CommitMessageImpl> messages,
                            write->PrepareCommit(Snapshot::kBatchCommitIdentifier, true));
    SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<FileStoreCommit> commit,
                            FileStoreCommit::Make(table, "test-" + branch));
    ManifestCommittable committable;
    committable.messages = std::move(messages);
    return commit->Commit(committable);
  }();
  write->Close().IgnoreError();  // the commit's outcome is what the test checks
  SLUICE_RETURN_NOT_OK(result.status());
  return result->snapshot_ids;
}

// Every row of `version` of `table`, rendered, sorted.
inline Result<std::vector<std::string>> ReadTableRows(const FileStoreTable& table,
                                                      TableVersion version) {
  ScanOptions scan;
  scan.version = version;
  SLUICE_ASSIGN_OR_RETURN(ScanPlan plan, PlanScan(table, scan));
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<const TableSchema> schema,
                          table.SchemaForVersion(version));
  std::vector<std::string> out;
  for (DataSplit& split : plan.splits) {
    SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<SplitReader> reader,
                            OpenSplitReader(table, schema, split, SplitReadOptions{}));
    ColumnBatch batch(reader->output_type());
    while (true) {
      SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
      if (!more) break;
      for (int64_t i = 0; i < batch.num_rows(); ++i) out.push_back(batch.GetRow(i).DebugString());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Every row of `version` of `branch`, rendered, sorted.
inline Result<std::vector<std::string>> ReadRowsOf(const std::shared_ptr<FileIO>& io,
                                                   const std::string& branch,
                                                   TableVersion version = TableVersion::Latest()) {
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> table, OpenBranch(io, branch));
  return ReadTableRows(*table, version);
}

inline ValueList Row(int64_t k, const std::string& p, const std::string& v) {
  return {Value::Int64(k), Value::String(p), Value::String(v)};
}

// Rows of a model keyed by (k, p), rendered as ReadRowsOf renders them.
using RowModel = std::map<std::pair<int64_t, std::string>, ValueList>;

inline void ApplyRows(const std::vector<ValueList>& rows, RowModel* model) {
  for (const ValueList& r : rows) (*model)[{r[0].int64(), r[1].bytes()}] = r;
}

inline std::vector<std::string> Render(const RowModel& model) {
  std::vector<std::string> out;
  for (const auto& [key, row] : model) out.push_back(Value::Row(row).DebugString());
  std::sort(out.begin(), out.end());
  return out;
}

// The problems `sluice check` finds in `branch` (all snapshots, data files re-read).
inline std::vector<std::string> CheckProblems(const std::shared_ptr<FileIO>& io,
                                              const std::string& branch = "main") {
  auto table = OpenBranch(io, branch);
  if (!table.ok()) return {table.status().ToString()};
  auto report = RunTableCheck(**table);
  if (!report.ok()) return {report.status().ToString()};
  return report->problems;
}

}  // namespace sluice::test::tags
