// DiffSplitReader: the rows of a diff split (Java IncrementalDiffSplitRead): the split's
// before_files and data_files are each merged as a batch read merges them, and the two merged
// streams, both in key order, are compared key by key:
//
//   only after            the after row, with its kind (+I / +U);
//   in both, different    the after row;
//   in both, equal        nothing;
//   only before           -D with the before row, when the read keeps row kinds (a streaming
//                         or delta read, Java forceKeepDelete); nothing in a batch read.
//
// Then the filter and the projection. Rows are compared as Values: a diff reads the changed
// buckets once, it is not a scan path.
//
// Thread safety: not thread-safe; one reader per thread.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "sluice/column_batch.h"
#include "sluice/result.h"
#include "sluice/row_kind.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/source/data_split.h"
#include "sluice/table/source/read_columns.h"
#include "sluice/table/source/split_reader.h"

namespace sluice {

class DiffSplitReader : public SplitReader {
 public:
  static Result<std::unique_ptr<DiffSplitReader>> Open(
      const FileStoreTable& table, std::shared_ptr<const TableSchema> read_schema, DataSplit split,
      SplitReadOptions options);

  const DataTypePtr& output_type() const override { return columns_.output_type; }
  Result<bool> Next(ColumnBatch* batch) override;

 private:
  // One merged side: its reader and the batch being consumed ([_ROW_KIND] + value_type).
  struct Side {
    std::unique_ptr<SplitReader> reader;
    std::unique_ptr<ColumnBatch> batch;
    int64_t row = 0;
    bool done = false;
  };

  DiffSplitReader(SplitReadOptions options, ReadColumns columns, Side before, Side after);

  // Positions `side` at a row, reading the next batch when needed; false at its end.
  static Result<bool> Ready(Side* side);
  int CompareKeys(const Side& before, const Side& after) const;
  bool SameRow(const Side& before, const Side& after) const;
  // Stages the current row of `side` with `kind`.
  Status Stage(const Side& side, RowKind kind);

  SplitReadOptions options_;
  ReadColumns columns_;
  Side before_;
  Side after_;
  ColumnBatch staged_;  // value_type rows of the diff
  std::vector<int8_t> kinds_;
  std::vector<uint8_t> selection_;
  std::vector<int64_t> rows_;
};

}  // namespace sluice
