// CopyShort: the copy of one short value (a string of a few bytes: a key, a code, a name) as one
// fixed-size move where the buffers on both sides leave room past it. Decoding and gathering
// strings copy one value at a time; a call to memcpy per value of ten bytes costs more than the
// copy itself.
//
// Thread safety: a pure function.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace sluice {

// The size of the fixed move, and so the room it needs: readable past the source value, writable
// past the destination (the bytes past the value land where the next value goes, or in spare
// capacity).
inline constexpr size_t kShortCopy = 16;

// Copies the n bytes at src to dst. `room`: kShortCopy bytes may be read at src and written at
// dst, so that a value of at most kShortCopy bytes moves as one kShortCopy-byte copy.
inline void CopyShort(uint8_t* dst, const uint8_t* src, size_t n, bool room) {
  if (room && n <= kShortCopy) {
    std::memcpy(dst, src, kShortCopy);
  } else if (n != 0) {
    std::memcpy(dst, src, n);
  }
}

}  // namespace sluice
