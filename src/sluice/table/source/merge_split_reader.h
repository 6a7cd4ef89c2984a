// MergeSplitReader: the rows of a primary-key split whose files must be merged (Java
// MergeFileSplitRead): the split's files are grouped into sections of overlapping key ranges
// (IntervalPartition); the sorted runs of a section are merged by SortedRunMerge (merge order:
// key, then `sequence.field` values, then sequence number; the records of each key folded by the
// table's merge engine, results of kind -U / -D dropped); then the filter is applied (after
// merging: a value predicate must not hide an older version of a row from the merge) and the
// projection.
//
//   files -> sections -> per section: runs -> SortedRunFileReader batches -> SortedRunMerge
//         -> filter -> projection
//
// Results are gathered column by column from the decoded batches (TakeRows), never materialized
// as Values, except where a folding engine (partial-update, aggregation) merged several records
// of a key. Engines that pick one record (deduplicate, first-row) decode only the projected,
// filtered, key and sequence columns; folding engines decode every field. The engine and its
// options come from the read schema's options plus the table's dynamic options.
//
// Deleted positions (deletion vectors of a streaming full read) are dropped from their files
// before merging. Errors name the data file.
//
// Thread safety: not thread-safe; one reader per thread.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "sluice/lsm/merge_function.h"
#include "sluice/lsm/sorted_run_merge.h"
#include "sluice/result.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/source/data_split.h"
#include "sluice/table/source/read_columns.h"
#include "sluice/table/source/split_reader.h"
#include "sluice/types/time_zone.h"

namespace sluice {

class MergeSplitReader : public SplitReader {
 public:
  static Result<std::unique_ptr<MergeSplitReader>> Open(
      const FileStoreTable& table, std::shared_ptr<const TableSchema> read_schema, DataSplit split,
      SplitReadOptions options);

  const DataTypePtr& output_type() const override { return columns_.output_type; }
  Result<bool> Next(ColumnBatch* batch) override;

 private:
  // A sorted run as indexes of the split's files, in key order.
  using RunFiles = std::vector<size_t>;

  MergeSplitReader(const FileStoreTable& table, std::shared_ptr<const TableSchema> read_schema,
                   DataSplit split, SplitReadOptions options, ReadColumns columns,
                   std::vector<std::vector<RunFiles>> sections,
                   std::unique_ptr<MergeFunction> merge_function, SortedRunMerge::Options merge,
                   std::shared_ptr<const TimeZone> session_zone);

  Status OpenSection(size_t index);
  // The merge's consumer: results go to out_ (no filter) or staged_ (filter).
  Status Take(const ColumnBatch* const* sources, size_t num_sources, const uint32_t* indexes,
              const int64_t* rows, int64_t n);

  const FileStoreTable& table_;
  std::shared_ptr<const TableSchema> read_schema_;
  DataSplit split_;
  SplitReadOptions options_;
  ReadColumns columns_;
  std::vector<std::vector<RunFiles>> sections_;
  std::unique_ptr<MergeFunction> merge_function_;
  SortedRunMerge::Options merge_options_;
  std::shared_ptr<const TimeZone> session_zone_;
  SortedRunMerge::GatherConsumer consumer_;

  size_t next_section_ = 0;
  std::unique_ptr<SortedRunMerge> merge_;  // of the open section, or null

  ColumnBatch* out_ = nullptr;  // the batch Next() fills
  // Merged rows not yet filtered (with a filter), in record layout.
  std::unique_ptr<ColumnBatch> staged_;
  std::vector<uint8_t> selection_;
  std::vector<int64_t> rows_;
  std::vector<const ColumnVector*> staged_sources_;
};

}  // namespace sluice
