// BinaryMap: Paimon's map encoding (org.apache.paimon.data.BinaryMap), used for MAP and MULTISET
// values inside BinaryRows (a MULTISET is a map from element to INT count).
//
//   | int32 size of the key array in bytes | key BinaryArray | value BinaryArray |
//
// Thread safety: BinaryMapView is an immutable view; the free functions are pure.
#pragma once

#include <string>
#include <string_view>

#include "sluice/data_type.h"
#include "sluice/result.h"
#include "sluice/row/binary_array.h"
#include "sluice/value.h"

namespace sluice {

class BinaryMapView {
 public:
  // A view of the `bytes` of a map. Checks the key-array size and that both arrays have the same
  // number of elements. `bytes` must outlive the view.
  static Result<BinaryMapView> Make(std::string_view bytes, const DataType& key_type,
                                    const DataType& value_type);

  BinaryMapView() = default;

  int32_t size() const { return keys_.size(); }
  const BinaryArrayView& keys() const { return keys_; }
  const BinaryArrayView& values() const { return values_; }

 private:
  BinaryMapView(BinaryArrayView keys, BinaryArrayView values) : keys_(keys), values_(values) {}

  BinaryArrayView keys_;
  BinaryArrayView values_;
};

// Decodes the (key, value) pairs in stored order.
Result<ValuePairs> DecodeBinaryMap(std::string_view bytes, const DataType& key_type,
                                   const DataType& value_type);

// Encodes `pairs` as Java's InternalMapSerializer.toBinaryMap does.
Result<std::string> EncodeBinaryMap(const ValuePairs& pairs, const DataType& key_type,
                                    const DataType& value_type);

}  // namespace sluice
