#include "sluice/row/binary_array.h"

#include "sluice/row/binary_value.h"
#include "sluice/row/binary_writer.h"

namespace sluice {

namespace {

std::string ElementContext(int pos) { return "element " + std::to_string(pos); }

}  // namespace

int BinaryArrayElementWidth(const DataType& type) {
  switch (type.root()) {
    case TypeRoot::kBoolean:
    case TypeRoot::kTinyInt:
      return 1;
    case TypeRoot::kSmallInt:
      return 2;
    case TypeRoot::kInt:
    case TypeRoot::kFloat:
    case TypeRoot::kDate:
    case TypeRoot::kTime:
      return 4;
    case TypeRoot::kVector:
      return 0;
    default:
      return 8;
  }
}

Result<BinaryArrayView> BinaryArrayView::Make(std::string_view bytes,
                                              const DataType& element_type) {
  const int width = BinaryArrayElementWidth(element_type);
  if (width == 0) {
    return Status::NotSupported("BinaryArray of " + element_type.ToString());
  }
  if (bytes.size() < 4) {
    return Status::Corruption("BinaryArray of " + std::to_string(bytes.size()) +
                              " bytes has no element count");
  }
  const int32_t count =
      static_cast<int32_t>(DecodeFixed32LE(reinterpret_cast<const uint8_t*>(bytes.data())));
  if (count < 0) {
    return Status::Corruption("negative BinaryArray element count " + std::to_string(count));
  }
  const uint64_t header = 4 + static_cast<uint64_t>((int64_t{count} + 31) / 32) * 4;
  const uint64_t fixed = header + static_cast<uint64_t>(count) * static_cast<uint64_t>(width);
  if (fixed > bytes.size()) {
    return Status::Corruption("BinaryArray of " + std::to_string(count) + " elements of " +
                              std::to_string(width) + " bytes needs " + std::to_string(fixed) +
                              " bytes for its null bits and slots, has " +
                              std::to_string(bytes.size()));
  }
  return BinaryArrayView(bytes, count, width, static_cast<size_t>(header));
}

Result<ValueList> DecodeBinaryArray(const BinaryArrayView& array, const DataType& element_type) {
  ValueList values;
  values.reserve(static_cast<size_t>(array.size()));
  for (int i = 0; i < array.size(); ++i) {
    if (array.IsNullAt(i)) {
      values.emplace_back();
      continue;
    }
    auto v = ReadBinaryValue(array.bytes(), array.SlotOffset(i), element_type);
    if (!v.ok()) return v.status().WithContext(ElementContext(i));
    values.push_back(std::move(v).value());
  }
  return values;
}

Result<ValueList> DecodeBinaryArray(std::string_view bytes, const DataType& element_type) {
  SLUICE_ASSIGN_OR_RETURN(BinaryArrayView array, BinaryArrayView::Make(bytes, element_type));
  return DecodeBinaryArray(array, element_type);
}

Result<std::string> EncodeBinaryArray(const ValueList& values, const DataType& element_type) {
  const int width = BinaryArrayElementWidth(element_type);
  if (width == 0) return Status::NotSupported("BinaryArray of " + element_type.ToString());
  BinaryWriter writer = BinaryWriter::ForArray(static_cast<int>(values.size()), width);
  for (size_t i = 0; i < values.size(); ++i) {
    const int pos = static_cast<int>(i);
    if (values[i].is_null()) {
      writer.SetNullAt(pos);
      continue;
    }
    SLUICE_RETURN_NOT_OK_CTX(WriteBinaryValue(&writer, pos, values[i], element_type),
                             ElementContext(pos));
  }
  return writer.Release();
}

}  // namespace sluice
