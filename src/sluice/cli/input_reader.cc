#include "sluice/cli/input_reader.h"

namespace sluice::cli {

Result<std::unique_ptr<InputReader>> InputReader::Open(std::string_view format, std::string path,
                                                       DataTypePtr row_type, int64_t batch_rows) {
  if (batch_rows <= 0) {
    return Status::InvalidArgument("batch size must be positive, got " +
                                   std::to_string(batch_rows));
  }
  if (format == "jsonl") return OpenJsonlInput(std::move(path), std::move(row_type), batch_rows);
  if (format == "csv") return OpenCsvInput(std::move(path), std::move(row_type), batch_rows);
  if (format == "parquet") {
    return OpenParquetInput(std::move(path), std::move(row_type), batch_rows);
  }
  return Status::InvalidArgument("unknown input format '" + std::string(format) +
                                 "' (expected jsonl, csv or parquet)");
}

std::string ColumnNames(const DataType& row_type) {
  std::string out;
  for (const DataField& field : row_type.fields()) {
    if (!out.empty()) out += ", ";
    out += "'" + field.name + "'";
  }
  return out;
}

}  // namespace sluice::cli
