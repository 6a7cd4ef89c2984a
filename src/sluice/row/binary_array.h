// BinaryArray: Paimon's array encoding (org.apache.paimon.data.BinaryArray), used for ARRAY values
// inside BinaryRows, for the key and value arrays of a BinaryMap, and for SimpleStats null counts
// in serialized DataFileMeta rows.
//
//   | int32 count | null bits, 4-byte words | count slots of the element width | pad to 8 | var
//   part |
//
// Element i's null bit is bit i after the count. Slot width by element type: 1 for BOOLEAN and
// TINYINT, 2 for SMALLINT, 4 for INT, FLOAT, DATE, TIME, 8 otherwise (8-byte slots follow the
// BinaryRow slot rules with offsets relative to the array start). Null elements have a zero slot.
//
// Thread safety: BinaryArrayView is an immutable view; the free functions are pure.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sluice/base/coding.h"
#include "sluice/data_type.h"
#include "sluice/result.h"
#include "sluice/value.h"

namespace sluice {

// Slot width of an element of `type` (BinaryArray.calculateFixLengthPartSize), or 0 for a type
// that cannot be an array element (VECTOR).
int BinaryArrayElementWidth(const DataType& type);

class BinaryArrayView {
 public:
  // A view of the `bytes` of an array of `element_type`. Checks the count and that the null bits
  // and slots fit. `bytes` must outlive the view.
  static Result<BinaryArrayView> Make(std::string_view bytes, const DataType& element_type);

  BinaryArrayView() = default;

  int32_t size() const { return size_; }
  std::string_view bytes() const { return bytes_; }

  // REQUIRES for all element accessors: 0 <= pos < size(), and a getter matching the element type.
  bool IsNullAt(int pos) const {
    return (static_cast<uint8_t>(bytes_[4 + static_cast<size_t>(pos) / 8]) >> (pos % 8)) & 1;
  }
  bool GetBoolean(int pos) const { return bytes_[SlotOffset(pos)] != 0; }
  int8_t GetByte(int pos) const { return static_cast<int8_t>(bytes_[SlotOffset(pos)]); }
  int16_t GetShort(int pos) const { return static_cast<int16_t>(DecodeFixed16LE(Slot(pos))); }
  int32_t GetInt(int pos) const { return static_cast<int32_t>(DecodeFixed32LE(Slot(pos))); }
  int64_t GetLong(int pos) const { return static_cast<int64_t>(DecodeFixed64LE(Slot(pos))); }

  // Offset of element `pos`'s slot within bytes().
  size_t SlotOffset(int pos) const {
    return header_size_ + static_cast<size_t>(pos) * static_cast<size_t>(element_width_);
  }

 private:
  BinaryArrayView(std::string_view bytes, int32_t size, int element_width, size_t header_size)
      : bytes_(bytes), size_(size), element_width_(element_width), header_size_(header_size) {}
  const uint8_t* Slot(int pos) const {
    return reinterpret_cast<const uint8_t*>(bytes_.data()) + SlotOffset(pos);
  }

  std::string_view bytes_;
  int32_t size_ = 0;
  int element_width_ = 8;
  size_t header_size_ = 4;
};

// Decodes every element (Value::Null() for null elements).
Result<ValueList> DecodeBinaryArray(const BinaryArrayView& array, const DataType& element_type);
Result<ValueList> DecodeBinaryArray(std::string_view bytes, const DataType& element_type);

// Encodes `values` as Java's BinaryArrayWriter does (InternalArraySerializer.toBinaryArray).
Result<std::string> EncodeBinaryArray(const ValueList& values, const DataType& element_type);

}  // namespace sluice
