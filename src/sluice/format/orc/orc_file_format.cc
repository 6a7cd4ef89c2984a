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

  // Java OrcFileFormat.validateDataFields: OrcTypeUtil.convertToOrcType has no ORC type for
  // VARIANT or VECTOR, at any depth (MULTISET becomes a MAP, BINARY / VARBINARY become BYTES).
  Status ValidateDataFields(const DataType& row_type) const override {
    for (const DataField& field : row_type.fields()) {
      if (const DataType* unstorable = FindUnstorable(*field.type)) {
        return UnstorableColumn(identifier(), field,
                                "ORC has no type for " + unstorable->ToString());
      }
    }
    return Status::OK();
  }

 private:
  static const DataType* FindUnstorable(const DataType& type) {
    switch (type.root()) {
      case TypeRoot::kVariant:
      case TypeRoot::kVector:
        return &type;
      case TypeRoot::kArray:
      case TypeRoot::kMultiset:
        return FindUnstorable(*type.element());
      case TypeRoot::kMap: {
        const DataType* key = FindUnstorable(*type.key());
        return key != nullptr ? key : FindUnstorable(*type.value());
      }
      case TypeRoot::kRow:
        for (const DataField& f : type.fields()) {
          if (const DataType* found = FindUnstorable(*f.type)) return found;
        }
        return nullptr;
      default:
        return nullptr;
    }
  }
};

}  // namespace

std::shared_ptr<const FileFormat> OrcFormat() {
  static const std::shared_ptr<const FileFormat> format = std::make_shared<OrcFileFormat>();
  return format;
}

}  // namespace sluice
