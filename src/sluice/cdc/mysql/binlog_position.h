// BinlogPosition: a place in a server's binlog, a file and a byte offset, as the one integer
// the ingestion runtime keeps per split (source_offsets.h): the file's sequence number (the
// "000042" of "binlog.000042") in the high 32 bits, the offset in the low 32. Positions so
// encoded order as the binlog does, across rotations.
//
// Thread safety: a value type.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sluice/result.h"

namespace sluice {

struct BinlogPosition {
  uint32_t file_index = 0;
  uint32_t offset = 4;  // the first event of a file follows its 4-byte magic

  int64_t Encode() const { return (static_cast<int64_t>(file_index) << 32) | offset; }
  static BinlogPosition Decode(int64_t encoded) {
    return {static_cast<uint32_t>(encoded >> 32), static_cast<uint32_t>(encoded & 0xFFFFFFFF)};
  }
};

// The sequence number of binlog file `name` ("binlog.000042" -> 42). InvalidArgument naming
// the name when it has no numeric extension.
Result<uint32_t> BinlogFileIndex(std::string_view name);

// The file of `index` with the base name of `like` ("binlog.000042", 43 -> "binlog.000043"),
// as the server names them: at least six digits.
std::string BinlogFileName(std::string_view like, uint32_t index);

}  // namespace sluice
