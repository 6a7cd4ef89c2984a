#include "sluice/row/binary_writer.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "sluice/base/coding.h"
#include "sluice/data_type.h"
#include "sluice/row/binary_section.h"

namespace sluice {

namespace bs = binary_section;

BinaryWriter BinaryWriter::ForRow(int arity) {
  // BinaryRow.calculateBitSetWidthInBytes: 8 header bits, then one bit per field, in 8-byte words.
  const size_t null_bytes = static_cast<size_t>((arity + 63 + 8) / 64) * 8;
  BinaryWriter w(0, 8, null_bytes, 8, null_bytes + 8 * static_cast<size_t>(arity), arity, true);
  w.Reset();
  return w;
}

BinaryWriter BinaryWriter::ForArray(int num_elements, int element_width) {
  // BinaryArray.calculateHeaderInBytes: 4-byte count, null bits in 4-byte words.
  const size_t header = 4 + static_cast<size_t>((num_elements + 31) / 32) * 4;
  const size_t fixed =
      bs::RoundUpToWord(header + static_cast<size_t>(num_elements) * element_width);
  BinaryWriter w(4, 0, header, element_width, fixed, num_elements, false);
  w.Reset();
  return w;
}

void BinaryWriter::Reset() {
  buf_.assign(fixed_size_, '\0');
  if (!is_row_) EncodeFixed32LE(reinterpret_cast<uint8_t*>(buf_.data()), num_elements_);
}

void BinaryWriter::Store(int pos, const void* v, size_t n) {
  std::memcpy(buf_.data() + SlotOffset(pos), v, n);
}

void BinaryWriter::SetNullBit(int pos) {
  const size_t bit = static_cast<size_t>(pos) + null_bit_shift_;
  buf_[null_bits_offset_ + bit / 8] |= static_cast<char>(1u << (bit % 8));
}

void BinaryWriter::SetNullAt(int pos) {
  SetNullBit(pos);
  std::memset(buf_.data() + SlotOffset(pos), 0, slot_width_);
}

void BinaryWriter::WriteFloat(int pos, float v) {
  if (!is_row_ && std::isnan(v)) v = std::numeric_limits<float>::quiet_NaN();
  Store(pos, &v, 4);
}

void BinaryWriter::WriteDouble(int pos, double v) {
  if (!is_row_ && std::isnan(v)) v = std::numeric_limits<double>::quiet_NaN();
  Store(pos, &v, 8);
}

void BinaryWriter::SetOffsetAndSize(int pos, size_t offset, uint64_t size) {
  WriteLong(pos, static_cast<int64_t>((static_cast<uint64_t>(offset) << 32) | size));
}

size_t BinaryWriter::AppendVariable(const void* data, size_t n) {
  const size_t offset = buf_.size();
  buf_.append(static_cast<const char*>(data), n);
  buf_.append(bs::RoundUpToWord(n) - n, '\0');
  return offset;
}

void BinaryWriter::WriteBytes(int pos, std::string_view bytes) {
  if (bytes.size() <= bs::kMaxInlineBytes) {
    const size_t slot = SlotOffset(pos);
    std::memcpy(buf_.data() + slot, bytes.data(), bytes.size());
    std::memset(buf_.data() + slot + bytes.size(), 0, 7 - bytes.size());
    buf_[slot + 7] = static_cast<char>(0x80 | bytes.size());
    return;
  }
  WriteOutOfLine(pos, bytes);
}

void BinaryWriter::WriteOutOfLine(int pos, std::string_view bytes) {
  const size_t offset = AppendVariable(bytes.data(), bytes.size());
  SetOffsetAndSize(pos, offset, bytes.size());
}

void BinaryWriter::WriteDecimal(int pos, const Decimal* value, int precision) {
  if (precision <= DataType::kMaxCompactPrecision || (value == nullptr && !is_row_)) {
    if (value == nullptr) {
      SetNullAt(pos);
    } else {
      WriteLong(pos, static_cast<int64_t>(value->unscaled));
    }
    return;
  }
  const size_t offset = buf_.size();
  buf_.append(bs::kDecimalReservedBytes, '\0');
  if (value == nullptr) {
    SetNullBit(pos);
    SetOffsetAndSize(pos, offset, 0);
    return;
  }
  uint8_t bytes[16];
  const size_t n = bs::UnscaledToBytes(value->unscaled, bytes);
  std::memcpy(buf_.data() + offset, bytes, n);
  SetOffsetAndSize(pos, offset, n);
}

void BinaryWriter::WriteTimestamp(int pos, const Timestamp* value, int precision) {
  if (precision <= DataType::kMaxCompactTimestampPrecision || (value == nullptr && !is_row_)) {
    if (value == nullptr) {
      SetNullAt(pos);
    } else {
      WriteLong(pos, value->millisecond);
    }
    return;
  }
  const size_t offset = buf_.size();
  buf_.append(8, '\0');
  if (value == nullptr) {
    SetNullBit(pos);
    SetOffsetAndSize(pos, offset, 0);
    return;
  }
  EncodeFixed64LE(reinterpret_cast<uint8_t*>(buf_.data() + offset),
                  static_cast<uint64_t>(value->millisecond));
  SetOffsetAndSize(pos, offset, static_cast<uint32_t>(value->nano_of_millisecond));
}

}  // namespace sluice
