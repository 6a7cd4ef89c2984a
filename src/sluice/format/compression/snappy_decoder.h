// SnappyDecompress: decompression of a raw snappy block (what snappy's RawCompress writes: a varint
// of the uncompressed length, then literal and copy elements), as Parquet's SNAPPY pages, ORC's
// SNAPPY chunks and Avro's "snappy" blocks hold it.
//
// Sluice decodes snappy itself, and compresses with libsnappy, because the distribution's build of
// libsnappy moves every element through an out-of-line call (snappy::MemMove through the PLT, then
// memmove). Reading a snappy table is mostly those moves: over the TPC-H tables (6-byte elements
// on average) this decoder runs 10-15% faster. While both the block and the output have room past
// an element, a literal of up to 60 bytes or a copy from 8 or more bytes back moves as one or two
// fixed-size copies, with no call and no loop.
//
// Every element is checked against both ends of the block and of the output: malformed input is
// Corruption naming the byte where it broke, never a read or write out of bounds.
//
// Thread safety: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sluice/result.h"

namespace sluice {

// The uncompressed length a snappy block declares (its varint preamble).
Result<size_t> SnappyUncompressedLength(std::string_view block);

// Decompresses `block` into `output`, which must be exactly the block's declared length
// (`output_len`); a block declaring another length, malformed, or not filling `output` exactly is
// Corruption.
Status SnappyDecompress(std::string_view block, uint8_t* output, size_t output_len);

}  // namespace sluice
