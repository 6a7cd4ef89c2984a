#include "sluice/data_type.h"

namespace sluice {

namespace {

DataTypePtr MakeShared(DataType&& t) { return std::make_shared<const DataType>(std::move(t)); }

std::string ReplaceAll(std::string s, std::string_view from, std::string_view to) {
  for (size_t pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size())) {
    s.replace(pos, from.size(), to);
  }
  return s;
}

std::string WithNullability(std::string s, bool nullable) {
  if (!nullable) s += " NOT NULL";
  return s;
}

}  // namespace

#define SLUICE_ATOMIC_FACTORY(Name, Root)                  \
  DataTypePtr DataType::Name(bool nullable) {              \
    return MakeShared(DataType(TypeRoot::Root, nullable)); \
  }
SLUICE_ATOMIC_FACTORY(Boolean, kBoolean)
SLUICE_ATOMIC_FACTORY(TinyInt, kTinyInt)
SLUICE_ATOMIC_FACTORY(SmallInt, kSmallInt)
SLUICE_ATOMIC_FACTORY(Int, kInt)
SLUICE_ATOMIC_FACTORY(BigInt, kBigInt)
SLUICE_ATOMIC_FACTORY(Float, kFloat)
SLUICE_ATOMIC_FACTORY(Double, kDouble)
SLUICE_ATOMIC_FACTORY(Date, kDate)
SLUICE_ATOMIC_FACTORY(Variant, kVariant)
SLUICE_ATOMIC_FACTORY(Blob, kBlob)
#undef SLUICE_ATOMIC_FACTORY

DataTypePtr DataType::Decimal(int32_t precision, int32_t scale, bool nullable) {
  DataType t(TypeRoot::kDecimal, nullable);
  t.precision_ = precision;
  t.scale_ = scale;
  return MakeShared(std::move(t));
}

#define SLUICE_SIZED_FACTORY(Name, Root)                 \
  DataTypePtr DataType::Name(int32_t n, bool nullable) { \
    DataType t(TypeRoot::Root, nullable);                \
    t.precision_ = n;                                    \
    return MakeShared(std::move(t));                     \
  }
SLUICE_SIZED_FACTORY(Char, kChar)
SLUICE_SIZED_FACTORY(VarChar, kVarChar)
SLUICE_SIZED_FACTORY(Binary, kBinary)
SLUICE_SIZED_FACTORY(VarBinary, kVarBinary)
SLUICE_SIZED_FACTORY(Time, kTime)
SLUICE_SIZED_FACTORY(Timestamp, kTimestamp)
SLUICE_SIZED_FACTORY(TimestampLtz, kTimestampLtz)
#undef SLUICE_SIZED_FACTORY

DataTypePtr DataType::Array(DataTypePtr element, bool nullable) {
  DataType t(TypeRoot::kArray, nullable);
  t.children_ = {std::move(element)};
  return MakeShared(std::move(t));
}

DataTypePtr DataType::Multiset(DataTypePtr element, bool nullable) {
  DataType t(TypeRoot::kMultiset, nullable);
  t.children_ = {std::move(element)};
  return MakeShared(std::move(t));
}

DataTypePtr DataType::Map(DataTypePtr key, DataTypePtr value, bool nullable) {
  DataType t(TypeRoot::kMap, nullable);
  t.children_ = {std::move(key), std::move(value)};
  return MakeShared(std::move(t));
}

DataTypePtr DataType::Row(std::vector<DataField> fields, bool nullable) {
  DataType t(TypeRoot::kRow, nullable);
  t.fields_ = std::move(fields);
  return MakeShared(std::move(t));
}

DataTypePtr DataType::Vector(DataTypePtr element, int32_t length, bool nullable) {
  DataType t(TypeRoot::kVector, nullable);
  t.children_ = {std::move(element)};
  t.precision_ = length;
  return MakeShared(std::move(t));
}

int DataType::FieldIndex(std::string_view name) const {
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

int DataType::FieldIndexById(int32_t id) const {
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i].id == id) return static_cast<int>(i);
  }
  return -1;
}

DataTypePtr DataType::WithNullable(bool nullable) const {
  DataType t = *this;
  t.nullable_ = nullable;
  return MakeShared(std::move(t));
}

std::string_view TypeRootName(TypeRoot root) {
  switch (root) {
    case TypeRoot::kBoolean:
      return "BOOLEAN";
    case TypeRoot::kTinyInt:
      return "TINYINT";
    case TypeRoot::kSmallInt:
      return "SMALLINT";
    case TypeRoot::kInt:
      return "INT";
    case TypeRoot::kBigInt:
      return "BIGINT";
    case TypeRoot::kFloat:
      return "FLOAT";
    case TypeRoot::kDouble:
      return "DOUBLE";
    case TypeRoot::kDecimal:
      return "DECIMAL";
    case TypeRoot::kChar:
      return "CHAR";
    case TypeRoot::kVarChar:
      return "VARCHAR";
    case TypeRoot::kBinary:
      return "BINARY";
    case TypeRoot::kVarBinary:
      return "VARBINARY";
    case TypeRoot::kDate:
      return "DATE";
    case TypeRoot::kTime:
      return "TIME";
    case TypeRoot::kTimestamp:
      return "TIMESTAMP";
    case TypeRoot::kTimestampLtz:
      return "TIMESTAMP_WITH_LOCAL_TIME_ZONE";
    case TypeRoot::kArray:
      return "ARRAY";
    case TypeRoot::kMap:
      return "MAP";
    case TypeRoot::kMultiset:
      return "MULTISET";
    case TypeRoot::kRow:
      return "ROW";
    case TypeRoot::kVariant:
      return "VARIANT";
    case TypeRoot::kBlob:
      return "BLOB";
    case TypeRoot::kVector:
      return "VECTOR";
  }
  return "UNKNOWN";
}

std::string DataType::ToString() const {
  std::string s;
  switch (root_) {
    case TypeRoot::kDecimal:
      s = "DECIMAL(" + std::to_string(precision_) + ", " + std::to_string(scale_) + ")";
      break;
    case TypeRoot::kChar:
      s = "CHAR(" + std::to_string(precision_) + ")";
      break;
    case TypeRoot::kVarChar:
      s = precision_ == kMaxLength ? "STRING" : "VARCHAR(" + std::to_string(precision_) + ")";
      break;
    case TypeRoot::kBinary:
      s = "BINARY(" + std::to_string(precision_) + ")";
      break;
    case TypeRoot::kVarBinary:
      s = precision_ == kMaxLength ? "BYTES" : "VARBINARY(" + std::to_string(precision_) + ")";
      break;
    case TypeRoot::kTime:
      s = "TIME(" + std::to_string(precision_) + ")";
      break;
    case TypeRoot::kTimestamp:
      s = "TIMESTAMP(" + std::to_string(precision_) + ")";
      break;
    case TypeRoot::kTimestampLtz:
      s = "TIMESTAMP(" + std::to_string(precision_) + ") WITH LOCAL TIME ZONE";
      break;
    case TypeRoot::kArray:
      s = "ARRAY<" + element()->ToString() + ">";
      break;
    case TypeRoot::kMultiset:
      s = "MULTISET<" + element()->ToString() + ">";
      break;
    case TypeRoot::kVector:
      s = "VECTOR<" + element()->ToString() + ", " + std::to_string(precision_) + ">";
      break;
    case TypeRoot::kMap:
      s = "MAP<" + key()->ToString() + ", " + value()->ToString() + ">";
      break;
    case TypeRoot::kRow: {
      s = "ROW<";
      for (size_t i = 0; i < fields_.size(); ++i) {
        if (i > 0) s += ", ";
        // Java DataField.asSQLString: `name` (backticks doubled), COMMENT only when non-empty.
        const DataField& f = fields_[i];
        s += "`" + ReplaceAll(f.name, "`", "``") + "` " + f.type->ToString();
        if (f.description && !f.description->empty()) {
          s += " COMMENT '" + ReplaceAll(*f.description, "'", "''") + "'";
        }
        if (f.default_value) s += " DEFAULT " + *f.default_value;
      }
      s += ">";
      break;
    }
    default:
      s = std::string(TypeRootName(root_));
      break;
  }
  return WithNullability(std::move(s), nullable_);
}

namespace {

bool EqualsImpl(const DataType& a, const DataType& b, bool check_nullable) {
  if (a.root() != b.root()) return false;
  if (check_nullable && a.nullable() != b.nullable()) return false;
  if (a.precision() != b.precision() || a.scale() != b.scale()) return false;
  switch (a.root()) {
    case TypeRoot::kArray:
    case TypeRoot::kMultiset:
    case TypeRoot::kVector:
      return EqualsImpl(*a.element(), *b.element(), check_nullable);
    case TypeRoot::kMap:
      return EqualsImpl(*a.key(), *b.key(), check_nullable) &&
             EqualsImpl(*a.value(), *b.value(), check_nullable);
    case TypeRoot::kRow: {
      if (a.num_fields() != b.num_fields()) return false;
      for (int i = 0; i < a.num_fields(); ++i) {
        const DataField& fa = a.fields()[i];
        const DataField& fb = b.fields()[i];
        if (fa.id != fb.id || fa.name != fb.name || fa.description != fb.description ||
            fa.default_value != fb.default_value ||
            !EqualsImpl(*fa.type, *fb.type, check_nullable)) {
          return false;
        }
      }
      return true;
    }
    default:
      return true;
  }
}

}  // namespace

bool DataType::Equals(const DataType& other) const { return EqualsImpl(*this, other, true); }

bool DataType::EqualsIgnoreNullable(const DataType& other) const {
  return EqualsImpl(*this, other, false);
}

}  // namespace sluice
