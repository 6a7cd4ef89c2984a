// Bulk unpacking of little-endian bit-packed integers (LSB first), as used by the RLE /
// bit-packed hybrid and DELTA_BINARY_PACKED.
//
// Values come in groups of 8, which take exactly `bit_width` bytes. Whole groups are unpacked
// by a routine compiled for their width (every shift and load offset a constant, the 8 values
// unrolled); dictionary indices of a few bits were a third of a TPC-H q01 scan when each value
// computed its own offset and checked the bytes left. The values past the last whole group
// that can be read with 8 bytes to spare take the careful loop.
//
// Thread safety: pure functions.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

namespace sluice::parquet {

namespace bit_unpack_internal {

// Value J of a group of W-bit values starting at `in`.
// REQUIRES: `in` readable for W + 8 bytes.
template <int W, int J>
inline uint64_t GroupValue(const uint8_t* in) {
  constexpr int kBit = J * W;
  constexpr int kByte = kBit / 8;
  constexpr int kShift = kBit % 8;
  constexpr uint64_t kMask = W == 64 ? ~uint64_t{0} : (uint64_t{1} << W) - 1;
  uint64_t word;
  std::memcpy(&word, in + kByte, 8);
  uint64_t v = word >> kShift;
  if constexpr (kShift + W > 64) v |= static_cast<uint64_t>(in[kByte + 8]) << (64 - kShift);
  return v & kMask;
}

// Unpacks `groups` groups of 8 W-bit values.
// REQUIRES: `in` readable for groups * W + 8 bytes.
template <int W, typename T>
void UnpackGroups(const uint8_t* in, int64_t groups, T* out) {
  for (int64_t g = 0; g < groups; ++g, in += W, out += 8) {
    [&]<int... J>(std::integer_sequence<int, J...>) {
      ((out[J] = static_cast<T>(GroupValue<W, J>(in))), ...);
    }
    (std::make_integer_sequence<int, 8>{});
  }
}

template <typename T>
using GroupUnpacker = void (*)(const uint8_t*, int64_t, T*);

// The group routine of each width 1..64, indexed by width (0 unused).
template <typename T, int... W>
constexpr std::array<GroupUnpacker<T>, sizeof...(W) + 1> MakeGroupUnpackers(
    std::integer_sequence<int, W...>) {
  return {nullptr, &UnpackGroups<W + 1, T>...};
}

template <typename T>
inline constexpr auto kGroupUnpackers =
    MakeGroupUnpackers<T>(std::make_integer_sequence<int, 64>{});

}  // namespace bit_unpack_internal

// Unpacks `count` values of `bit_width` (0..64) bits starting at bit 0 of `in`.
// REQUIRES: `in` holds at least ceil(count * bit_width / 8) bytes (`in_size`).
template <typename T>
inline void UnpackBits(const uint8_t* in, size_t in_size, int bit_width, int64_t count, T* out) {
  if (bit_width == 0) {
    for (int64_t i = 0; i < count; ++i) out[i] = 0;
    return;
  }
  const size_t width = static_cast<size_t>(bit_width);
  int64_t groups = 0;
  if (in_size >= width + 8) {
    groups = std::min<int64_t>(count / 8, static_cast<int64_t>((in_size - 8) / width));
  }
  if (groups > 0) {
    bit_unpack_internal::kGroupUnpackers<T>[bit_width](in, groups, out);
    const size_t done_bytes = static_cast<size_t>(groups) * width;
    in += done_bytes;
    in_size -= done_bytes;
    out += groups * 8;
    count -= groups * 8;
  }
  const uint64_t mask = bit_width == 64 ? ~uint64_t{0} : (uint64_t{1} << bit_width) - 1;
  uint64_t bit = 0;
  for (int64_t i = 0; i < count; ++i, bit += width) {
    size_t byte = bit >> 3;
    unsigned shift = bit & 7;
    uint64_t word = 0;
    size_t avail = in_size - byte;
    if (avail >= 8) {
      std::memcpy(&word, in + byte, 8);
    } else {
      for (size_t b = 0; b < avail; ++b) word |= static_cast<uint64_t>(in[byte + b]) << (8 * b);
    }
    uint64_t v = word >> shift;
    if (shift + static_cast<unsigned>(bit_width) > 64) {
      v |= static_cast<uint64_t>(in[byte + 8]) << (64 - shift);
    }
    out[i] = static_cast<T>(v & mask);
  }
}

}  // namespace sluice::parquet
