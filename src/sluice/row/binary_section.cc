#include "sluice/row/binary_section.h"

#include <string>

#include "sluice/data_type.h"

namespace sluice::binary_section {

namespace {

// The (offset, length) region of an out-of-line slot value `slot`, checked against the section.
Result<std::string_view> Region(std::string_view section, uint64_t slot) {
  const uint64_t offset = slot >> 32;
  const uint64_t length = slot & 0xffffffffu;
  if (length > 0x7fffffffu) {
    return Status::Corruption("negative length " + std::to_string(static_cast<int32_t>(length)));
  }
  if (offset > section.size() || length > section.size() - offset) {
    return Status::Corruption("out-of-line data [offset " + std::to_string(offset) + ", length " +
                              std::to_string(length) + ") past the end of a " +
                              std::to_string(section.size()) + "-byte section");
  }
  return section.substr(offset, length);
}

}  // namespace

Result<std::string_view> ReadVarBytes(std::string_view section, size_t slot_offset) {
  const uint64_t slot = LoadSlot(section, slot_offset);
  if ((slot & kInlineMark) == 0) return Region(section, slot);
  const size_t length = static_cast<size_t>((slot >> 56) & 0x7f);
  if (length > kMaxInlineBytes) {
    return Status::Corruption("inline length " + std::to_string(length) + " exceeds 7 bytes");
  }
  return section.substr(slot_offset, length);
}

Result<std::string_view> ReadOutOfLine(std::string_view section, size_t slot_offset) {
  const uint64_t slot = LoadSlot(section, slot_offset);
  if ((slot & kInlineMark) != 0) {
    return Status::Corruption("inline mark on a slot that must point to out-of-line data");
  }
  return Region(section, slot);
}

Result<Decimal> ReadDecimal(std::string_view section, size_t slot_offset, int precision,
                            int scale) {
  if (precision <= DataType::kMaxCompactPrecision) {
    return Decimal{static_cast<int64_t>(LoadSlot(section, slot_offset)), precision, scale};
  }
  SLUICE_ASSIGN_OR_RETURN(std::string_view bytes, ReadOutOfLine(section, slot_offset));
  if (bytes.empty() || bytes.size() > 16) {
    return Status::Corruption("DECIMAL(" + std::to_string(precision) + ", " +
                              std::to_string(scale) + ") with " + std::to_string(bytes.size()) +
                              " unscaled bytes (expected 1 to 16)");
  }
  // Sign-extend the big-endian two's complement value.
  unsigned __int128 v = static_cast<int8_t>(bytes[0]) < 0 ? ~static_cast<unsigned __int128>(0) : 0;
  for (char c : bytes) v = (v << 8) | static_cast<uint8_t>(c);
  return Decimal{static_cast<int128_t>(v), precision, scale};
}

Result<Timestamp> ReadTimestamp(std::string_view section, size_t slot_offset, int precision) {
  const uint64_t slot = LoadSlot(section, slot_offset);
  if (precision <= DataType::kMaxCompactTimestampPrecision) {
    return Timestamp{static_cast<int64_t>(slot), 0};
  }
  const uint64_t offset = slot >> 32;
  const int32_t nanos = static_cast<int32_t>(static_cast<uint32_t>(slot));
  if (offset > section.size() || section.size() - offset < 8) {
    return Status::Corruption("timestamp millis at offset " + std::to_string(offset) +
                              " past the end of a " + std::to_string(section.size()) +
                              "-byte section");
  }
  if (nanos < 0 || nanos > 999999) {
    return Status::Corruption("nano-of-millisecond " + std::to_string(nanos) +
                              " outside [0, 999999]");
  }
  const auto* p = reinterpret_cast<const uint8_t*>(section.data()) + offset;
  return Timestamp{static_cast<int64_t>(DecodeFixed64LE(p)), nanos};
}

size_t UnscaledToBytes(int128_t v, uint8_t out[16]) {
  uint8_t be[16];
  auto u = static_cast<unsigned __int128>(v);
  for (int i = 15; i >= 0; --i) {
    be[i] = static_cast<uint8_t>(u);
    u >>= 8;
  }
  // Drop leading bytes that only repeat the sign, keeping one sign bit.
  size_t start = 0;
  while (start < 15) {
    const bool redundant = (be[start] == 0x00 && (be[start + 1] & 0x80) == 0) ||
                           (be[start] == 0xff && (be[start + 1] & 0x80) != 0);
    if (!redundant) break;
    ++start;
  }
  const size_t n = 16 - start;
  for (size_t i = 0; i < n; ++i) out[i] = be[start + i];
  return n;
}

}  // namespace sluice::binary_section
