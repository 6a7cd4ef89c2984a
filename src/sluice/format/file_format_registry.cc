#include "sluice/format/file_format_registry.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "sluice/base/string_util.h"
#include "sluice/format/avro/avro_file_format.h"
#include "sluice/format/orc/orc_file_format.h"
#include "sluice/format/parquet/parquet_file_format.h"

namespace sluice {

Result<std::shared_ptr<const FileFormat>> FileFormatByName(std::string_view identifier) {
  const std::string name = AsciiToLower(identifier);
  if (name == "avro") return AvroFormat();
  if (name == "parquet") return ParquetFormat();
  if (name == "orc") return OrcFormat();
  return Status::InvalidArgument("unknown file format '" + std::string(identifier) + "'");
}

Result<std::shared_ptr<const FileFormat>> FileFormatByMagic(std::string_view head,
                                                            std::string_view path) {
  if (head.size() >= 4 && head.substr(0, 4) == std::string_view("Obj\x01", 4)) {
    return FileFormatByName("avro");
  }
  if (head.size() >= 3 && head.substr(0, 3) == "ORC") return FileFormatByName("orc");
  if (head.size() >= 4 && head.substr(0, 4) == "PAR1") return FileFormatByName("parquet");
  return Status::Corruption(std::string(path) +
                            ": not an Avro, ORC or Parquet file (unrecognized magic bytes)");
}

Result<std::shared_ptr<const FileFormat>> DetectFileFormat(RandomAccessFile& file) {
  uint8_t head[4] = {0, 0, 0, 0};
  int64_t n = std::min<int64_t>(4, file.size());
  SLUICE_RETURN_NOT_OK(file.ReadAt(0, n, head));
  return FileFormatByMagic(
      std::string_view(reinterpret_cast<const char*>(head), static_cast<size_t>(n)), file.path());
}

}  // namespace sluice
