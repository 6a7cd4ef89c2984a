// BinarySection: the layout rules that BinaryRow, BinaryArray and BinaryMap share (Paimon
// BinarySection / MemorySegmentUtils). A value that does not fit a fixed slot lives in the
// section's variable part; its 8-byte slot then holds `(offset << 32) | length`, with the offset
// counted from the start of the section. Strings and binaries of at most 7 bytes are stored in the
// slot itself: bytes 0..len-1 hold the data and byte 7 is `0x80 | len`.
//
// The readers here check every offset and length against the section and report a Corruption
// that says what is wrong; callers add which field or element it was.
//
// Thread safety: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sluice/base/coding.h"
#include "sluice/result.h"
#include "sluice/value.h"

namespace sluice::binary_section {

// BinarySection.MAX_FIX_PART_DATA_SIZE.
constexpr size_t kMaxInlineBytes = 7;
// Top bit of slot byte 7: the value is inline.
constexpr uint64_t kInlineMark = uint64_t{0x80} << 56;
// Bytes reserved in the variable part for a non-compact DECIMAL (at most 16 unscaled bytes).
constexpr size_t kDecimalReservedBytes = 16;

constexpr size_t RoundUpToWord(size_t n) { return (n + 7) & ~size_t{7}; }

// The 8-byte slot at `slot_offset`. REQUIRES: slot_offset + 8 <= section.size().
inline uint64_t LoadSlot(std::string_view section, size_t slot_offset) {
  return DecodeFixed64LE(reinterpret_cast<const uint8_t*>(section.data()) + slot_offset);
}

// The bytes of a CHAR/VARCHAR/BINARY/VARBINARY/BLOB slot, inline or out of line.
// REQUIRES: slot_offset + 8 <= section.size().
Result<std::string_view> ReadVarBytes(std::string_view section, size_t slot_offset);

// The region an out-of-line slot points to (ROW, ARRAY, MAP, MULTISET, VARIANT, VECTOR and the
// non-compact DECIMAL bytes). An inline mark is a Corruption here.
// REQUIRES: slot_offset + 8 <= section.size().
Result<std::string_view> ReadOutOfLine(std::string_view section, size_t slot_offset);

// DECIMAL(precision, scale): the slot itself when compact (precision <= 18), else the big-endian
// two's complement bytes it points to (1 to 16 bytes).
Result<Decimal> ReadDecimal(std::string_view section, size_t slot_offset, int precision, int scale);

// TIMESTAMP(precision) / TIMESTAMP_LTZ(precision): epoch millis in the slot when compact
// (precision <= 3), else millis in the variable part and nano-of-millisecond in the slot.
Result<Timestamp> ReadTimestamp(std::string_view section, size_t slot_offset, int precision);

// Java's BigInteger.toByteArray() of `v`: minimal big-endian two's complement, 1 to 16 bytes.
// Returns the length written to `out`.
size_t UnscaledToBytes(int128_t v, uint8_t out[16]);

}  // namespace sluice::binary_section
