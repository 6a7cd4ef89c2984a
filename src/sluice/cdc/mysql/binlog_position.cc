#include "sluice/cdc/mysql/binlog_position.h"

#include <charconv>
#include <cstdio>

namespace sluice {

Result<uint32_t> BinlogFileIndex(std::string_view name) {
  const size_t dot = name.rfind('.');
  uint32_t index = 0;
  if (dot != std::string_view::npos && dot + 1 < name.size()) {
    std::string_view digits = name.substr(dot + 1);
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
    if (error == std::errc() && end == digits.data() + digits.size()) return index;
  }
  return Status::InvalidArgument("binlog file name '" + std::string(name) +
                                 "' has no numeric extension");
}

std::string BinlogFileName(std::string_view like, uint32_t index) {
  const size_t dot = like.rfind('.');
  char digits[16];
  std::snprintf(digits, sizeof(digits), "%06u", index);
  return std::string(like.substr(0, dot)) + "." + digits;
}

}  // namespace sluice
