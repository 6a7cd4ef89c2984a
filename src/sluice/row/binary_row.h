// BinaryRow: Paimon's compact row encoding (org.apache.paimon.data.BinaryRow), used on disk for
// partition values, min/max keys and statistics rows in manifests, and as the input of the bucket
// hash.
//
//   | header byte (RowKind) + null bits, in 8-byte words | 8-byte slot per field | variable part |
//
// Field i's null bit is bit i + 8 of the header words (least significant bit first); all numbers
// are little-endian; the variable part holds items padded with zeros to multiples of 8 bytes
// (see binary_section.h for how slots refer to it).
//
// BinaryRowView reads one row in place, for hot paths (bucket hashing, key comparison) without
// building Values. DecodeBinaryRow / EncodeBinaryRow convert whole rows from / to Values
// (value.h) given the row's type; encoding reproduces Java's BinaryRowWriter bytes exactly.
//
// Thread safety: BinaryRowView is an immutable view; the free functions are pure.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sluice/base/coding.h"
#include "sluice/data_type.h"
#include "sluice/result.h"
#include "sluice/row_kind.h"
#include "sluice/value.h"

namespace sluice {

class BinaryRowView {
 public:
  // Size of the header + null-bit words of a row with `arity` fields
  // (BinaryRow.calculateBitSetWidthInBytes): 8 bytes for 0-56 fields, 16 for 57-120, ...
  static size_t NullBitsSize(int arity) {
    return static_cast<size_t>((static_cast<int64_t>(arity) + 71) / 64) * 8;
  }
  // Size of the fixed part (header, null bits and slots).
  static size_t FixedPartSize(int arity) { return NullBitsSize(arity) + 8 * size_t(arity); }

  // A view of the `bytes` of a row with `arity` fields. Checks that the fixed part fits; the
  // variable-length values are checked when read. `bytes` must outlive the view.
  static Result<BinaryRowView> Make(std::string_view bytes, int arity);
  // A view of a row serialized as in manifests (SerializationUtils.serializeBinaryRow): 4-byte
  // big-endian arity, then the row bytes.
  static Result<BinaryRowView> FromSerialized(std::string_view serialized);

  // The empty row (arity 0, BinaryRow.EMPTY_ROW).
  BinaryRowView() : bytes_(kEmptyRowBytes, sizeof(kEmptyRowBytes)) {}

  int arity() const { return arity_; }
  std::string_view bytes() const { return bytes_; }
  size_t size() const { return bytes_.size(); }

  // The header byte (a RowKind byte for rows Java wrote; other values are possible in bad input).
  uint8_t header_byte() const { return static_cast<uint8_t>(bytes_[0]); }

  // REQUIRES for all field accessors: 0 <= pos < arity().
  bool IsNullAt(int pos) const {
    const size_t bit = static_cast<size_t>(pos) + 8;
    return (static_cast<uint8_t>(bytes_[bit / 8]) >> (bit % 8)) & 1;
  }
  // True if any field is null.
  bool AnyNull() const;

  // Fixed-width fields, read from the slot (0 for a null field Java wrote).
  bool GetBoolean(int pos) const { return bytes_[SlotOffset(pos)] != 0; }
  int8_t GetByte(int pos) const { return static_cast<int8_t>(bytes_[SlotOffset(pos)]); }
  int16_t GetShort(int pos) const { return static_cast<int16_t>(DecodeFixed16LE(Slot(pos))); }
  // INT, DATE (days since epoch), TIME (millis of day).
  int32_t GetInt(int pos) const { return static_cast<int32_t>(DecodeFixed32LE(Slot(pos))); }
  // BIGINT, and the raw slot of any field.
  int64_t GetLong(int pos) const { return static_cast<int64_t>(DecodeFixed64LE(Slot(pos))); }
  float GetFloat(int pos) const;
  double GetDouble(int pos) const;

  // CHAR / VARCHAR / BINARY / VARBINARY / BLOB bytes (a view into bytes()).
  Result<std::string_view> GetString(int pos) const;
  Result<Decimal> GetDecimal(int pos, int precision, int scale) const;
  Result<Timestamp> GetTimestamp(int pos, int precision) const;
  // The out-of-line bytes of a ROW / ARRAY / MAP / MULTISET / VARIANT / VECTOR field.
  Result<std::string_view> GetNested(int pos) const;

  // BinaryRow.hashCode(): MurmurHash3 over the row's words, seed 42.
  int32_t HashCode() const;

  size_t SlotOffset(int pos) const { return NullBitsSize(arity_) + 8 * static_cast<size_t>(pos); }

 private:
  static constexpr char kEmptyRowBytes[8] = {};

  BinaryRowView(std::string_view bytes, int arity) : bytes_(bytes), arity_(arity) {}
  const uint8_t* Slot(int pos) const {
    return reinterpret_cast<const uint8_t*>(bytes_.data()) + SlotOffset(pos);
  }

  std::string_view bytes_;
  int arity_ = 0;
};

// The bytes Java writes for BinaryRow.EMPTY_ROW (arity 0): 8 zero bytes. Non-partitioned tables
// use it as their partition, append tables as min/max key.
inline std::string_view EmptyBinaryRow() { return BinaryRowView().bytes(); }

// 4-byte big-endian arity + row bytes (SerializationUtils.serializeBinaryRow), as stored in
// manifests' Avro `bytes` fields.
std::string SerializeBinaryRow(std::string_view row_bytes, int arity);

// Decodes field `pos` of `row` as a Value of `type` (null when the null bit is set).
Result<Value> DecodeBinaryRowField(const BinaryRowView& row, int pos, const DataType& type);

// Decodes every field of `row`; `row_type` must be a ROW type with row.arity() fields.
// A field count that does not match, or any out-of-range offset or length, is a Corruption
// naming the field.
Result<ValueList> DecodeBinaryRow(const BinaryRowView& row, const DataType& row_type);
Result<ValueList> DecodeBinaryRow(std::string_view row_bytes, const DataType& row_type);
// The same for a serialized row (4-byte big-endian arity prefix).
Result<ValueList> DecodeSerializedBinaryRow(std::string_view serialized, const DataType& row_type);

// How a null non-compact DECIMAL (precision > 18) or TIMESTAMP (precision > 3) field is written.
// Java differs by code path and version:
//   kReserve: the null bit is set, the 16 (DECIMAL) or 8 (TIMESTAMP) variable-part bytes are still
//     reserved and the slot keeps their offset. Generated projections (partitions, keys, bucket
//     keys) in every version; InternalRowSerializer (stats rows, DataFileMeta) since Paimon 1.2.
//   kNone: null bit and a zero slot only. InternalRowSerializer before 1.2, so stats rows of
//     tables written by Paimon <= 1.1.
// Readers accept both (a null field's slot is never read).
enum class NullReservation : uint8_t { kReserve, kNone };

// Encodes `values` (one per field of `row_type`, Value::Null() for nulls) into the canonical bytes
// Java's BinaryRowWriter produces, with header byte `kind`. `nulls` applies to the top-level
// fields; nested rows are written as current Java does (kReserve). A value whose kind does not
// match its field's type is InvalidArgument naming the field. Nullability is not enforced (as in
// Java).
Result<std::string> EncodeBinaryRow(const ValueList& values, const DataType& row_type,
                                    RowKind kind = RowKind::kInsert,
                                    NullReservation nulls = NullReservation::kReserve);

// The NullReservation a stored row was written with: kNone if a null non-compact DECIMAL or
// TIMESTAMP field has a zero slot, else kReserve. Lets a reader re-encode a row byte for byte.
// REQUIRES: row_type is a ROW type with row.arity() fields.
NullReservation DetectNullReservation(const BinaryRowView& row, const DataType& row_type);

}  // namespace sluice
