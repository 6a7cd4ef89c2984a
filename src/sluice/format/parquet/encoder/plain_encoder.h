// PLAIN encoding of Parquet values: fixed-width values little-endian back to back, byte arrays
// as a 4-byte little-endian length followed by the bytes, booleans one bit each, least
// significant bit first.
//
// Thread safety: stateless functions.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

#include "sluice/base/coding.h"
#include "sluice/buffer.h"

namespace sluice::parquet {

template <typename T>
inline void PlainEncodeFixed(const T* values, int64_t n, Buffer* out) {
  out->Append(values, static_cast<size_t>(n) * sizeof(T));
}

// `values` are 0 or 1.
inline void PlainEncodeBooleans(const uint8_t* values, int64_t n, Buffer* out) {
  size_t start = out->size();
  out->ResizeZeroed(start + static_cast<size_t>((n + 7) / 8));
  uint8_t* p = out->data() + start;
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint8_t byte = 0;
    for (int k = 0; k < 8; ++k) byte |= static_cast<uint8_t>((values[i + k] & 1) << k);
    p[i / 8] = byte;
  }
  for (; i < n; ++i) p[i / 8] |= static_cast<uint8_t>((values[i] & 1) << (i % 8));
}

// Appends one byte array; `out` must have room (callers reserve for a whole run).
inline uint8_t* PlainPutByteArray(uint8_t* p, std::string_view v) {
  EncodeFixed32LE(p, static_cast<uint32_t>(v.size()));
  // An empty value may point nowhere (the bytes buffer of an all-empty column).
  if (!v.empty()) std::memcpy(p + 4, v.data(), v.size());
  return p + 4 + v.size();
}

}  // namespace sluice::parquet
