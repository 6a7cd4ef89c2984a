#include "sluice/row/binary_map.h"

#include "sluice/base/coding.h"

namespace sluice {

Result<BinaryMapView> BinaryMapView::Make(std::string_view bytes, const DataType& key_type,
                                          const DataType& value_type) {
  if (bytes.size() < 4) {
    return Status::Corruption("BinaryMap of " + std::to_string(bytes.size()) +
                              " bytes has no key array size");
  }
  const int32_t key_bytes =
      static_cast<int32_t>(DecodeFixed32LE(reinterpret_cast<const uint8_t*>(bytes.data())));
  if (key_bytes < 0 || static_cast<size_t>(key_bytes) > bytes.size() - 4) {
    return Status::Corruption("BinaryMap key array size " + std::to_string(key_bytes) +
                              " does not fit " + std::to_string(bytes.size() - 4) + " bytes");
  }
  auto keys = BinaryArrayView::Make(bytes.substr(4, static_cast<size_t>(key_bytes)), key_type);
  if (!keys.ok()) return keys.status().WithContext("map keys");
  auto values = BinaryArrayView::Make(bytes.substr(4 + static_cast<size_t>(key_bytes)), value_type);
  if (!values.ok()) return values.status().WithContext("map values");
  if (keys->size() != values->size()) {
    return Status::Corruption("BinaryMap has " + std::to_string(keys->size()) + " keys and " +
                              std::to_string(values->size()) + " values");
  }
  return BinaryMapView(*keys, *values);
}

Result<ValuePairs> DecodeBinaryMap(std::string_view bytes, const DataType& key_type,
                                   const DataType& value_type) {
  SLUICE_ASSIGN_OR_RETURN(BinaryMapView map, BinaryMapView::Make(bytes, key_type, value_type));
  auto keys = DecodeBinaryArray(map.keys(), key_type);
  if (!keys.ok()) return keys.status().WithContext("map keys");
  auto values = DecodeBinaryArray(map.values(), value_type);
  if (!values.ok()) return values.status().WithContext("map values");
  ValuePairs pairs;
  pairs.reserve(keys->size());
  for (size_t i = 0; i < keys->size(); ++i) {
    pairs.emplace_back(std::move((*keys)[i]), std::move((*values)[i]));
  }
  return pairs;
}

Result<std::string> EncodeBinaryMap(const ValuePairs& pairs, const DataType& key_type,
                                    const DataType& value_type) {
  ValueList keys;
  ValueList values;
  keys.reserve(pairs.size());
  values.reserve(pairs.size());
  for (const auto& [k, v] : pairs) {
    keys.push_back(k);
    values.push_back(v);
  }
  auto key_bytes = EncodeBinaryArray(keys, key_type);
  if (!key_bytes.ok()) return key_bytes.status().WithContext("map keys");
  auto value_bytes = EncodeBinaryArray(values, value_type);
  if (!value_bytes.ok()) return value_bytes.status().WithContext("map values");
  std::string out;
  out.reserve(4 + key_bytes->size() + value_bytes->size());
  PutFixed32LE(&out, static_cast<uint32_t>(key_bytes->size()));
  out += *key_bytes;
  out += *value_bytes;
  return out;
}

}  // namespace sluice
