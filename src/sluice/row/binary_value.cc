#include "sluice/row/binary_value.h"

#include <cstring>
#include <string>

#include "sluice/base/coding.h"
#include "sluice/row/binary_array.h"
#include "sluice/row/binary_map.h"
#include "sluice/row/binary_row.h"
#include "sluice/row/binary_section.h"

namespace sluice {

namespace bs = binary_section;

namespace {

// Element width of a VECTOR's primitive element type (BinaryVector.getPrimitiveElementSize).
int VectorElementWidth(TypeRoot root) {
  switch (root) {
    case TypeRoot::kBoolean:
    case TypeRoot::kTinyInt:
      return 1;
    case TypeRoot::kSmallInt:
      return 2;
    case TypeRoot::kInt:
    case TypeRoot::kFloat:
      return 4;
    case TypeRoot::kBigInt:
    case TypeRoot::kDouble:
      return 8;
    default:
      return 0;
  }
}

Result<Value> ReadVector(std::string_view item, const DataType& type) {
  const DataType& element = *type.element();
  const int width = VectorElementWidth(element.root());
  if (width == 0) return Status::NotSupported("VECTOR of " + element.ToString());
  if (item.size() < 4) {
    return Status::Corruption("VECTOR of " + std::to_string(item.size()) +
                              " bytes has no element count");
  }
  const auto* p = reinterpret_cast<const uint8_t*>(item.data());
  const int32_t count = static_cast<int32_t>(DecodeFixed32LE(p));
  if (count < 0 || static_cast<uint64_t>(count) * width > item.size() - 4) {
    return Status::Corruption("VECTOR element count " + std::to_string(count) + " does not fit " +
                              std::to_string(item.size() - 4) + " bytes");
  }
  ValueList out;
  out.reserve(static_cast<size_t>(count));
  for (int32_t i = 0; i < count; ++i) {
    SLUICE_ASSIGN_OR_RETURN(Value v,
                            ReadBinaryValue(item, 4 + static_cast<size_t>(i) * width, element));
    out.push_back(std::move(v));
  }
  return Value::Array(std::move(out));
}

Status WriteVector(BinaryWriter* writer, int pos, const ValueList& elements, const DataType& type) {
  const DataType& element = *type.element();
  const int width = VectorElementWidth(element.root());
  if (width == 0) return Status::NotSupported("VECTOR of " + element.ToString());
  std::string item(4 + elements.size() * width, '\0');
  auto* p = reinterpret_cast<uint8_t*>(item.data());
  EncodeFixed32LE(p, static_cast<uint32_t>(elements.size()));
  for (size_t i = 0; i < elements.size(); ++i) {
    const Value& v = elements[i];
    uint8_t* slot = p + 4 + i * width;
    switch (v.kind()) {
      case Value::Kind::kBoolean:
      case Value::Kind::kInt8:
      case Value::Kind::kInt16:
      case Value::Kind::kInt32:
      case Value::Kind::kInt64: {
        const uint64_t bits = static_cast<uint64_t>(v.AsInt64());
        std::memcpy(slot, &bits, width);  // little-endian: the low `width` bytes
        break;
      }
      case Value::Kind::kFloat: {
        const float f = v.float32();
        std::memcpy(slot, &f, 4);
        break;
      }
      case Value::Kind::kDouble: {
        const double d = v.float64();
        std::memcpy(slot, &d, 8);
        break;
      }
      default:
        return Status::InvalidArgument("VECTOR element " + std::to_string(i) + " is " +
                                       v.DebugString() + ", not a " + element.ToString());
    }
  }
  writer->WriteOutOfLine(pos, item);
  return Status::OK();
}

Status CheckVariant(std::string_view item) {
  if (item.size() < 4) {
    return Status::Corruption("VARIANT of " + std::to_string(item.size()) +
                              " bytes has no value length");
  }
  const int32_t value_length =
      static_cast<int32_t>(DecodeFixed32LE(reinterpret_cast<const uint8_t*>(item.data())));
  if (value_length < 0 || static_cast<size_t>(value_length) > item.size() - 4) {
    return Status::Corruption("VARIANT value length " + std::to_string(value_length) +
                              " does not fit " + std::to_string(item.size() - 4) + " bytes");
  }
  return Status::OK();
}

// A MULTISET is stored as a map from element to INT NOT NULL count.
const DataType& MultisetCountType() {
  static const DataTypePtr kCount = DataType::Int(false);
  return *kCount;
}

Status WrongKind(const Value& value, const DataType& type) {
  return Status::InvalidArgument("value " + value.DebugString() + " does not fit type " +
                                 type.ToString());
}

bool IsBytesKind(const Value& v) {
  return v.kind() == Value::Kind::kString || v.kind() == Value::Kind::kBinary;
}

}  // namespace

Result<Value> ReadBinaryValue(std::string_view section, size_t slot_offset, const DataType& type) {
  const auto* slot = reinterpret_cast<const uint8_t*>(section.data()) + slot_offset;
  switch (type.root()) {
    case TypeRoot::kBoolean:
      return Value::Boolean(*slot != 0);
    case TypeRoot::kTinyInt:
      return Value::Int8(static_cast<int8_t>(*slot));
    case TypeRoot::kSmallInt:
      return Value::Int16(static_cast<int16_t>(DecodeFixed16LE(slot)));
    case TypeRoot::kInt:
    case TypeRoot::kDate:
    case TypeRoot::kTime:
      return Value::Int32(static_cast<int32_t>(DecodeFixed32LE(slot)));
    case TypeRoot::kBigInt:
      return Value::Int64(static_cast<int64_t>(DecodeFixed64LE(slot)));
    case TypeRoot::kFloat: {
      float f;
      std::memcpy(&f, slot, 4);
      return Value::Float(f);
    }
    case TypeRoot::kDouble: {
      double d;
      std::memcpy(&d, slot, 8);
      return Value::Double(d);
    }
    case TypeRoot::kDecimal: {
      SLUICE_ASSIGN_OR_RETURN(
          Decimal d, bs::ReadDecimal(section, slot_offset, type.precision(), type.scale()));
      return Value::FromDecimal(d);
    }
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz: {
      SLUICE_ASSIGN_OR_RETURN(Timestamp ts,
                              bs::ReadTimestamp(section, slot_offset, type.precision()));
      return Value::FromTimestamp(ts);
    }
    case TypeRoot::kChar:
    case TypeRoot::kVarChar: {
      SLUICE_ASSIGN_OR_RETURN(std::string_view s, bs::ReadVarBytes(section, slot_offset));
      return Value::String(std::string(s));
    }
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary:
    case TypeRoot::kBlob: {
      SLUICE_ASSIGN_OR_RETURN(std::string_view s, bs::ReadVarBytes(section, slot_offset));
      return Value::Binary(std::string(s));
    }
    case TypeRoot::kVariant: {
      SLUICE_ASSIGN_OR_RETURN(std::string_view item, bs::ReadOutOfLine(section, slot_offset));
      SLUICE_RETURN_NOT_OK(CheckVariant(item));
      return Value::Binary(std::string(item));
    }
    case TypeRoot::kRow: {
      SLUICE_ASSIGN_OR_RETURN(std::string_view item, bs::ReadOutOfLine(section, slot_offset));
      SLUICE_ASSIGN_OR_RETURN(ValueList fields, DecodeBinaryRow(item, type));
      return Value::Row(std::move(fields));
    }
    case TypeRoot::kArray: {
      SLUICE_ASSIGN_OR_RETURN(std::string_view item, bs::ReadOutOfLine(section, slot_offset));
      SLUICE_ASSIGN_OR_RETURN(ValueList elements, DecodeBinaryArray(item, *type.element()));
      return Value::Array(std::move(elements));
    }
    case TypeRoot::kMap: {
      SLUICE_ASSIGN_OR_RETURN(std::string_view item, bs::ReadOutOfLine(section, slot_offset));
      SLUICE_ASSIGN_OR_RETURN(ValuePairs pairs, DecodeBinaryMap(item, *type.key(), *type.value()));
      return Value::Map(std::move(pairs));
    }
    case TypeRoot::kMultiset: {
      SLUICE_ASSIGN_OR_RETURN(std::string_view item, bs::ReadOutOfLine(section, slot_offset));
      SLUICE_ASSIGN_OR_RETURN(ValuePairs pairs,
                              DecodeBinaryMap(item, *type.element(), MultisetCountType()));
      return Value::Map(std::move(pairs));
    }
    case TypeRoot::kVector: {
      SLUICE_ASSIGN_OR_RETURN(std::string_view item, bs::ReadOutOfLine(section, slot_offset));
      return ReadVector(item, type);
    }
  }
  return Status::NotSupported("type " + type.ToString() + " in a BinaryRow");
}

Status WriteBinaryValue(BinaryWriter* writer, int pos, const Value& value, const DataType& type) {
  using K = Value::Kind;
  switch (type.root()) {
    case TypeRoot::kBoolean:
      if (value.kind() != K::kBoolean) return WrongKind(value, type);
      writer->WriteBoolean(pos, value.boolean());
      return Status::OK();
    case TypeRoot::kTinyInt:
      if (value.kind() != K::kInt8) return WrongKind(value, type);
      writer->WriteByte(pos, value.int8());
      return Status::OK();
    case TypeRoot::kSmallInt:
      if (value.kind() != K::kInt16) return WrongKind(value, type);
      writer->WriteShort(pos, value.int16());
      return Status::OK();
    case TypeRoot::kInt:
    case TypeRoot::kDate:
    case TypeRoot::kTime:
      if (value.kind() != K::kInt32) return WrongKind(value, type);
      writer->WriteInt(pos, value.int32());
      return Status::OK();
    case TypeRoot::kBigInt:
      if (value.kind() != K::kInt64) return WrongKind(value, type);
      writer->WriteLong(pos, value.int64());
      return Status::OK();
    case TypeRoot::kFloat:
      if (value.kind() != K::kFloat) return WrongKind(value, type);
      writer->WriteFloat(pos, value.float32());
      return Status::OK();
    case TypeRoot::kDouble:
      if (value.kind() != K::kDouble) return WrongKind(value, type);
      writer->WriteDouble(pos, value.float64());
      return Status::OK();
    case TypeRoot::kDecimal:
      if (value.kind() != K::kDecimal) return WrongKind(value, type);
      writer->WriteDecimal(pos, &value.decimal(), type.precision());
      return Status::OK();
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz:
      if (value.kind() != K::kTimestamp) return WrongKind(value, type);
      writer->WriteTimestamp(pos, &value.timestamp(), type.precision());
      return Status::OK();
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary:
    case TypeRoot::kBlob:
      if (!IsBytesKind(value)) return WrongKind(value, type);
      writer->WriteBytes(pos, value.bytes());
      return Status::OK();
    case TypeRoot::kVariant:
      if (!IsBytesKind(value)) return WrongKind(value, type);
      SLUICE_RETURN_NOT_OK(CheckVariant(value.bytes()).WithContext("VARIANT value"));
      writer->WriteOutOfLine(pos, value.bytes());
      return Status::OK();
    case TypeRoot::kRow: {
      if (value.kind() != K::kRow) return WrongKind(value, type);
      SLUICE_ASSIGN_OR_RETURN(std::string row, EncodeBinaryRow(value.list(), type));
      writer->WriteOutOfLine(pos, row);
      return Status::OK();
    }
    case TypeRoot::kArray: {
      if (value.kind() != K::kArray) return WrongKind(value, type);
      SLUICE_ASSIGN_OR_RETURN(std::string array, EncodeBinaryArray(value.list(), *type.element()));
      writer->WriteOutOfLine(pos, array);
      return Status::OK();
    }
    case TypeRoot::kMap: {
      if (value.kind() != K::kMap) return WrongKind(value, type);
      SLUICE_ASSIGN_OR_RETURN(std::string map,
                              EncodeBinaryMap(value.pairs(), *type.key(), *type.value()));
      writer->WriteOutOfLine(pos, map);
      return Status::OK();
    }
    case TypeRoot::kMultiset: {
      if (value.kind() != K::kMap) return WrongKind(value, type);
      SLUICE_ASSIGN_OR_RETURN(std::string map,
                              EncodeBinaryMap(value.pairs(), *type.element(), MultisetCountType()));
      writer->WriteOutOfLine(pos, map);
      return Status::OK();
    }
    case TypeRoot::kVector:
      if (value.kind() != K::kArray) return WrongKind(value, type);
      return WriteVector(writer, pos, value.list(), type);
  }
  return Status::NotSupported("type " + type.ToString() + " in a BinaryRow");
}

}  // namespace sluice
