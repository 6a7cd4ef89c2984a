// The RLE / bit-packed hybrid encoding of Parquet (definition and repetition levels, dictionary
// indices): runs of at least 8 equal values become RLE runs, everything else is bit-packed in
// groups of 8 values, least significant bit first.
//
// Thread safety: stateless functions.
#pragma once

#include <cstdint>

#include "sluice/buffer.h"

namespace sluice::parquet {

// Bits needed to represent `max_value` (0 for 0).
inline int BitWidthOf(uint64_t max_value) {
  return max_value == 0 ? 0 : 64 - __builtin_clzll(max_value);
}

// Appends the hybrid encoding of `values[0, n)` (each < 2^bit_width, bit_width <= 32) to `out`,
// without a length prefix. A final partial bit-packed group is padded with zeros, so the caller
// must record `n` (Parquet pages do, in num_values).
void EncodeRleBitPacked(const uint32_t* values, int64_t n, int bit_width, Buffer* out);
void EncodeRleBitPacked(const int16_t* values, int64_t n, int bit_width, Buffer* out);

}  // namespace sluice::parquet
