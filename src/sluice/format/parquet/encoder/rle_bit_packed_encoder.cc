#include "sluice/format/parquet/encoder/rle_bit_packed_encoder.h"

namespace sluice::parquet {
namespace {

// Values in a bit-packed group and the shortest run worth an RLE run.
constexpr int64_t kGroupSize = 8;

inline uint8_t* PutVarint(uint8_t* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<uint8_t>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<uint8_t>(v);
  return p;
}

template <typename T>
inline bool StartsRun(const T* v, int64_t i, int64_t n) {
  if (i + kGroupSize > n) return false;
  const T first = v[i];
  for (int64_t k = 1; k < kGroupSize; ++k) {
    if (v[i + k] != first) return false;
  }
  return true;
}

// Packs one group of 8 values (zero-padded past `count`) into `bit_width` bytes at `p`.
template <typename T>
inline uint8_t* PackGroup(const T* v, int64_t count, int bit_width, uint8_t* p) {
  uint64_t acc = 0;
  int bits = 0;
  for (int64_t k = 0; k < kGroupSize; ++k) {
    uint64_t x = k < count ? static_cast<uint64_t>(static_cast<uint32_t>(v[k])) : 0;
    acc |= x << bits;
    bits += bit_width;
    while (bits >= 8) {
      *p++ = static_cast<uint8_t>(acc);
      acc >>= 8;
      bits -= 8;
    }
  }
  return p;
}

template <typename T>
void Encode(const T* v, int64_t n, int bit_width, Buffer* out) {
  const int value_bytes = (bit_width + 7) / 8;
  // Worst case: every group bit-packed plus headers; RLE runs are never larger than that.
  size_t bound = static_cast<size_t>((n / kGroupSize + 2) * (bit_width + 1) + 20);
  size_t start = out->size();
  out->Resize(start + bound);
  uint8_t* p = out->data() + start;
  int64_t i = 0;
  while (i < n) {
    const T first = v[i];
    int64_t j = i + 1;
    while (j < n && v[j] == first) ++j;
    if (j - i >= kGroupSize) {
      p = PutVarint(p, static_cast<uint64_t>(j - i) << 1);
      uint32_t value = static_cast<uint32_t>(first);
      for (int b = 0; b < value_bytes; ++b) *p++ = static_cast<uint8_t>(value >> (8 * b));
      i = j;
      continue;
    }
    // Bit-pack groups until a run of 8 equal values starts at a group boundary.
    int64_t end = i + kGroupSize;
    while (end < n && !StartsRun(v, end, n)) end += kGroupSize;
    if (end > n) end = n;
    int64_t groups = (end - i + kGroupSize - 1) / kGroupSize;
    p = PutVarint(p, (static_cast<uint64_t>(groups) << 1) | 1);
    for (int64_t g = 0; g < groups; ++g) {
      int64_t base = i + g * kGroupSize;
      p = PackGroup(v + base, end - base, bit_width, p);
    }
    i = end;
  }
  out->Resize(static_cast<size_t>(p - out->data()));
}

}  // namespace

void EncodeRleBitPacked(const uint32_t* values, int64_t n, int bit_width, Buffer* out) {
  Encode(values, n, bit_width, out);
}

void EncodeRleBitPacked(const int16_t* values, int64_t n, int bit_width, Buffer* out) {
  Encode(values, n, bit_width, out);
}

}  // namespace sluice::parquet
