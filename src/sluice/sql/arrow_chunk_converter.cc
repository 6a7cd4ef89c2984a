#include "sluice/sql/arrow_chunk_converter.h"

#include <string>

#include "sluice/arrow.h"

namespace sluice::sql {

std::string TakeErrorMessage(duckdb_error_data error) {
  std::string message = duckdb_error_data_message(error);
  duckdb_destroy_error_data(&error);
  return message;
}

Result<std::unique_ptr<ArrowChunkConverter>> ArrowChunkConverter::Make(duckdb_connection connection,
                                                                       DataTypePtr row_type) {
  std::unique_ptr<ArrowChunkConverter> out(new ArrowChunkConverter(connection, row_type));
  ArrowSchema schema;
  SLUICE_RETURN_NOT_OK(ExportArrowSchema(*row_type, &schema));
  duckdb_error_data error = duckdb_schema_from_arrow(connection, &schema, &out->schema_);
  schema.release(&schema);
  if (error != nullptr) {
    return Status::InvalidArgument("DuckDB takes no Arrow schema of " + row_type->ToString() +
                                   ": " + TakeErrorMessage(error));
  }
  // DuckDB names its types only on a chunk: convert an empty batch and ask its vectors.
  SLUICE_ASSIGN_OR_RETURN(duckdb_data_chunk empty,
                          out->Convert(std::make_shared<ColumnBatch>(row_type)));
  for (idx_t i = 0; i < duckdb_data_chunk_get_column_count(empty); ++i) {
    out->types_.push_back(duckdb_vector_get_column_type(duckdb_data_chunk_get_vector(empty, i)));
  }
  duckdb_destroy_data_chunk(&empty);
  return out;
}

ArrowChunkConverter::~ArrowChunkConverter() {
  for (duckdb_logical_type& type : types_) duckdb_destroy_logical_type(&type);
  if (schema_ != nullptr) duckdb_destroy_arrow_converted_schema(&schema_);
}

Result<duckdb_data_chunk> ArrowChunkConverter::Convert(
    std::shared_ptr<const ColumnBatch> batch) const {
  ArrowArray array;
  SLUICE_RETURN_NOT_OK(ExportArrowArray(std::move(batch), &array));
  duckdb_data_chunk chunk = nullptr;
  // DuckDB takes the array over (and releases it), on error too.
  duckdb_error_data error = duckdb_data_chunk_from_arrow(connection_, &array, schema_, &chunk);
  if (error != nullptr) {
    if (array.release != nullptr) array.release(&array);
    return Status::Internal("DuckDB cannot take a batch of " + row_type_->ToString() + ": " +
                            TakeErrorMessage(error));
  }
  return chunk;
}

}  // namespace sluice::sql
