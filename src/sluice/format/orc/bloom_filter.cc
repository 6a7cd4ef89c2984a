#include "sluice/format/orc/bloom_filter.h"

#include <cstring>

namespace sluice::orc {

namespace {

constexpr uint64_t kC1 = 0x87c37b91114253d5ULL;
constexpr uint64_t kC2 = 0x4cf5ad432745937fULL;
constexpr uint64_t kSeed = 104729;

uint64_t RotateLeft(uint64_t v, int r) { return (v << r) | (v >> (64 - r)); }

uint64_t Fmix64(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

}  // namespace

uint64_t BloomHashBytes(std::string_view bytes) {
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  size_t length = bytes.size();
  uint64_t hash = kSeed;
  size_t blocks = length / 8;
  for (size_t i = 0; i < blocks; ++i) {
    uint64_t k;
    std::memcpy(&k, data + i * 8, 8);
    k *= kC1;
    k = RotateLeft(k, 31);
    k *= kC2;
    hash ^= k;
    hash = RotateLeft(hash, 27) * 5 + 0x52dce729;
  }
  uint64_t k1 = 0;
  size_t tail = blocks * 8;
  size_t rest = length - tail;
  for (size_t i = rest; i > 0; --i)
    k1 ^= static_cast<uint64_t>(data[tail + i - 1]) << (8 * (i - 1));
  if (rest > 0) {
    k1 *= kC1;
    k1 = RotateLeft(k1, 31);
    k1 *= kC2;
    hash ^= k1;
  }
  hash ^= static_cast<uint64_t>(length);
  return Fmix64(hash);
}

uint64_t BloomHashInt(int64_t value) {
  auto key = static_cast<uint64_t>(value);
  key = (~key) + (key << 21);
  key = key ^ (key >> 24);
  key = (key + (key << 3)) + (key << 8);
  key = key ^ (key >> 14);
  key = (key + (key << 2)) + (key << 4);
  key = key ^ (key >> 28);
  key = key + (key << 31);
  return key;
}

bool BloomMightContain(const BloomFilter& filter, uint64_t hash) {
  uint64_t bits = static_cast<uint64_t>(filter.bitset.size()) * 64;
  if (bits == 0 || filter.num_hash_functions == 0 || filter.num_hash_functions > 64) return true;
  auto hash1 = static_cast<int32_t>(static_cast<uint32_t>(hash));
  auto hash2 = static_cast<int32_t>(static_cast<uint32_t>(hash >> 32));
  for (uint32_t i = 1; i <= filter.num_hash_functions; ++i) {
    int32_t combined = static_cast<int32_t>(
        static_cast<uint32_t>(hash1) + static_cast<uint32_t>(i) * static_cast<uint32_t>(hash2));
    if (combined < 0) combined = ~combined;
    uint64_t pos = static_cast<uint64_t>(combined) % bits;
    if ((filter.bitset[pos >> 6] & (uint64_t{1} << (pos & 63))) == 0) return false;
  }
  return true;
}

}  // namespace sluice::orc
