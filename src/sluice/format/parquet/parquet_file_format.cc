#include "sluice/format/parquet/parquet_file_format.h"

#include "sluice/format/parquet/parquet_reader.h"
#include "sluice/format/parquet/parquet_writer.h"

namespace sluice::parquet {

Result<std::unique_ptr<FormatReader>> ParquetFileFormat::CreateReader(
    std::shared_ptr<RandomAccessFile> file, DataTypePtr read_type,
    const ReaderOptions& options) const {
  return OpenParquetReader(std::move(file), std::move(read_type), options);
}

Result<std::unique_ptr<FormatWriter>> ParquetFileFormat::CreateWriter(
    std::unique_ptr<WritableFile> file, DataTypePtr write_type,
    const WriterOptions& options) const {
  SLUICE_ASSIGN_OR_RETURN(auto writer,
                          ParquetWriter::Open(std::move(file), std::move(write_type), options));
  return std::unique_ptr<FormatWriter>(std::move(writer));
}

}  // namespace sluice::parquet

namespace sluice {

std::shared_ptr<const FileFormat> ParquetFormat() {
  static const std::shared_ptr<const FileFormat> format =
      std::make_shared<parquet::ParquetFileFormat>();
  return format;
}

}  // namespace sluice
