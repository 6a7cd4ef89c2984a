// Membership tests against ORC bloom filters (BLOOM_FILTER_UTF8 streams), as ORC Java builds
// them: Murmur3 64-bit hashes of the UTF-8 bytes for strings, Thomas Wang's 64-bit hash for
// integers (and dates), k derived hashes (Kirsch-Mitzenmacher) over a bitset of 64-bit words.
//
// Thread safety: stateless functions.
#pragma once

#include <cstdint>
#include <string_view>

#include "sluice/format/orc/orc_metadata.h"

namespace sluice::orc {

uint64_t BloomHashBytes(std::string_view bytes);
uint64_t BloomHashInt(int64_t value);

// False only if the value with hash `hash` was certainly not added to `filter`.
bool BloomMightContain(const BloomFilter& filter, uint64_t hash);

}  // namespace sluice::orc
