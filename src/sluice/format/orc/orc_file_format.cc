#include "sluice/format/orc/orc_file_format.h"

#include "sluice/format/orc/orc_reader.h"
#include "sluice/format/orc/orc_writer.h"

namespace sluice {

namespace {

class OrcFileFormat : public FileFormat {
 public:
  std::string_view identifier() const override { return "orc"; }

  Result<std::unique_ptr<FormatReader>> CreateReader(std::shared_ptr<RandomAccessFile> file,
                                                     DataTypePtr read_type,
                                                     const ReaderOptions& options) const override {
    SLUICE_ASSIGN_OR_RETURN(auto reader,
                            orc::OrcReader::Open(std::move(file), std::move(read_type), options));
    return std::unique_ptr<FormatReader>(std::move(reader));
  }

  Result<std::unique_ptr<FormatWriter>> CreateWriter(std::unique_ptr<WritableFile> file,
                                                     DataTypePtr write_type,
                                                     const WriterOptions& options) const override {
    return orc::MakeOrcWriter(std::move(file), std::move(write_type), options);
  }
};

}  // namespace

std::shared_ptr<const FileFormat> OrcFormat() {
  static const std::shared_ptr<const FileFormat> format = std::make_shared<OrcFileFormat>();
  return format;
}

}  // namespace sluice
