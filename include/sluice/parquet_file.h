// Reading a standalone Parquet file (any writer's, not a table's data file) as ColumnBatches:
// what engines and `sluice write --format parquet` use to bring rows in.
//
// Thread safety: a reader has one consumer; distinct readers are independent.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "sluice/batch_reader.h"
#include "sluice/data_type.h"
#include "sluice/result.h"

namespace sluice {

class ParquetFileReader : public BatchReader {
 public:
  // The file's columns as a ROW type. Errors name the file.
  static Result<DataTypePtr> ReadType(const std::string& path);
  // Reads the columns of `read_type` (a subset of ReadType's, by name) in batches of up to
  // `batch_rows` rows. Errors name the file.
  static Result<std::unique_ptr<ParquetFileReader>> Open(const std::string& path,
                                                         DataTypePtr read_type,
                                                         int64_t batch_rows = 4096);

  // Rows in the file, and its size in bytes.
  virtual int64_t num_rows() const = 0;
  virtual int64_t file_size() const = 0;
};

}  // namespace sluice
