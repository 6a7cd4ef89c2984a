// Reading JSON lines (one JSON object a line, as `sluice read --format jsonl` prints rows) as
// ColumnBatches of a given ROW type: what engines and `sluice write --format jsonl` use to bring
// rows in.
//
// Members are matched to the row type's fields by name: a nullable field a line lacks is null,
// a NOT NULL one is an error, and so is a member the row type lacks. Values are read as
// value_parser.h describes (their JSON form). Blank lines are skipped. An optional `_ROW_KIND`
// member (kRowKindColumn) gives the row's kind: "+I", "-U", "+U" or "-D".
//
// Errors are InvalidArgument naming the input, the line, the column and the value, e.g.
// "rows.jsonl line 3: column 'price': 'abc' is not a valid DECIMAL(5, 2)"; an unreadable input
// is an IOError naming it.
//
// Thread safety: a reader has one consumer; distinct readers are independent.
#pragma once

#include <cstdint>
#include <istream>
#include <memory>
#include <string>
#include <vector>

#include "sluice/batch_reader.h"
#include "sluice/data_type.h"
#include "sluice/result.h"
#include "sluice/row_kind_column.h"

namespace sluice {

class JsonLinesReader : public BatchReader {
 public:
  // Reads the file at `path` in batches of up to `batch_rows` rows of `row_type` (a ROW type).
  static Result<std::unique_ptr<JsonLinesReader>> Open(const std::string& path,
                                                       DataTypePtr row_type,
                                                       int64_t batch_rows = 4096);
  // Reads `in` (standard input, a string stream), which must outlive the reader; errors name
  // the input `name`.
  static Result<std::unique_ptr<JsonLinesReader>> Open(std::istream* in, std::string name,
                                                       DataTypePtr row_type,
                                                       int64_t batch_rows = 4096);

  // The kinds of the last batch's rows, one a row, when a line of that batch had a `_ROW_KIND`
  // member (lines without one are +I); empty when none had, every row then being +I.
  virtual const std::vector<RowKind>& row_kinds() const = 0;

  // Bytes of the input consumed so far (for progress).
  virtual int64_t bytes_read() const = 0;
};

}  // namespace sluice
