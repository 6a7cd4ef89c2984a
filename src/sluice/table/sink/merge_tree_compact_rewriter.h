// MergeTreeCompactRewriter: the CompactRewriter of a primary-key bucket (Java
// MergeTreeCompactRewriter): reads each section's sorted runs merged in merge order
// (SortedRunMergeReader), folds the records of each key with the table's merge function, and
// writes the results with a key-value RollingDataFileWriter at the output level (file source
// COMPACT, rolled at `target-file-size`). Records keep their sequence numbers.
//
//   - A key with a single record is written as it is, without the merge function (Java
//     ReducerMergeFunctionWrapper).
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

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sluice/lsm/compact_rewriter.h"
#include "sluice/lsm/merge_function.h"
#include "sluice/lsm/sequence_comparator.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/sink/rolling_data_file_writer.h"
#include "sluice/table/sink/sorted_run_merge_reader.h"
#include "sluice/table/sink/table_write.h"

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
  bool RewritesLevel0Upgrades() const override { return first_row_; }

 private:
  MergeTreeCompactRewriter(std::shared_ptr<const FileStoreTable> table, std::string partition,
                           std::shared_ptr<DataFileWriterFactory> writers,
                           std::shared_ptr<const TableSchema> schema,
                           std::unique_ptr<MergeFunction> merge_function, KeyValueMergeOrder order)
      : table_(std::move(table)),
        partition_(std::move(partition)),
        writers_(std::move(writers)),
        schema_(std::move(schema)),
        merge_function_(std::move(merge_function)),
        order_(std::move(order)) {}

  // `higher`: the records of the runs above the output level (first-row lookup), or null.
  Status MergeSection(const std::vector<SortedRun>& runs, bool drop_delete,
                      SortedRunMergeReader* higher, RollingDataFileWriter* writer);

  std::shared_ptr<const FileStoreTable> table_;
  std::string partition_;
  std::shared_ptr<DataFileWriterFactory> writers_;
  std::shared_ptr<const TableSchema> schema_;  // the writers' schema, files are read under it
  std::unique_ptr<MergeFunction> merge_function_;
  KeyValueMergeOrder order_;
  bool first_row_ = false;
  std::vector<SortedRun> higher_runs_;
  // The current record of the higher runs' reader (first-row lookup), while it has one.
  std::optional<KeyValue> higher_record_;
};

// The CompactManagerFactory of FileStoreWriteOptions for primary-key tables: per bucket a
// MergeTreeCompactManager (universal compaction with the table's options) over a
// MergeTreeCompactRewriter; null ("flush only") when the table is `write-only`. NotSupported
// for tables with deletion vectors (Java's lookup rewriter, not built yet). Tables with
// changelog-producer lookup / full-compaction compact, but no changelog files are written yet.
// `background`: run compactions on a thread of their own.
Result<CompactManagerFactory> MakeMergeTreeCompactManagerFactory(
    std::shared_ptr<const FileStoreTable> table, bool background = false);

}  // namespace sluice
