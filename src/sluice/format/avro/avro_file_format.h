// AvroFileFormat: the "avro" FileFormat (Paimon manifests, manifest lists, index manifests and
// Avro data files). Readers resolve columns by name (Avro files carry no field ids).
//
// Thread safety: immutable and thread-safe; its readers and writers are not.
#pragma once

#include <memory>
#include <string_view>

#include "sluice/format/file_format.h"

namespace sluice {

class AvroFileFormat : public FileFormat {
 public:
  std::string_view identifier() const override { return "avro"; }

  Result<std::unique_ptr<FormatReader>> CreateReader(std::shared_ptr<RandomAccessFile> file,
                                                     DataTypePtr read_type,
                                                     const ReaderOptions& options) const override;

  Result<std::unique_ptr<FormatWriter>> CreateWriter(std::unique_ptr<WritableFile> file,
                                                     DataTypePtr write_type,
                                                     const WriterOptions& options) const override;

  Status ValidateDataFields(const DataType& row_type) const override;
};

// The shared "avro" format, for the format registry.
std::shared_ptr<const FileFormat> AvroFormat();

}  // namespace sluice
