#include "sluice/lsm/lookup/bloom_filter.h"

#include <algorithm>
#include <cmath>

#include "sluice/base/coding.h"
#include "sluice/base/murmur_hash.h"

namespace sluice {
namespace {

constexpr size_t kHeaderSize = 12;
// Guards against a corrupt size asking for absurd memory.
constexpr uint64_t kMaxBits = uint64_t{1} << 36;

// The second hash of the double hashing; odd, so that the probes differ.
constexpr uint32_t kSecondSeed = 0x5bd1e995;

uint32_t HashOf(std::string_view key, uint32_t seed) {
  return static_cast<uint32_t>(
      MurmurHashBytes(reinterpret_cast<const uint8_t*>(key.data()), key.size(), seed));
}

}  // namespace

BloomFilter BloomFilter::ForEntries(int64_t expected_entries, double fpp) {
  const double n = static_cast<double>(std::max<int64_t>(expected_entries, 1));
  const double ln2 = std::log(2.0);
  const uint64_t bits =
      std::max<uint64_t>(64, static_cast<uint64_t>(std::ceil(-n * std::log(fpp) / (ln2 * ln2))));
  const uint64_t rounded = (bits + 7) / 8 * 8;
  const int32_t k =
      std::max(1, static_cast<int32_t>(std::lround(static_cast<double>(rounded) / n * ln2)));
  return BloomFilter(k, rounded, std::string(rounded / 8, '\0'));
}

Result<BloomFilter> BloomFilter::Parse(std::string_view bytes, const std::string& what) {
  if (bytes.size() < kHeaderSize) {
    return Status::Corruption(what + ": bloom filter of " + std::to_string(bytes.size()) +
                              " bytes is shorter than its header");
  }
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const int32_t k = static_cast<int32_t>(DecodeFixed32LE(p));
  const uint64_t bits = DecodeFixed64LE(p + 4);
  if (k < 1 || k > 64 || bits == 0 || bits > kMaxBits || bits % 8 != 0 ||
      bytes.size() - kHeaderSize != bits / 8) {
    return Status::Corruption(what + ": bloom filter header (" + std::to_string(k) +
                              " hash functions, " + std::to_string(bits) +
                              " bits) does not match its " + std::to_string(bytes.size()) +
                              " bytes");
  }
  return BloomFilter(k, bits, std::string(bytes.substr(kHeaderSize)));
}

// Bit i (1 <= i <= num_hash) is (h1 + i * h2) mod num_bits, exact in 64 bits (h1, h2 < 2^32,
// i <= 64). Stepping by h2 mod num_bits with one conditional subtraction gives the same bits
// with two divisions per key instead of one per hash function.
template <typename Visit>
bool BloomFilter::ForEachBit(std::string_view key, Visit visit) const {
  const uint32_t h1 = HashOf(key, kMurmurDefaultSeed);
  const uint32_t h2 = HashOf(key, kSecondSeed) | 1u;
  const uint64_t step = uint64_t{h2} % num_bits_;
  uint64_t bit = (uint64_t{h1} + uint64_t{h2}) % num_bits_;
  for (int32_t i = 1; i <= num_hash_; ++i) {
    if (!visit(bit)) return false;
    bit += step;
    if (bit >= num_bits_) bit -= num_bits_;
  }
  return true;
}

void BloomFilter::Add(std::string_view key) {
  ForEachBit(key, [this](uint64_t bit) {
    bits_[bit >> 3] = static_cast<char>(static_cast<uint8_t>(bits_[bit >> 3]) | (1u << (bit & 7)));
    return true;
  });
}

bool BloomFilter::MightContain(std::string_view key) const {
  return ForEachBit(key, [this](uint64_t bit) {
    return (static_cast<uint8_t>(bits_[bit >> 3]) & (1u << (bit & 7))) != 0;
  });
}

void BloomFilter::AppendTo(std::string* out) const {
  PutFixed32LE(out, static_cast<uint32_t>(num_hash_));
  PutFixed64LE(out, num_bits_);
  out->append(bits_);
}

}  // namespace sluice
