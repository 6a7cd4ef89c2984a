// ParquetFileFormat: the "parquet" FileFormat (Paimon's default `file.format`).
//
// Thread safety: immutable and thread-safe.
#pragma once

#include <memory>

#include "sluice/format/file_format.h"

namespace sluice::parquet {

class ParquetFileFormat final : public FileFormat {
 public:
  std::string_view identifier() const override { return "parquet"; }

  Result<std::unique_ptr<FormatReader>> CreateReader(std::shared_ptr<RandomAccessFile> file,
                                                     DataTypePtr read_type,
                                                     const ReaderOptions& options) const override;

  Result<std::unique_ptr<FormatWriter>> CreateWriter(std::unique_ptr<WritableFile> file,
                                                     DataTypePtr write_type,
                                                     const WriterOptions& options) const override;

  // Java ParquetSchemaConverter converts every type Paimon has.
  Status ValidateDataFields(const DataType& row_type) const override { return Status::OK(); }
};

}  // namespace sluice::parquet

namespace sluice {

// The shared instance of the Parquet format.
std::shared_ptr<const FileFormat> ParquetFormat();

}  // namespace sluice
