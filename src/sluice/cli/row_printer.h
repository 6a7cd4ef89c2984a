// RowPrinter: prints ColumnBatches for `sluice read` in one of its output formats:
//   jsonl  one JSON object per row, keyed by column name, values as value_json.h encodes them;
//   csv    a header row, then one line per row; null is an empty field, strings bare, other
//          values as their JSON text without quotes; RFC 4180 quoting;
//   table  an aligned table for people, in pages of up to 1000 rows (each sized to its rows),
//          then the row count.
//
// Thread safety: not thread-safe.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/column_batch.h"
#include "sluice/result.h"

namespace sluice::cli {

class RowPrinter {
 public:
  virtual ~RowPrinter() = default;

  // "table", "jsonl" or "csv"; InvalidArgument naming anything else. Prints to `out`.
  static Result<std::unique_ptr<RowPrinter>> Make(std::string_view format, const DataType& row_type,
                                                  std::FILE* out);

  void Print(const ColumnBatch& batch) { PrintFirst(batch, batch.num_rows()); }
  // Prints the first `rows` rows of `batch`. REQUIRES: rows <= batch.num_rows().
  virtual void PrintFirst(const ColumnBatch& batch, int64_t rows) = 0;
  // Prints the rows held so far (a table's pending page) and flushes: a follower hands each
  // snapshot's rows on before it records its progress.
  virtual void Flush() = 0;
  // Prints what is still held (the last page of a table, the row count) and flushes.
  virtual void Finish() = 0;
};

}  // namespace sluice::cli
