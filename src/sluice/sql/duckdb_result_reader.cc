#include "sluice/sql/duckdb_result_reader.h"

#include <string>
#include <vector>

#include "sluice/sql/arrow_chunk_converter.h"

namespace sluice::sql {

Result<std::unique_ptr<DuckDbResultReader>> DuckDbResultReader::Make(
    duckdb_result result, duckdb_prepared_statement prepared) {
  std::unique_ptr<DuckDbResultReader> reader(new DuckDbResultReader(result, prepared));
  reader->options_ = duckdb_result_get_arrow_options(&reader->result_);
  idx_t columns = duckdb_column_count(&reader->result_);
  std::vector<duckdb_logical_type> types;
  std::vector<const char*> names;
  for (idx_t i = 0; i < columns; ++i) {
    types.push_back(duckdb_column_logical_type(&reader->result_, i));
    names.push_back(duckdb_column_name(&reader->result_, i));
  }
  duckdb_error_data error = duckdb_to_arrow_schema(reader->options_, types.data(), names.data(),
                                                   columns, &reader->schema_);
  for (duckdb_logical_type& type : types) duckdb_destroy_logical_type(&type);
  if (error != nullptr) {
    return Status::InvalidArgument("the result has no Arrow schema: " + TakeErrorMessage(error));
  }
  Result<DataTypePtr> row_type = ImportArrowSchema(reader->schema_);
  if (!row_type.ok()) {
    return Status::InvalidArgument("a result column has no Sluice type (CAST it): " +
                                   row_type.status().message());
  }
  reader->row_type_ = *row_type;
  return reader;
}

DuckDbResultReader::~DuckDbResultReader() {
  if (schema_.release != nullptr) schema_.release(&schema_);
  if (options_ != nullptr) duckdb_destroy_arrow_options(&options_);
  duckdb_destroy_result(&result_);
  if (prepared_ != nullptr) duckdb_destroy_prepare(&prepared_);
}

Result<bool> DuckDbResultReader::NextArrow(ArrowArray* out) {
  while (true) {
    duckdb_data_chunk chunk = duckdb_fetch_chunk(result_);
    if (chunk == nullptr) {
      const char* error = duckdb_result_error(&result_);
      if (error != nullptr) return Status::InvalidArgument(error);
      return false;
    }
    if (duckdb_data_chunk_get_size(chunk) == 0) {
      duckdb_destroy_data_chunk(&chunk);
      continue;
    }
    duckdb_error_data error = duckdb_data_chunk_to_arrow(options_, chunk, out);
    duckdb_destroy_data_chunk(&chunk);
    if (error != nullptr) return Status::Internal(TakeErrorMessage(error));
    return true;
  }
}

Result<bool> DuckDbResultReader::Next(ColumnBatch* batch) {
  ArrowArray array;
  SLUICE_ASSIGN_OR_RETURN(bool more, NextArrow(&array));
  if (!more) return false;
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<ColumnBatch> rows,
                          ImportArrowArray(&array, schema_, row_type_));
  *batch = std::move(*rows);
  return true;
}

}  // namespace sluice::sql
