// ColumnVector: the values of one column for a run of rows, in a layout close to Arrow's.
//
// Physical layout by type root:
//   BOOLEAN -> uint8_t (0/1);  TINYINT -> int8_t;  SMALLINT -> int16_t;
//   INT, DATE, TIME -> int32_t;  BIGINT -> int64_t;  FLOAT -> float;  DOUBLE -> double;
//   DECIMAL -> int64_t unscaled when precision <= 18, else int128_t;
//   TIMESTAMP, TIMESTAMP_LTZ -> Timestamp;
//   CHAR, VARCHAR, BINARY, VARBINARY, BLOB, VARIANT -> int32_t offsets (size + 1) + bytes;
//   ARRAY, VECTOR -> offsets + child(0) holding the elements;
//   MAP, MULTISET -> offsets + child(0) keys + child(1) values (MULTISET values are INT counts);
//   ROW -> one child per field, each of size().
// Validity is one byte per row (1 = present); an empty validity buffer means no nulls. The slot
// of a null fixed-width value is unspecified; a null var-length or nested value has an empty
// range.
//
// Decoders fill the buffers directly (Resize, then write values(), offsets(), validity()); tests
// and metadata code use the Append* and GetValue conveniences, which are not for hot loops.
//
// Thread safety: not thread-safe; concurrent readers are fine while nobody writes.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "sluice/buffer.h"
#include "sluice/data_type.h"
#include "sluice/value.h"

namespace sluice {

enum class PhysicalKind : unsigned char {
  kUInt8,   // BOOLEAN
  kInt8,    // TINYINT
  kInt16,   // SMALLINT
  kInt32,   // INT, DATE, TIME
  kInt64,   // BIGINT, compact DECIMAL
  kInt128,  // DECIMAL with precision > 18
  kFloat,   // FLOAT
  kDouble,  // DOUBLE
  kTimestamp,
  kBytes,   // strings and binaries
  kList,    // ARRAY, VECTOR
  kMap,     // MAP, MULTISET
  kStruct,  // ROW
};

PhysicalKind PhysicalKindOf(const DataType& type);
// Byte width of one fixed-width value, or 0 for kBytes / kList / kMap / kStruct.
int FixedWidthOf(PhysicalKind kind);

class ColumnVector {
 public:
  // Creates an empty vector of `type` with its children.
  explicit ColumnVector(DataTypePtr type);

  ColumnVector(const ColumnVector&) = delete;
  ColumnVector& operator=(const ColumnVector&) = delete;

  const DataTypePtr& type() const { return type_; }
  PhysicalKind kind() const { return kind_; }
  int64_t size() const { return size_; }

  // --- Validity ---
  bool has_nulls() const { return !validity_.empty(); }
  bool IsNull(int64_t i) const { return !validity_.empty() && validity_.data()[i] == 0; }
  // Makes the validity buffer explicit (all valid) if it is not already, and returns it.
  uint8_t* MutableValidity();
  Buffer& validity() { return validity_; }
  const Buffer& validity() const { return validity_; }
  int64_t CountNulls() const;

  // --- Buffers ---
  // Fixed-width values, or the concatenated bytes of a kBytes column.
  Buffer& values() { return values_; }
  const Buffer& values() const { return values_; }
  template <typename T>
  T* data() {
    return values_.as<T>();
  }
  template <typename T>
  const T* data() const {
    return values_.as<T>();
  }
  // Offsets of kBytes, kList and kMap columns: size() + 1 int32 values starting at 0.
  Buffer& offsets() { return offsets_; }
  const Buffer& offsets() const { return offsets_; }
  const int32_t* offset_data() const { return offsets_.as<int32_t>(); }
  int32_t* offset_data() { return offsets_.as<int32_t>(); }

  int num_children() const { return static_cast<int>(children_.size()); }
  ColumnVector* child(int i) { return children_[i].get(); }
  const ColumnVector* child(int i) const { return children_[i].get(); }

  // --- Sizing (decoders) ---
  // Sets the row count. For fixed-width kinds, sizes values() to hold `n` values (new values
  // uninitialized); for offset kinds, sizes offsets() to n + 1 (new offsets uninitialized,
  // offsets()[0] stays 0); for kStruct, does not touch the children. Shrinks or grows validity
  // if it is present (new rows valid).
  void Resize(int64_t n);
  // Drops all rows (and children's rows), keeping capacity.
  void Clear();
  // Exchanges rows and buffers with `other`, each keeping its type: a reader hands a whole
  // column over instead of copying it. REQUIRES: IsFlat() of both, kind() == other->kind().
  void SwapBuffers(ColumnVector* other);
  // Not ARRAY, VECTOR, MAP, MULTISET or ROW: all its rows are in its own buffers.
  bool IsFlat() const {
    return kind_ != PhysicalKind::kList && kind_ != PhysicalKind::kMap &&
           kind_ != PhysicalKind::kStruct;
  }

  // --- Typed reads ---
  std::string_view GetBytes(int64_t i) const {
    const int32_t* off = offset_data();
    return std::string_view(reinterpret_cast<const char*>(values_.data()) + off[i],
                            static_cast<size_t>(off[i + 1] - off[i]));
  }
  // Element range [begin, end) in child(0) (and child(1) for maps) of list/map row i.
  int32_t ListBegin(int64_t i) const { return offset_data()[i]; }
  int32_t ListEnd(int64_t i) const { return offset_data()[i + 1]; }

  // The value at row i in the internal representation (null if IsNull(i)).
  Value GetValue(int64_t i) const;

  // --- Appends (tests, metadata, conversions) ---
  void AppendNull();
  // Appends `v`, which must hold the representation of type() (see value.h), or be null.
  // Integral kinds accept any integral Value that fits.
  Status AppendValue(const Value& v);
  void AppendBytes(std::string_view s);
  template <typename T>
  void AppendFixed(T v) {
    values_.AppendValue(v);
    MarkAppended(true);
  }

 private:
  void MarkAppended(bool valid);

  DataTypePtr type_;
  PhysicalKind kind_;
  int64_t size_ = 0;
  Buffer validity_;
  Buffer values_;
  Buffer offsets_;
  std::vector<std::unique_ptr<ColumnVector>> children_;
};

}  // namespace sluice
