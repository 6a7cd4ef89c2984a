// Helpers the per-family ORC column readers share: scratch buffers, spreading dense values over
// validity, and positioning decoders at row-index positions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sluice/buffer.h"
#include "sluice/format/orc/orc_metadata.h"
#include "sluice/format/orc/orc_stream.h"
#include "sluice/format/orc/rle_decoder.h"
#include "sluice/result.h"

namespace sluice::orc {

// Sizes a scratch buffer, keeping it allocated even when empty so that its data() is never null
// (memcpy and pointer arithmetic on null are undefined even for zero lengths).
void ResizeScratch(Buffer* b, size_t n);

int64_t CountValid(const uint8_t* valid, int64_t n);

// Moves the m dense values at dst[0..m) to the rows of dst[0..n) where valid is 1; null rows get
// a zero value.
template <typename T>
void SpreadValues(T* dst, int64_t n, int64_t m, const uint8_t* valid) {
  if (m == n) return;
  int64_t j = m;
  for (int64_t i = n - 1; i >= 0; --i) {
    dst[i] = valid[i] ? dst[--j] : T{};
  }
}

// Positions a raw (byte-addressed) stream; *index walks `positions`.
Status SeekRaw(const DecodedStream& stream, const std::vector<uint64_t>& positions, size_t* index,
               size_t* pos);

// The next value of `positions`; Corruption when they run out.
Status NextPosition(const std::vector<uint64_t>& positions, size_t* index, uint64_t* v);

// Position a decoder at a row-index position; *index walks `positions`. A byte or integer RLE
// position is the stream offset, then the values to skip; a boolean one adds the bits.
template <typename RleDecoder>
Status SeekRle(RleDecoder* decoder, const DecodedStream& stream,
               const std::vector<uint64_t>& positions, size_t* index) {
  SLUICE_ASSIGN_OR_RETURN(uint64_t p, stream.ResolvePosition(positions, index));
  decoder->Seek(p);
  uint64_t skip;
  SLUICE_RETURN_NOT_OK(NextPosition(positions, index, &skip));
  return decoder->Skip(static_cast<int64_t>(skip));
}
Status SeekBoolRle(BooleanRleDecoder* decoder, const DecodedStream& stream,
                   const std::vector<uint64_t>& positions, size_t* index);

// True for the encodings whose integers are RLE v2.
bool IsV2(EncodingKind k);

}  // namespace sluice::orc
