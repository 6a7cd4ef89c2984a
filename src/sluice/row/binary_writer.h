// BinaryWriter: writes the canonical bytes of one BinaryRow or BinaryArray, exactly as Java's
// BinaryRowWriter / BinaryArrayWriter (AbstractBinaryWriter) lay them out, so that hashes and byte
// comparisons agree with Java.
//
// Usage: Reset(), then write every position once (in position order, so that variable-length data
// lands in Java's order), then bytes(). The writer keeps its buffer across Reset() calls, so a hot
// path (bucket hashing, key encoding) can reuse one writer without allocating per row.
//
// Rows: 8-byte slots after the header/null-bit words; a null non-compact DECIMAL or TIMESTAMP still
// reserves its variable-part space (WriteDecimal / WriteTimestamp with nullptr), as Java does.
// Arrays: slots of the element width after a 4-byte count and the null bits; null elements get a
// zero slot (SetNullAt) and FLOAT/DOUBLE NaN is canonicalised.
//
// Thread safety: not thread-safe; one owner at a time.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sluice/row_kind.h"
#include "sluice/value.h"

namespace sluice {

class BinaryWriter {
 public:
  // A writer of rows with `arity` fields.
  static BinaryWriter ForRow(int arity);
  // A writer of arrays with `num_elements` elements of `element_width` bytes (1, 2, 4 or 8).
  static BinaryWriter ForArray(int num_elements, int element_width);

  // Starts a new row / array: zero fixed part, drop the variable part.
  void Reset();
  // Row header byte. REQUIRES: a row writer.
  void SetRowKind(RowKind kind) { buf_[0] = static_cast<char>(RowKindToByte(kind)); }

  // Sets the null bit and zeroes the slot.
  void SetNullAt(int pos);

  void WriteBoolean(int pos, bool v) { buf_[SlotOffset(pos)] = v ? 1 : 0; }
  void WriteByte(int pos, int8_t v) { buf_[SlotOffset(pos)] = static_cast<char>(v); }
  void WriteShort(int pos, int16_t v) { Store(pos, &v, 2); }
  void WriteInt(int pos, int32_t v) { Store(pos, &v, 4); }
  void WriteLong(int pos, int64_t v) { Store(pos, &v, 8); }
  void WriteFloat(int pos, float v);
  void WriteDouble(int pos, double v);
  // CHAR/VARCHAR/BINARY/VARBINARY/BLOB: inline when at most 7 bytes, else out of line.
  void WriteBytes(int pos, std::string_view bytes);
  // DECIMAL(precision): the unscaled long when compact; else 16 reserved bytes holding Java's
  // BigInteger.toByteArray(). `value == nullptr` writes null; in a row a non-compact null still
  // reserves its 16 bytes (Java's "keep the offset for future updates"), in an array it does not.
  void WriteDecimal(int pos, const Decimal* value, int precision);
  // TIMESTAMP(precision): epoch millis when compact; else 8 reserved bytes of millis and the
  // nano-of-millisecond in the slot. `value == nullptr` as for WriteDecimal.
  void WriteTimestamp(int pos, const Timestamp* value, int precision);
  // ROW, ARRAY, MAP, MULTISET, VARIANT, VECTOR: `bytes` always go to the variable part.
  void WriteOutOfLine(int pos, std::string_view bytes);

  // The bytes written so far (valid until the next call on the writer).
  std::string_view bytes() const { return buf_; }
  // Moves the bytes out; the writer must be Reset() before further use.
  std::string Release() { return std::move(buf_); }

 private:
  BinaryWriter(size_t null_bits_offset, int null_bit_shift, size_t slots_offset, int slot_width,
               size_t fixed_size, int32_t num_elements, bool is_row)
      : null_bits_offset_(null_bits_offset),
        null_bit_shift_(null_bit_shift),
        slots_offset_(slots_offset),
        slot_width_(slot_width),
        fixed_size_(fixed_size),
        num_elements_(num_elements),
        is_row_(is_row) {}

  size_t SlotOffset(int pos) const {
    return slots_offset_ + static_cast<size_t>(pos) * static_cast<size_t>(slot_width_);
  }
  void Store(int pos, const void* v, size_t n);
  void SetNullBit(int pos);
  void SetOffsetAndSize(int pos, size_t offset, uint64_t size);
  // Appends `n` bytes padded with zeros to a multiple of 8; returns their offset.
  size_t AppendVariable(const void* data, size_t n);

  size_t null_bits_offset_;
  int null_bit_shift_;
  size_t slots_offset_;
  int slot_width_;
  size_t fixed_size_;
  int32_t num_elements_;
  bool is_row_;
  std::string buf_;
};

}  // namespace sluice
