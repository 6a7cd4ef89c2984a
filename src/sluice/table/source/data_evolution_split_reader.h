// DataEvolutionSplitReader: the rows of an append split of a row-tracking or data-evolution
// table (Java DataEvolutionSplitRead and row tracking).
//
// Row tracking gives every row an id (`_ROW_ID`: the file's first_row_id + the row's position,
// unless the file stores the column, as compacted files do) and a `_SEQUENCE_NUMBER` (stored,
// else the file's max sequence number); both may be projected.
//
// Data evolution: a later commit may rewrite some columns of existing rows in a new file with
// the same first_row_id (its write_cols name the columns), and BLOB columns live in `.blob`
// side files that cover row ranges of their own. Files whose row ranges overlap form a group;
// each row of a group takes each column from the newest file (highest sequence number) that
// wrote that column and covers the row; a column no file wrote is null. Filters apply to the
// stitched rows.
//
// A group is read whole into memory (its files' projected and filtered columns) before its
// rows are handed out in batches.
//
// Thread safety: not thread-safe; one reader per thread.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "sluice/column_batch.h"
#include "sluice/meta/table_schema.h"
#include "sluice/result.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/source/data_split.h"
#include "sluice/table/source/split_read_options.h"
#include "sluice/table/source/split_reader.h"
#include "sluice/types/time_zone.h"

namespace sluice {

inline constexpr int32_t kRowIdFieldId = 2147483642;
inline constexpr int32_t kSequenceNumberFieldId = 2147483646;

class DataEvolutionSplitReader : public SplitReader {
 public:
  // True when `table` needs this reader for a read projecting `projection`: data evolution is
  // on, or row tracking is on and a system column is projected.
  static bool Handles(const FileStoreTable& table, const std::vector<std::string>& projection);

  static Result<std::unique_ptr<SplitReader>> Open(const FileStoreTable& table,
                                                   std::shared_ptr<const TableSchema> read_schema,
                                                   DataSplit split, SplitReadOptions options);

  const DataTypePtr& output_type() const override { return output_type_; }
  Result<bool> Next(ColumnBatch* batch) override;

 private:
  DataEvolutionSplitReader(const FileStoreTable& table,
                           std::shared_ptr<const TableSchema> read_schema, DataSplit split)
      : table_(table), read_schema_(std::move(read_schema)), split_(std::move(split)) {}

  // Reads group `index` into group_batch_ and selects its rows.
  Status LoadGroup(size_t index);
  // Appends the columns `fields` (of work_type_) of data file `file` to `columns`, all rows.
  Status ReadFileColumns(size_t file, const std::vector<int>& fields,
                         std::vector<std::unique_ptr<ColumnVector>>* columns);

  const FileStoreTable& table_;
  std::shared_ptr<const TableSchema> read_schema_;
  DataSplit split_;
  std::shared_ptr<const TimeZone> session_zone_;
  int64_t batch_size_ = 4096;

  // Read-schema fields the projection and the filter need, then _ROW_ID and _SEQUENCE_NUMBER.
  DataTypePtr work_type_;
  int row_id_column_ = 0;
  int sequence_column_ = 0;
  std::vector<int> partition_index_;  // per work column: index into partition values, or -1
  PredicatePtr filter_;               // over work_type_
  DataTypePtr output_type_;
  std::vector<int> projection_;  // work_type_ column of each output column

  std::vector<std::vector<size_t>> groups_;  // file indexes of each group
  size_t next_group_ = 0;
  std::unique_ptr<ColumnBatch> group_batch_;
  std::vector<int64_t> selected_;
  size_t next_selected_ = 0;
};

}  // namespace sluice
