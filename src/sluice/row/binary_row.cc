#include "sluice/row/binary_row.h"

#include <cstring>

#include "sluice/base/murmur_hash.h"
#include "sluice/row/binary_section.h"
#include "sluice/row/binary_value.h"
#include "sluice/row/binary_writer.h"

namespace sluice {

namespace bs = binary_section;

namespace {

std::string FieldContext(int pos) { return "field " + std::to_string(pos); }

Status CheckRowType(const DataType& row_type) {
  if (row_type.root() != TypeRoot::kRow) {
    return Status::InvalidArgument("BinaryRow type must be a ROW, got " + row_type.ToString());
  }
  return Status::OK();
}

}  // namespace

NullReservation DetectNullReservation(const BinaryRowView& row, const DataType& row_type) {
  for (int i = 0; i < row.arity() && i < row_type.num_fields(); ++i) {
    const DataType& type = *row_type.fields()[i].type;
    const bool non_compact =
        (type.root() == TypeRoot::kDecimal && !type.IsCompactDecimal()) ||
        ((type.root() == TypeRoot::kTimestamp || type.root() == TypeRoot::kTimestampLtz) &&
         type.precision() > DataType::kMaxCompactTimestampPrecision);
    if (non_compact && row.IsNullAt(i)) {
      return row.GetLong(i) == 0 ? NullReservation::kNone : NullReservation::kReserve;
    }
  }
  return NullReservation::kReserve;
}

Result<BinaryRowView> BinaryRowView::Make(std::string_view bytes, int arity) {
  if (arity < 0) return Status::Corruption("negative BinaryRow arity " + std::to_string(arity));
  const size_t fixed = FixedPartSize(arity);
  if (bytes.size() < fixed) {
    return Status::Corruption("BinaryRow of " + std::to_string(arity) + " fields needs " +
                              std::to_string(fixed) + " bytes for its null bits and slots, has " +
                              std::to_string(bytes.size()));
  }
  return BinaryRowView(bytes, arity);
}

Result<BinaryRowView> BinaryRowView::FromSerialized(std::string_view serialized) {
  if (serialized.size() < 4) {
    return Status::Corruption("serialized BinaryRow of " + std::to_string(serialized.size()) +
                              " bytes has no arity");
  }
  const int32_t arity =
      static_cast<int32_t>(DecodeFixed32BE(reinterpret_cast<const uint8_t*>(serialized.data())));
  return Make(serialized.substr(4), arity);
}

bool BinaryRowView::AnyNull() const {
  // Skip the header byte; any other bit of the null-bit words is a null field.
  const size_t null_bytes = NullBitsSize(arity_);
  for (size_t i = 1; i < null_bytes; ++i) {
    if (bytes_[i] != 0) return true;
  }
  return false;
}

float BinaryRowView::GetFloat(int pos) const {
  float f;
  std::memcpy(&f, Slot(pos), 4);
  return f;
}

double BinaryRowView::GetDouble(int pos) const {
  double d;
  std::memcpy(&d, Slot(pos), 8);
  return d;
}

Result<std::string_view> BinaryRowView::GetString(int pos) const {
  auto r = bs::ReadVarBytes(bytes_, SlotOffset(pos));
  if (!r.ok()) return r.status().WithContext(FieldContext(pos));
  return r;
}

Result<Decimal> BinaryRowView::GetDecimal(int pos, int precision, int scale) const {
  auto r = bs::ReadDecimal(bytes_, SlotOffset(pos), precision, scale);
  if (!r.ok()) return r.status().WithContext(FieldContext(pos));
  return r;
}

Result<Timestamp> BinaryRowView::GetTimestamp(int pos, int precision) const {
  auto r = bs::ReadTimestamp(bytes_, SlotOffset(pos), precision);
  if (!r.ok()) return r.status().WithContext(FieldContext(pos));
  return r;
}

Result<std::string_view> BinaryRowView::GetNested(int pos) const {
  auto r = bs::ReadOutOfLine(bytes_, SlotOffset(pos));
  if (!r.ok()) return r.status().WithContext(FieldContext(pos));
  return r;
}

int32_t BinaryRowView::HashCode() const {
  return MurmurHashWords(reinterpret_cast<const uint8_t*>(bytes_.data()), bytes_.size());
}

std::string SerializeBinaryRow(std::string_view row_bytes, int arity) {
  std::string out;
  out.reserve(4 + row_bytes.size());
  PutFixed32BE(&out, static_cast<uint32_t>(arity));
  out.append(row_bytes);
  return out;
}

Result<Value> DecodeBinaryRowField(const BinaryRowView& row, int pos, const DataType& type) {
  if (pos < 0 || pos >= row.arity()) {
    return Status::InvalidArgument("field " + std::to_string(pos) + " of a BinaryRow with " +
                                   std::to_string(row.arity()) + " fields");
  }
  if (row.IsNullAt(pos)) return Value::Null();
  auto r = ReadBinaryValue(row.bytes(), row.SlotOffset(pos), type);
  if (!r.ok()) return r.status().WithContext(FieldContext(pos));
  return r;
}

Result<ValueList> DecodeBinaryRow(const BinaryRowView& row, const DataType& row_type) {
  SLUICE_RETURN_NOT_OK(CheckRowType(row_type));
  if (row.arity() != row_type.num_fields()) {
    return Status::Corruption("BinaryRow has " + std::to_string(row.arity()) +
                              " fields, its type " + row_type.ToString() + " has " +
                              std::to_string(row_type.num_fields()));
  }
  ValueList values;
  values.reserve(static_cast<size_t>(row.arity()));
  for (int i = 0; i < row.arity(); ++i) {
    SLUICE_ASSIGN_OR_RETURN(Value v, DecodeBinaryRowField(row, i, *row_type.fields()[i].type));
    values.push_back(std::move(v));
  }
  return values;
}

Result<ValueList> DecodeBinaryRow(std::string_view row_bytes, const DataType& row_type) {
  SLUICE_RETURN_NOT_OK(CheckRowType(row_type));
  SLUICE_ASSIGN_OR_RETURN(BinaryRowView row, BinaryRowView::Make(row_bytes, row_type.num_fields()));
  return DecodeBinaryRow(row, row_type);
}

Result<ValueList> DecodeSerializedBinaryRow(std::string_view serialized, const DataType& row_type) {
  SLUICE_ASSIGN_OR_RETURN(BinaryRowView row, BinaryRowView::FromSerialized(serialized));
  return DecodeBinaryRow(row, row_type);
}

Result<std::string> EncodeBinaryRow(const ValueList& values, const DataType& row_type, RowKind kind,
                                    NullReservation nulls) {
  SLUICE_RETURN_NOT_OK(CheckRowType(row_type));
  if (values.size() != static_cast<size_t>(row_type.num_fields())) {
    return Status::InvalidArgument(std::to_string(values.size()) + " values for a row type of " +
                                   std::to_string(row_type.num_fields()) + " fields");
  }
  BinaryWriter writer = BinaryWriter::ForRow(row_type.num_fields());
  writer.SetRowKind(kind);
  for (int i = 0; i < row_type.num_fields(); ++i) {
    const DataType& type = *row_type.fields()[i].type;
    const Value& value = values[static_cast<size_t>(i)];
    if (value.is_null()) {
      // The writer reserves variable-part space for a null non-compact DECIMAL / TIMESTAMP.
      if (nulls == NullReservation::kNone) {
        writer.SetNullAt(i);
      } else if (type.root() == TypeRoot::kDecimal) {
        writer.WriteDecimal(i, nullptr, type.precision());
      } else if (type.root() == TypeRoot::kTimestamp || type.root() == TypeRoot::kTimestampLtz) {
        writer.WriteTimestamp(i, nullptr, type.precision());
      } else {
        writer.SetNullAt(i);
      }
      continue;
    }
    SLUICE_RETURN_NOT_OK_CTX(WriteBinaryValue(&writer, i, value, type), FieldContext(i));
  }
  return writer.Release();
}

}  // namespace sluice
