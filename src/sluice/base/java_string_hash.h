// Java's String.hashCode() for Sluice's UTF-8 strings: what Java computes over the same text as
// UTF-16 code units, so that maps ordered by it (JavaHashMap) and file sharding by it
// (DataTableStreamScan) agree with Java bit for bit.
//
// Thread safety: a pure function.
#pragma once

#include <cstdint>
#include <string_view>

namespace sluice {

// s[0]*31^(n-1) + ... + s[n-1] over the UTF-16 code units of `utf8` (a code point above U+FFFF
// counts as its two surrogates), in 32-bit two's complement arithmetic as Java's int. A byte
// that does not start a whole UTF-8 sequence counts as one unit of its own value.
int32_t JavaStringHash(std::string_view utf8);

}  // namespace sluice
