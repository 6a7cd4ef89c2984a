// MurmurHash3 (x86, 32-bit) exactly as Paimon's MurmurHashUtils computes it, so that bucket
// assignment and the HASH index agree with Java bit for bit.
//
// Thread safety: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sluice {

// MurmurHashUtils.DEFAULT_SEED.
constexpr uint32_t kMurmurDefaultSeed = 42;

// MurmurHashUtils.hashBytesByWords: the input read as little-endian 32-bit words, then the
// standard finalisation with `length`. This is BinaryRow.hashCode() (and BinaryArray/BinaryMap's).
// Java requires `length % 4 == 0`; here trailing bytes beyond the last whole word are ignored
// (they still count in the finalisation), so any input is safe to hash.
int32_t MurmurHashWords(const uint8_t* data, size_t length, uint32_t seed = kMurmurDefaultSeed);

// MurmurHashUtils.hashBytes: whole words as above, then each trailing byte mixed on its own as a
// sign-extended int (Java's quirk, not the reference tail handling). Used by
// BinaryString.hashCode() and MurmurHashUtils.hashBytes(byte[]).
int32_t MurmurHashBytes(const uint8_t* data, size_t length, uint32_t seed = kMurmurDefaultSeed);

}  // namespace sluice
