// Bulk unpacking of little-endian bit-packed integers (LSB first), as used by the RLE /
// bit-packed hybrid and DELTA_BINARY_PACKED.
//
// Thread safety: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace sluice::parquet {

// Unpacks `count` values of `bit_width` (0..64) bits starting at bit 0 of `in`.
// REQUIRES: `in` holds at least ceil(count * bit_width / 8) bytes (`in_size`).
template <typename T>
inline void UnpackBits(const uint8_t* in, size_t in_size, int bit_width, int64_t count, T* out) {
  if (bit_width == 0) {
    for (int64_t i = 0; i < count; ++i) out[i] = 0;
    return;
  }
  const uint64_t mask = bit_width == 64 ? ~uint64_t{0} : (uint64_t{1} << bit_width) - 1;
  uint64_t bit = 0;
  for (int64_t i = 0; i < count; ++i, bit += static_cast<uint64_t>(bit_width)) {
    size_t byte = bit >> 3;
    unsigned shift = bit & 7;
    uint64_t word = 0;
    size_t avail = in_size - byte;
    if (avail >= 8) {
      std::memcpy(&word, in + byte, 8);
    } else {
      std::memcpy(&word, in + byte, avail);
    }
    uint64_t v = word >> shift;
    if (shift + static_cast<unsigned>(bit_width) > 64) {
      v |= static_cast<uint64_t>(in[byte + 8]) << (64 - shift);
    }
    out[i] = static_cast<T>(v & mask);
  }
}

}  // namespace sluice::parquet
