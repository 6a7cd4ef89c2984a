// InputReader: the rows of a `sluice write` input file as ColumnBatches of a table's row type.
// Input columns are matched to the table's by name; a nullable column the input lacks is null,
// a NOT NULL one is an error, and an input column the table lacks is an error naming it. An
// optional `_ROW_KIND` column (kRowKindColumn) carries each row's kind (+I, -U, +U, -D).
//
//   jsonl    the public JsonLinesReader (json_lines_reader.h);
//   csv      a header line of column names, then one record per row (RFC 4180 quoting), values
//            as the public ParseValueText reads them (value_parser.h); an unquoted empty field
//            is null, a quoted one ("") the empty string;
//   parquet  read with our Parquet reader, columns cast to the table's types.
//
// A string (CHAR / VARCHAR) that is not well-formed UTF-8 is an error in every format. Errors
// name the file and, for text formats, the line, the column and the value (Parquet: the row).
//
// Thread safety: not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/column_batch.h"
#include "sluice/data_type.h"
#include "sluice/result.h"
#include "sluice/row_kind_column.h"

namespace sluice::cli {

class InputReader {
 public:
  virtual ~InputReader() = default;

  // `format`: jsonl, csv or parquet (InvalidArgument naming anything else); `path` "-" reads
  // standard input (text formats). Batches hold at most `batch_rows` rows of `row_type`.
  static Result<std::unique_ptr<InputReader>> Open(std::string_view format, std::string path,
                                                   DataTypePtr row_type, int64_t batch_rows);

  // Replaces `batch` (of the row type) with the next rows; `kinds` gets one kind per row when
  // the input has a `_ROW_KIND` column and is cleared otherwise. False at the end of the input.
  virtual Result<bool> Next(ColumnBatch* batch, std::vector<RowKind>* kinds) = 0;

  // Bytes of the input consumed so far (for progress), when known.
  virtual int64_t bytes_read() const = 0;
};

// The reader of each format (input_reader.cc dispatches).
Result<std::unique_ptr<InputReader>> OpenJsonlInput(std::string path, DataTypePtr row_type,
                                                    int64_t batch_rows);
Result<std::unique_ptr<InputReader>> OpenCsvInput(std::string path, DataTypePtr row_type,
                                                  int64_t batch_rows);
Result<std::unique_ptr<InputReader>> OpenParquetInput(std::string path, DataTypePtr row_type,
                                                      int64_t batch_rows);

// "'a', 'b'": the column names of `row_type`, for errors.
std::string ColumnNames(const DataType& row_type);

}  // namespace sluice::cli
