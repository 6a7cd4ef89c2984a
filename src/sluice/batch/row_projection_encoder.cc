#include "sluice/batch/row_projection_encoder.h"

#include "sluice/row/binary_row.h"

namespace sluice {
namespace {

std::vector<DataField> FieldsOf(const std::vector<int>& columns,
                                const std::vector<DataTypePtr>& types) {
  std::vector<DataField> fields;
  for (size_t i = 0; i < columns.size(); ++i) {
    fields.push_back(DataField{static_cast<int32_t>(i), "f" + std::to_string(i), types[i],
                               std::nullopt, std::nullopt});
  }
  return fields;
}

}  // namespace

RowProjectionEncoder::RowProjectionEncoder(std::vector<int> columns, std::vector<DataTypePtr> types)
    : columns_(std::move(columns)),
      types_(std::move(types)),
      row_type_(DataType::Row(FieldsOf(columns_, types_))),
      writer_(BinaryWriter::ForRow(static_cast<int>(columns_.size()))) {
  for (const DataTypePtr& t : types_) nested_ = nested_ || t->IsNested();
}

Result<std::string_view> RowProjectionEncoder::Encode(const ColumnBatch& batch, int64_t row) {
  if (nested_) {
    ValueList values;
    for (int c : columns_) values.push_back(batch.column(c)->GetValue(row));
    SLUICE_ASSIGN_OR_RETURN(slow_bytes_, EncodeBinaryRow(values, *row_type_));
    return std::string_view(slow_bytes_);
  }
  writer_.Reset();
  for (int pos = 0; pos < static_cast<int>(columns_.size()); ++pos) {
    const ColumnVector& v = *batch.column(columns_[static_cast<size_t>(pos)]);
    const DataType& type = *types_[static_cast<size_t>(pos)];
    const bool is_null = v.IsNull(row);
    switch (type.root()) {
      case TypeRoot::kDecimal: {
        if (is_null) {
          writer_.WriteDecimal(pos, nullptr, type.precision());
        } else {
          Decimal d;
          d.precision = type.precision();
          d.scale = type.scale();
          d.unscaled = type.IsCompactDecimal() ? v.data<int64_t>()[row] : v.data<int128_t>()[row];
          writer_.WriteDecimal(pos, &d, type.precision());
        }
        continue;
      }
      case TypeRoot::kTimestamp:
      case TypeRoot::kTimestampLtz:
        writer_.WriteTimestamp(pos, is_null ? nullptr : &v.data<Timestamp>()[row],
                               type.precision());
        continue;
      default:
        break;
    }
    if (is_null) {
      writer_.SetNullAt(pos);
      continue;
    }
    switch (v.kind()) {
      case PhysicalKind::kUInt8:
        writer_.WriteBoolean(pos, v.data<uint8_t>()[row] != 0);
        break;
      case PhysicalKind::kInt8:
        writer_.WriteByte(pos, v.data<int8_t>()[row]);
        break;
      case PhysicalKind::kInt16:
        writer_.WriteShort(pos, v.data<int16_t>()[row]);
        break;
      case PhysicalKind::kInt32:
        writer_.WriteInt(pos, v.data<int32_t>()[row]);
        break;
      case PhysicalKind::kInt64:
        writer_.WriteLong(pos, v.data<int64_t>()[row]);
        break;
      case PhysicalKind::kFloat:
        writer_.WriteFloat(pos, v.data<float>()[row]);
        break;
      case PhysicalKind::kDouble:
        writer_.WriteDouble(pos, v.data<double>()[row]);
        break;
      case PhysicalKind::kBytes:
        writer_.WriteBytes(pos, v.GetBytes(row));
        break;
      default:
        return Status::NotSupported("cannot encode a column of type " + type.ToString() +
                                    " as a key");
    }
  }
  return writer_.bytes();
}

}  // namespace sluice
