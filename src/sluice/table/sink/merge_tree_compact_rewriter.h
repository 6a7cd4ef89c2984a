// MergeTreeCompactRewriter: the CompactRewriter of a primary-key bucket (Java
// MergeTreeCompactRewriter; ChangelogMergeTreeRewriter extends it for changelog producers): merges
// each section's sorted runs (SortedRunFileReader under the writers' schema, SortedRunMerge with
// the table's merge function, column by column) and writes the results with a key-value
// RollingDataFileWriter at the output level (file source COMPACT, rolled at `target-file-size`).
// Records keep their sequence numbers.
//
//   - A key with a single record is written as it is, without the merge function (Java
//     ReducerMergeFunctionWrapper); deduplicate and first-row pick a key's record without
//     building KeyValues.
//   - With drop_delete, results of kind -U / -D are not written (Java DropDeleteReader).
//   - On failure every file written so far is deleted.
//   - First-row tables (read without merging, level 0 hidden): a key already present in a run
//     above the output level is not written, and level-0 files are rewritten rather than moved
//     up, so that every key lives in one file above level 0 (Java
//     FirstRowMergeTreeCompactRewriter with FirstRowMergeFunctionWrapper).
//
// MakeMergeTreeCompactManagerFactory builds, for FileStoreWrite, the compaction manager of each
// bucket: MergeTreeCompactManager over this rewriter with the table's compaction options.
//
// Thread safety: one compaction at a time (see CompactRewriter).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sluice/io/rolling_data_file_writer.h"
#include "sluice/lsm/compact_rewriter.h"
#include "sluice/lsm/deduplicate_merge_function.h"
#include "sluice/lsm/merge_function.h"
#include "sluice/lsm/sorted_run_merge.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/sink/file_store_write.h"
#include "sluice/table/source/data_split.h"

namespace sluice {

class MergeTreeCompactRewriter : public CompactRewriter {
 public:
  // `writers`: the bucket's file writer factory (its schema is the one files are read under).
  // `partition`: the serialized partition row of the bucket.
  static Result<std::unique_ptr<MergeTreeCompactRewriter>> Make(
      std::shared_ptr<const FileStoreTable> table, std::string partition,
      std::shared_ptr<DataFileWriterFactory> writers);

  Result<CompactResult> Rewrite(int output_level, bool drop_delete,
                                const std::vector<std::vector<SortedRun>>& sections) override;
  void SetHigherRuns(std::vector<SortedRun> runs) override { higher_runs_ = std::move(runs); }
  // The deleted row positions of a data file (sorted), or nullopt: input files are read under
  // them (deletion-vector tables, whose superseded rows must not come back in a merge).
  using DeletedPositions = std::function<std::optional<std::vector<int64_t>>(const std::string&)>;
  void SetDeletedPositions(DeletedPositions deleted) { deleted_ = std::move(deleted); }
  bool RewritesLevel0Upgrades() const override { return first_row_; }
  ~MergeTreeCompactRewriter() override;

 protected:
  // What Make derives from the writers' schema and the table's options.
  struct Parts {
    std::shared_ptr<const TableSchema> schema;
    CoreOptions options;
    std::unique_ptr<MergeFunction> merge_function;
    SortedRunMerge::Options merge_options;
  };
  static Result<Parts> MakeParts(const FileStoreTable& table, const DataFileWriterFactory& writers);

  MergeTreeCompactRewriter(std::shared_ptr<const FileStoreTable> table, std::string partition,
                           std::shared_ptr<DataFileWriterFactory> writers, Parts parts);

  // A section being merged: its files as one split (which the run readers refer to) and the
  // merge over them.
  struct SectionMerge {
    DataSplit split;
    // Aligned with split.data_files when the files are read under deletion vectors.
    std::vector<std::optional<std::vector<int64_t>>> deleted;
    std::unique_ptr<SortedRunMerge> merge;
  };
  // The keys of the runs above the output level, walked once in key order alongside the
  // sections (first-row lookup).
  class HigherKeys;

  // Opens the merge of `runs` under `options`; `merge_function` folds their keys.
  Result<std::unique_ptr<SectionMerge>> OpenMerge(const std::vector<SortedRun>& runs,
                                                  SortedRunMerge::Options options,
                                                  MergeFunction* merge_function);
  // Writes the results of `merge` with `writer` (none: they are dropped). `higher`: the keys
  // above the output level (first-row lookup), or null. `after_batch` (may be empty) runs after
  // every batch the merge hands out.
  Status WriteMerge(SectionMerge* merge, HigherKeys* higher, RollingDataFileWriter* writer,
                    const std::function<Status()>& after_batch);

  std::shared_ptr<const FileStoreTable> table_;
  std::string partition_;
  std::shared_ptr<DataFileWriterFactory> writers_;
  std::shared_ptr<const TableSchema> schema_;  // the writers' schema, files are read under it
  CoreOptions options_;
  std::unique_ptr<MergeFunction> merge_function_;
  // Record layout of the whole table row; drop_retractions is set per compaction.
  SortedRunMerge::Options merge_options_;
  bool first_row_ = false;
  std::vector<SortedRun> higher_runs_;
  DeletedPositions deleted_;

 private:
  Status MergeSection(const std::vector<SortedRun>& runs, bool drop_delete, HigherKeys* higher,
                      RollingDataFileWriter* writer);

  // Keeps the newest record of each key: the higher runs are read for their keys only.
  DeduplicateMergeFunction higher_keys_function_{/*ignore_delete=*/false};
  std::unique_ptr<ColumnBatch> out_;  // key-value layout rows waiting to be written
  std::vector<int64_t> kept_;
};

// The CompactManagerFactory of FileStoreWriteOptions for primary-key tables: per bucket a
// MergeTreeCompactManager (universal compaction with the table's options) over a
// MergeTreeCompactRewriter (LookupMergeTreeCompactRewriter for tables with deletion vectors, a
// ChangelogMergeTreeRewriter for changelog-producer lookup / full-compaction and for
// `force-lookup`, first-row aside); null ("flush only") when the table is `write-only`.
// NotSupported for deletion vectors together with changelog-producer full-compaction (as Java).
// `background`: run compactions on a thread of their own.
Result<CompactManagerFactory> MakeMergeTreeCompactManagerFactory(
    std::shared_ptr<const FileStoreTable> table, bool background = false);

}  // namespace sluice
