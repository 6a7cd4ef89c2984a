#include "sluice/format/avro/avro_file_format.h"

#include "sluice/format/avro/avro_file_reader.h"
#include "sluice/format/avro/avro_file_writer.h"
#include "sluice/format/avro/avro_schema_converter.h"

namespace sluice {

Result<std::unique_ptr<FormatReader>> AvroFileFormat::CreateReader(
    std::shared_ptr<RandomAccessFile> file, DataTypePtr read_type,
    const ReaderOptions& options) const {
  SLUICE_ASSIGN_OR_RETURN(auto reader,
                          AvroFileReader::Open(std::move(file), std::move(read_type), options));
  return std::unique_ptr<FormatReader>(std::move(reader));
}

Result<std::unique_ptr<FormatWriter>> AvroFileFormat::CreateWriter(
    std::unique_ptr<WritableFile> file, DataTypePtr write_type,
    const WriterOptions& options) const {
  SLUICE_ASSIGN_OR_RETURN(auto writer,
                          AvroFileWriter::Open(std::move(file), std::move(write_type), options));
  return std::unique_ptr<FormatWriter>(std::move(writer));
}

// Java AvroFileFormat.validateDataFields: every column converts to an Avro schema
// (AvroSchemaConverter), as the writer converts it.
Status AvroFileFormat::ValidateDataFields(const DataType& row_type) const {
  for (const DataField& field : row_type.fields()) {
    Result<AvroSchemaPtr> schema = RowTypeToAvroSchema(*DataType::Row({field}));
    if (!schema.ok()) return UnstorableColumn(identifier(), field, schema.status().message());
  }
  return Status::OK();
}

std::shared_ptr<const FileFormat> AvroFormat() {
  static const std::shared_ptr<const FileFormat> kFormat = std::make_shared<AvroFileFormat>();
  return kFormat;
}

}  // namespace sluice
