// DeltaSplitReader: the records of a primary-key delta split of a streaming read (Java
// IncrementalChangelogReadProvider over MergeFileSplitRead.createNoMergeReader): its files read
// one after another as they are, never merged, every record with the row kind its file stored
// in `_VALUE_KIND` (+I, -U, +U, -D), filtered and projected. With options.with_row_kind the
// kind is the leading `_ROW_KIND` column.
//
// Thread safety: not thread-safe; one reader per thread.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "sluice/result.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/source/data_split.h"
#include "sluice/table/source/key_value_file_reader.h"
#include "sluice/table/source/read_columns.h"
#include "sluice/table/source/split_reader.h"

namespace sluice {

class DeltaSplitReader : public SplitReader {
 public:
  static Result<std::unique_ptr<DeltaSplitReader>> Open(
      const FileStoreTable& table, std::shared_ptr<const TableSchema> read_schema, DataSplit split,
      SplitReadOptions options);

  const DataTypePtr& output_type() const override { return columns_.output_type; }
  Result<bool> Next(ColumnBatch* batch) override;

 private:
  DeltaSplitReader(const FileStoreTable& table, std::shared_ptr<const TableSchema> read_schema,
                   DataSplit split, SplitReadOptions options, ReadColumns columns,
                   std::shared_ptr<const TimeZone> session_zone);

  const FileStoreTable& table_;
  std::shared_ptr<const TableSchema> read_schema_;
  DataSplit split_;
  SplitReadOptions options_;
  ReadColumns columns_;
  std::shared_ptr<const TimeZone> session_zone_;

  size_t next_file_ = 0;
  std::unique_ptr<KeyValueFileReader> reader_;
  ColumnBatch records_;
  std::vector<uint8_t> selection_;
  std::vector<int64_t> rows_;
};

}  // namespace sluice
