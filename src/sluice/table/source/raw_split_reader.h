// RawSplitReader: the rows of an append-table split (Java RawFileSplitRead): its data files in
// order, each mapped from the schema it was written under to the read schema by field id
// (FileEvolution), minus deleted positions, filtered by a row predicate and projected.
//
// Primary-key splits that are not raw-convertible need a merge of their sorted runs (issue 5:
// a MergeFileSplitRead over src/sluice/lsm/ merge functions that reads each file through the
// same FileEvolution with the key and sequence columns, then merges); this reader rejects them.
//
// Thread safety: not thread-safe; one reader per thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sluice/column_batch.h"
#include "sluice/format/file_format.h"
#include "sluice/predicate/predicate.h"
#include "sluice/result.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/source/data_split.h"
#include "sluice/table/source/schema_evolution.h"
#include "sluice/table/source/split_reader.h"

namespace sluice {

class RawSplitReader : public SplitReader {
 public:
  // `read_schema` is the schema rows are produced in (the table's latest or a requested one).
  static Result<std::unique_ptr<RawSplitReader>> Open(
      const FileStoreTable& table, std::shared_ptr<const TableSchema> read_schema, DataSplit split,
      SplitReadOptions options);

  // The projected row type of every batch.
  const DataTypePtr& output_type() const override { return output_type_; }

  // Replaces `batch` (of output_type()) with the next non-empty run of rows; false at the end.
  Result<bool> Next(ColumnBatch* batch) override;

 private:
  RawSplitReader(const FileStoreTable& table, std::shared_ptr<const TableSchema> read_schema,
                 DataSplit split, SplitReadOptions options, DataTypePtr read_type,
                 DataTypePtr output_type, std::vector<int> projection);

  Status OpenFile(size_t index);

  const FileStoreTable& table_;
  std::shared_ptr<const TableSchema> read_schema_;
  DataSplit split_;
  SplitReadOptions options_;  // filter remapped to read_type_
  DataTypePtr read_type_;     // read-schema fields the projection and the filter need
  DataTypePtr output_type_;
  std::vector<int> projection_;      // read_type_ column of each output column
  bool projection_distinct_ = true;  // no read column goes to two output columns

  size_t next_file_ = 0;
  std::unique_ptr<FormatReader> file_reader_;
  std::optional<FileEvolution> evolution_;
  std::unique_ptr<ColumnBatch> file_batch_;
  std::unique_ptr<ColumnBatch> read_batch_;
  std::vector<uint8_t> selection_;
  std::vector<int64_t> selected_rows_;
};

}  // namespace sluice
