// BloomFilter: the bloom filter of a lookup file (Java utils.BloomFilter as the lookup store
// uses it): a bit set sized for an expected number of keys and a false-positive rate, probed
// with k positions h1 + i * h2 from two MurmurHashes of the key bytes (double hashing).
//
// Serialized form: num_hash_functions (fixed32 LE), num_bits (fixed64 LE), the bit bytes.
//
// Thread safety: a value type; const methods are safe to call concurrently.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sluice/result.h"

namespace sluice {

class BloomFilter {
 public:
  // A filter for `expected_entries` keys (at least 1) at false-positive rate `fpp` (0 < fpp < 1).
  static BloomFilter ForEntries(int64_t expected_entries, double fpp);
  // Parses the serialized form; Corruption (naming `what`) when it is malformed.
  static Result<BloomFilter> Parse(std::string_view bytes, const std::string& what);

  void Add(std::string_view key);
  // False means `key` was never added.
  bool MightContain(std::string_view key) const;

  void AppendTo(std::string* out) const;

 private:
  // Calls `visit(bit)` for the key's bits in order while it returns true; whether all did.
  template <typename Visit>
  bool ForEachBit(std::string_view key, Visit visit) const;

  BloomFilter(int32_t num_hash, uint64_t num_bits, std::string bits)
      : num_hash_(num_hash), num_bits_(num_bits), bits_(std::move(bits)) {}

  int32_t num_hash_;
  uint64_t num_bits_;
  std::string bits_;
};

}  // namespace sluice
