#include "sluice/base/murmur_hash.h"

#include "sluice/base/coding.h"

namespace sluice {

namespace {

constexpr uint32_t kC1 = 0xcc9e2d51;
constexpr uint32_t kC2 = 0x1b873593;

inline uint32_t RotateLeft(uint32_t v, int n) { return (v << n) | (v >> (32 - n)); }

inline uint32_t MixK1(uint32_t k1) {
  k1 *= kC1;
  k1 = RotateLeft(k1, 15);
  return k1 * kC2;
}

inline uint32_t MixH1(uint32_t h1, uint32_t k1) {
  h1 ^= k1;
  h1 = RotateLeft(h1, 13);
  return h1 * 5 + 0xe6546b64;
}

inline int32_t Finalize(uint32_t h1, size_t length) {
  // Java passes the length as an int.
  h1 ^= static_cast<uint32_t>(length);
  h1 ^= h1 >> 16;
  h1 *= 0x85ebca6b;
  h1 ^= h1 >> 13;
  h1 *= 0xc2b2ae35;
  h1 ^= h1 >> 16;
  return static_cast<int32_t>(h1);
}

inline uint32_t HashWholeWords(const uint8_t* data, size_t length, uint32_t seed) {
  uint32_t h1 = seed;
  const size_t aligned = length - length % 4;
  for (size_t i = 0; i < aligned; i += 4) h1 = MixH1(h1, MixK1(DecodeFixed32LE(data + i)));
  return h1;
}

}  // namespace

int32_t MurmurHashWords(const uint8_t* data, size_t length, uint32_t seed) {
  return Finalize(HashWholeWords(data, length, seed), length);
}

int32_t MurmurHashBytes(const uint8_t* data, size_t length, uint32_t seed) {
  uint32_t h1 = HashWholeWords(data, length, seed);
  for (size_t i = length - length % 4; i < length; ++i) {
    const int32_t sign_extended = static_cast<int8_t>(data[i]);
    h1 = MixH1(h1, MixK1(static_cast<uint32_t>(sign_extended)));
  }
  return Finalize(h1, length);
}

}  // namespace sluice
