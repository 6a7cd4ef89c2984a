// ThriftWireType: the element types of Thrift's compact protocol (the low nibble of a field
// header, and the element type of a list header), which ThriftCompactReader decodes and
// ThriftCompactWriter writes.
#pragma once

#include <cstdint>

namespace sluice::parquet {

enum class ThriftWireType : uint8_t {
  kStop = 0,
  kBoolTrue = 1,
  kBoolFalse = 2,
  kByte = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kSet = 10,
  kMap = 11,
  kStruct = 12,
};

}  // namespace sluice::parquet
