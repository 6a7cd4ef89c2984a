#include "sluice/cdc/mysql/binlog_reader.h"

#include <string>

#include "sluice/base/coding.h"
#include "sluice/cdc/mysql/binlog_event.h"

namespace sluice {

namespace {
constexpr std::string_view kMagic(
    "\xfe"
    "bin",
    4);
constexpr size_t kEventLengthOffset = 9;
}  // namespace

Result<BinlogFileReader> BinlogFileReader::Open(std::string_view content) {
  if (content.substr(0, kMagic.size()) != kMagic) {
    return Status::Corruption("binlog file does not start with the binlog magic \\xfebin");
  }
  BinlogFileReader reader(content);
  reader.position_ = kMagic.size();
  return reader;
}

Result<bool> BinlogFileReader::Next(std::string_view* event) {
  const uint64_t left = content_.size() - position_;
  if (left == 0) return false;
  if (left < kBinlogEventHeaderSize) {
    return Status::Corruption("binlog file: the event at offset " + std::to_string(position_) +
                              " has " + std::to_string(left) +
                              " bytes, fewer than its 19-byte header");
  }
  const uint32_t length = DecodeFixed32LE(
      reinterpret_cast<const uint8_t*>(content_.data() + position_ + kEventLengthOffset));
  if (length < kBinlogEventHeaderSize || length > left) {
    return Status::Corruption("binlog file: the event at offset " + std::to_string(position_) +
                              " claims " + std::to_string(length) + " bytes, " +
                              std::to_string(left) + " are left");
  }
  *event = content_.substr(position_, length);
  position_ += length;
  return true;
}

}  // namespace sluice
