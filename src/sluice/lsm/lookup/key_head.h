// KeyHead: 8 bytes of a lookup key as a big-endian integer, so that ordering keys by their bytes
// can compare integers first. Lookup keys are BinaryRow bytes, whose first 8 bytes (header and
// null bits) are mostly all alike, so the head is taken after a prefix the keys are known to
// share: for two keys that agree before `from`, a smaller head means a smaller key (missing
// bytes count as 0, and a shorter key is the smaller when the rest agrees); equal heads decide
// nothing and the keys are compared in full.
//
// Thread safety: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace sluice {

inline uint64_t KeyHeadOf(std::string_view key, size_t from) {
  uint64_t head = 0;
  for (size_t i = 0; i < 8; ++i) {
    head = (head << 8) | (from + i < key.size() ? static_cast<uint8_t>(key[from + i]) : 0);
  }
  return head;
}

// The length of the prefix `a` and `b` share.
inline size_t CommonPrefixLength(std::string_view a, std::string_view b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
  return n;
}

}  // namespace sluice
