// DuckDbResultReader: the rows of a DuckDB result as ColumnBatches, through the Arrow C Data
// Interface (DuckDB's export, arrow.h's import), so `sluice sql` prints them with the printing
// code of `sluice read`. DuckDB types without a Sluice type (INTERVAL, unsigned integers, ...)
// fail by column name when the reader is made; CAST them in the query.
//
// Thread safety: not thread-safe; one consumer. The reader must be dropped before the
// connection that made the result runs another statement.
#pragma once

#include <duckdb.h>

#include <memory>

#include "sluice/arrow.h"
#include "sluice/batch_reader.h"

namespace sluice::sql {

class DuckDbResultReader : public BatchReader {
 public:
  // Takes `result` over (destroyed on error too), and `prepared` when given: the statement a
  // streaming result is still executing.
  static Result<std::unique_ptr<DuckDbResultReader>> Make(
      duckdb_result result, duckdb_prepared_statement prepared = nullptr);
  ~DuckDbResultReader() override;
  DuckDbResultReader(const DuckDbResultReader&) = delete;
  DuckDbResultReader& operator=(const DuckDbResultReader&) = delete;

  const DataTypePtr& output_type() const override { return row_type_; }
  Result<bool> Next(ColumnBatch* batch) override;

  // The result's Arrow schema (TableWrite takes arrays with it).
  const ArrowSchema& arrow_schema() const { return schema_; }
  // The next chunk as an Arrow struct array; false at the end.
  Result<bool> NextArrow(ArrowArray* out);

 private:
  DuckDbResultReader(duckdb_result result, duckdb_prepared_statement prepared)
      : result_(result), prepared_(prepared) {}

  duckdb_result result_;
  duckdb_prepared_statement prepared_;
  duckdb_arrow_options options_ = nullptr;
  ArrowSchema schema_{};
  DataTypePtr row_type_;
};

}  // namespace sluice::sql
