// Dictionary builders for Parquet's dictionary encoding: each distinct value gets the next index
// in order of first appearance; the dictionary page holds the values PLAIN-encoded in index order.
//
// Fixed-width values are compared by their bits (so -0.0 and 0.0 are distinct entries, and
// every NaN bit pattern is its own entry), byte arrays by their bytes.
//
// Thread safety: not thread-safe; one per column writer.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>
#include <vector>

#include "sluice/buffer.h"

namespace sluice::parquet {

namespace internal {
inline uint64_t MixHash(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}
uint64_t HashBytes(const uint8_t* p, size_t n);
}  // namespace internal

// T is int32_t, int64_t, float or double.
template <typename T>
class FixedDictionary {
 public:
  FixedDictionary() { Rehash(1024); }

  // Appends the index of each of `values[0, n)` to `indices`, adding new values.
  void Insert(const T* values, int64_t n, uint32_t* indices) {
    for (int64_t i = 0; i < n; ++i) indices[i] = InsertOne(values[i]);
  }
  int64_t size() const { return static_cast<int64_t>(values_.size()); }
  // Bytes of the PLAIN-encoded dictionary page.
  int64_t byte_size() const { return size() * static_cast<int64_t>(sizeof(T)); }
  const T* values() const { return values_.data(); }
  void PlainEncode(Buffer* out) const { out->Append(values_.data(), values_.size() * sizeof(T)); }
  void Clear() {
    values_.clear();
    std::fill(slots_.begin(), slots_.end(), 0);
  }

 private:
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  static Bits BitsOf(T v) {
    Bits b;
    std::memcpy(&b, &v, sizeof(T));
    return b;
  }

  uint32_t InsertOne(T v) {
    Bits bits = BitsOf(v);
    size_t slot = internal::MixHash(bits) & mask_;
    while (true) {
      uint32_t entry = slots_[slot];
      if (entry == 0) break;
      if (BitsOf(values_[entry - 1]) == bits) return entry - 1;
      slot = (slot + 1) & mask_;
    }
    uint32_t index = static_cast<uint32_t>(values_.size());
    values_.push_back(v);
    slots_[slot] = index + 1;
    if (values_.size() * 2 > slots_.size()) Rehash(slots_.size() * 2);
    return index;
  }

  void Rehash(size_t capacity) {
    slots_.assign(capacity, 0);
    mask_ = capacity - 1;
    for (size_t i = 0; i < values_.size(); ++i) {
      size_t slot = internal::MixHash(BitsOf(values_[i])) & mask_;
      while (slots_[slot] != 0) slot = (slot + 1) & mask_;
      slots_[slot] = static_cast<uint32_t>(i + 1);
    }
  }

  std::vector<T> values_;
  std::vector<uint32_t> slots_;  // index + 1; 0 = empty
  size_t mask_ = 0;
};

class ByteArrayDictionary {
 public:
  ByteArrayDictionary() { Rehash(1024); }

  uint32_t Insert(std::string_view v);
  int64_t size() const { return static_cast<int64_t>(offsets_.size()) - 1; }
  // Bytes of the PLAIN-encoded dictionary page (4-byte length + bytes per value).
  int64_t byte_size() const { return static_cast<int64_t>(bytes_.size()) + 4 * size(); }
  std::string_view value(uint32_t index) const {
    return std::string_view(reinterpret_cast<const char*>(bytes_.data()) + offsets_[index],
                            offsets_[index + 1] - offsets_[index]);
  }
  void PlainEncode(Buffer* out) const;
  void Clear();

 private:
  struct Slot {
    uint32_t index_plus_one = 0;
    uint32_t hash = 0;
  };
  void Rehash(size_t capacity);

  Buffer bytes_;
  std::vector<uint32_t> offsets_{0};
  std::vector<uint32_t> hashes_;
  std::vector<Slot> slots_;
  size_t mask_ = 0;
};

}  // namespace sluice::parquet
