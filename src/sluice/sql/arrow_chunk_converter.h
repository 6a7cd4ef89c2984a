// ArrowChunkConverter: Sluice ColumnBatches into DuckDB data chunks through the Arrow C Data
// Interface (arrow.h's export, DuckDB's duckdb_data_chunk_from_arrow), so the two agree on
// every type's mapping (nested types included) in one place: DuckDB's Arrow import. Fixed-width
// columns are not copied on either side; the chunk holds the batch until DuckDB drops it.
//
// Thread safety: Convert may be called concurrently (it only reads the converter and the
// connection's settings).
#pragma once

#include <duckdb.h>

#include <memory>
#include <vector>

#include "sluice/column_batch.h"
#include "sluice/data_type.h"
#include "sluice/result.h"

namespace sluice::sql {

class ArrowChunkConverter {
 public:
  // For batches of `row_type`; `connection` gives DuckDB's Arrow settings and must outlive the
  // converter. InvalidArgument naming a column without an Arrow or DuckDB type.
  static Result<std::unique_ptr<ArrowChunkConverter>> Make(duckdb_connection connection,
                                                           DataTypePtr row_type);
  ~ArrowChunkConverter();
  ArrowChunkConverter(const ArrowChunkConverter&) = delete;
  ArrowChunkConverter& operator=(const ArrowChunkConverter&) = delete;

  // The DuckDB type of each column (owned by the converter).
  const std::vector<duckdb_logical_type>& types() const { return types_; }

  // `batch` as a chunk of its row count (which may exceed DuckDB's vector size); the caller
  // destroys it with duckdb_destroy_data_chunk.
  Result<duckdb_data_chunk> Convert(std::shared_ptr<const ColumnBatch> batch) const;

 private:
  ArrowChunkConverter(duckdb_connection connection, DataTypePtr row_type)
      : connection_(connection), row_type_(std::move(row_type)) {}

  duckdb_connection connection_;
  DataTypePtr row_type_;
  duckdb_arrow_converted_schema schema_ = nullptr;
  std::vector<duckdb_logical_type> types_;
};

// The message of a DuckDB error, which is destroyed.
std::string TakeErrorMessage(duckdb_error_data error);

}  // namespace sluice::sql
