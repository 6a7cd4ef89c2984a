// Picks the FileFormat for a Paimon format name (`file.format`, `manifest.format`) or for the
// magic bytes at the start of a file.
//
// Thread safety: thread-safe; the returned formats are immutable.
#pragma once

#include <memory>
#include <string_view>

#include "sluice/format/file_format.h"
#include "sluice/result.h"

namespace sluice {

// "avro", "parquet" or "orc" (case-insensitive).
Result<std::shared_ptr<const FileFormat>> FileFormatByName(std::string_view identifier);

// By the first bytes of a file: `Obj\x01` Avro, `ORC` ORC, `PAR1` Parquet. `path` is for the
// error message.
Result<std::shared_ptr<const FileFormat>> FileFormatByMagic(std::string_view head,
                                                            std::string_view path);

// Opens `path` and picks its format by magic.
Result<std::shared_ptr<const FileFormat>> DetectFileFormat(RandomAccessFile& file);

}  // namespace sluice
