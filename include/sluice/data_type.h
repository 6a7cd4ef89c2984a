// DataType: Paimon's logical type tree (org.apache.paimon.types), with nullability and, for ROW
// fields, the field ids that schema evolution resolves columns by.
//
// Types are immutable and shared: build them with the factories below and hold them as
// DataTypePtr. Thread safety: immutable after construction, safe to share across threads.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/result.h"

namespace sluice {

enum class TypeRoot : unsigned char {
  kBoolean,
  kTinyInt,
  kSmallInt,
  kInt,
  kBigInt,
  kFloat,
  kDouble,
  kDecimal,
  kChar,
  kVarChar,
  kBinary,
  kVarBinary,
  kDate,
  kTime,
  kTimestamp,     // TIMESTAMP(p): wall-clock time
  kTimestampLtz,  // TIMESTAMP(p) WITH LOCAL TIME ZONE: an instant
  kArray,
  kMap,
  kMultiset,
  kRow,
  kVariant,
  kBlob,
  kVector,
};

class DataType;
using DataTypePtr = std::shared_ptr<const DataType>;

// A column of a ROW type (Paimon DataField).
struct DataField {
  int32_t id = 0;
  std::string name;
  DataTypePtr type;
  std::optional<std::string> description;
  std::optional<std::string> default_value;
};

class DataType {
 public:
  static constexpr int32_t kMaxLength = 2147483647;    // VARCHAR/VARBINARY length of STRING/BYTES
  static constexpr int32_t kMaxCompactPrecision = 18;  // DECIMAL precision stored in an int64
  static constexpr int32_t kMaxCompactTimestampPrecision = 3;  // TIMESTAMP stored as millis only

  // Atomic types.
  static DataTypePtr Boolean(bool nullable = true);
  static DataTypePtr TinyInt(bool nullable = true);
  static DataTypePtr SmallInt(bool nullable = true);
  static DataTypePtr Int(bool nullable = true);
  static DataTypePtr BigInt(bool nullable = true);
  static DataTypePtr Float(bool nullable = true);
  static DataTypePtr Double(bool nullable = true);
  static DataTypePtr Decimal(int32_t precision, int32_t scale, bool nullable = true);
  static DataTypePtr Char(int32_t length, bool nullable = true);
  static DataTypePtr VarChar(int32_t length, bool nullable = true);
  static DataTypePtr String(bool nullable = true) { return VarChar(kMaxLength, nullable); }
  static DataTypePtr Binary(int32_t length, bool nullable = true);
  static DataTypePtr VarBinary(int32_t length, bool nullable = true);
  static DataTypePtr Bytes(bool nullable = true) { return VarBinary(kMaxLength, nullable); }
  static DataTypePtr Date(bool nullable = true);
  static DataTypePtr Time(int32_t precision = 0, bool nullable = true);
  static DataTypePtr Timestamp(int32_t precision = 6, bool nullable = true);
  static DataTypePtr TimestampLtz(int32_t precision = 6, bool nullable = true);
  static DataTypePtr Variant(bool nullable = true);
  static DataTypePtr Blob(bool nullable = true);
  // Nested types.
  static DataTypePtr Array(DataTypePtr element, bool nullable = true);
  static DataTypePtr Multiset(DataTypePtr element, bool nullable = true);
  static DataTypePtr Map(DataTypePtr key, DataTypePtr value, bool nullable = true);
  static DataTypePtr Row(std::vector<DataField> fields, bool nullable = true);
  static DataTypePtr Vector(DataTypePtr element, int32_t length, bool nullable = true);

  TypeRoot root() const { return root_; }
  bool nullable() const { return nullable_; }

  // DECIMAL, TIME, TIMESTAMP, TIMESTAMP_LTZ: precision. CHAR, VARCHAR, BINARY, VARBINARY,
  // VECTOR: length.
  int32_t precision() const { return precision_; }
  int32_t length() const { return precision_; }
  int32_t scale() const { return scale_; }

  // ARRAY / MULTISET / VECTOR element, MAP key and value.
  const DataTypePtr& element() const { return children_[0]; }
  const DataTypePtr& key() const { return children_[0]; }
  const DataTypePtr& value() const { return children_[1]; }

  // ROW fields.
  const std::vector<DataField>& fields() const { return fields_; }
  int num_fields() const { return static_cast<int>(fields_.size()); }
  // Index of the field with this name, or -1.
  int FieldIndex(std::string_view name) const;
  // Index of the field with this id, or -1.
  int FieldIndexById(int32_t id) const;

  // The same type with another nullability.
  DataTypePtr WithNullable(bool nullable) const;

  bool IsNested() const {
    return root_ == TypeRoot::kArray || root_ == TypeRoot::kMap || root_ == TypeRoot::kMultiset ||
           root_ == TypeRoot::kRow || root_ == TypeRoot::kVector;
  }
  bool IsString() const { return root_ == TypeRoot::kChar || root_ == TypeRoot::kVarChar; }
  bool IsBinary() const {
    return root_ == TypeRoot::kBinary || root_ == TypeRoot::kVarBinary || root_ == TypeRoot::kBlob;
  }
  // DECIMAL held in an int64 (precision <= 18); otherwise an int128 unscaled value.
  bool IsCompactDecimal() const { return precision_ <= kMaxCompactPrecision; }

  // Paimon's asSQLString: "INT NOT NULL", "DECIMAL(10, 2)", "ARRAY<STRING>",
  // "ROW<`a` INT, `b` STRING>" ... Used for display and for atomic types in schema JSON.
  std::string ToString() const;

  // Structural equality, including nullability, field names and field ids.
  bool Equals(const DataType& other) const;
  // Equality ignoring nullability at every level.
  bool EqualsIgnoreNullable(const DataType& other) const;

 private:
  DataType(TypeRoot root, bool nullable) : root_(root), nullable_(nullable) {}

  TypeRoot root_;
  bool nullable_;
  int32_t precision_ = 0;
  int32_t scale_ = 0;
  std::vector<DataTypePtr> children_;
  std::vector<DataField> fields_;
};

// Parses an atomic type string ("INT NOT NULL", "VARCHAR(10)", "INT ARRAY", "VECTOR<FLOAT, 3>").
// Nested `ARRAY<...>`, `MAP<...>`, `ROW<...>` strings are rejected, as in Java. An unknown or
// malformed string is an InvalidArgument naming the position and the input.
Result<DataTypePtr> ParseAtomicDataType(std::string_view text);

// Name of a type root as Paimon spells it ("INT", "TIMESTAMP_WITH_LOCAL_TIME_ZONE", ...).
std::string_view TypeRootName(TypeRoot root);

}  // namespace sluice
