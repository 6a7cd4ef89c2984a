#include "sluice/format/compression/snappy_decoder.h"

#include <cstring>
#include <string>

#include "sluice/base/coding.h"

namespace sluice {

namespace {

// Room the fast loop needs past an element, in the block and in the output: an element of at
// most 64 bytes moves as 16-byte copies that read and write up to 15 bytes past its end, and a
// tag's offset is read as one 4-byte word.
constexpr size_t kFastRoom = 80;

inline void Copy8(uint8_t* dst, const uint8_t* src) { std::memcpy(dst, src, 8); }
inline void Copy16(uint8_t* dst, const uint8_t* src) { std::memcpy(dst, src, 16); }

// Bytes 16-63 of an element of at most 64 bytes. Within a copy from at least 16 bytes back, each
// 16-byte chunk reads only bytes before it; chunks past the element's end write bytes the next
// elements overwrite.
inline void CopyRest64(uint8_t* dst, const uint8_t* src) {
  Copy16(dst + 16, src + 16);
  Copy16(dst + 32, src + 32);
  Copy16(dst + 48, src + 48);
}

// What a copy's tag says, packed: bits 0-7 the copy's length (1-64), bits 8-10 the bytes of its
// offset after the tag (1, 2 or 4), bits 11-13 a 1-byte-offset copy's high offset bits.
constexpr uint16_t CopyEntry(uint32_t tag) {
  switch (tag & 3) {
    case 1:
      return static_cast<uint16_t>((((tag >> 2) & 7) + 4) | 1u << 8 | (tag >> 5) << 11);
    case 2:
      return static_cast<uint16_t>(((tag >> 2) + 1) | 2u << 8);
    default:
      return static_cast<uint16_t>(((tag >> 2) + 1) | 4u << 8);
  }
}

struct CopyTable {
  uint16_t entry[256];
  constexpr CopyTable() : entry() {
    for (uint32_t tag = 0; tag < 256; ++tag) entry[tag] = (tag & 3) == 0 ? 0 : CopyEntry(tag);
  }
};
constexpr CopyTable kCopies;

// The mask of the first n bytes of a little-endian word, n in 0-4.
constexpr uint32_t kOffsetMask[5] = {0, 0xff, 0xffff, 0xffffff, 0xffffffff};

Status Malformed(const std::string& what, size_t at) {
  return Status::Corruption("malformed snappy block: " + what + " at byte " + std::to_string(at));
}

// Parses the varint preamble of `block`: the uncompressed length, and the preamble's size.
Status ParseLength(std::string_view block, size_t* length, size_t* preamble) {
  const auto* p = reinterpret_cast<const uint8_t*>(block.data());
  uint64_t value = 0;
  for (size_t i = 0; i < 5; ++i) {
    if (i == block.size()) return Malformed("the length preamble ends", i);
    value |= uint64_t{p[i] & 0x7fu} << (7 * i);
    if ((p[i] & 0x80) == 0) {
      if (value > UINT32_MAX) return Malformed("the length preamble exceeds 32 bits", i);
      *length = static_cast<size_t>(value);
      *preamble = i + 1;
      return Status::OK();
    }
  }
  return Malformed("the length preamble exceeds 32 bits", 4);
}

// Writes `len` bytes at `op` from `offset` bytes back; offset < len repeats the last `offset`
// bytes. `room`: kFastRoom bytes are writable at `op` (len is at most 64).
void CopyBack(uint8_t* op, size_t offset, size_t len, bool room) {
  const uint8_t* src = op - offset;
  if (!room) {
    for (size_t i = 0; i < len; ++i) op[i] = src[i];
    return;
  }
  if (offset >= 8) {
    for (size_t i = 0; i < len; i += 8) Copy8(op + i, src + i);
    return;
  }
  // A short repeating pattern: its first `period` bytes one by one, where `period` is the
  // smallest multiple of `offset` of at least 8, then 8 bytes at a time from `period` back,
  // which repeats the same pattern without overlap.
  size_t period = offset;
  while (period < 8) period += offset;
  size_t i = 0;
  for (; i < period && i < len; ++i) op[i] = src[i];
  for (; i < len; i += 8) Copy8(op + i, op + i - period);
}

// Where a block's decoding stands.
struct Cursor {
  const uint8_t* begin;  // the block
  const uint8_t* ip;
  const uint8_t* ip_end;
  uint8_t* output;
  uint8_t* op;
  uint8_t* op_end;
};

// Decodes the element at c->ip with every bound checked: the elements the fast loop leaves (near
// either end, literals over 60 bytes, copies from less than 8 bytes back, malformed ones).
Status DecodeElement(Cursor* c) {
  const size_t at = static_cast<size_t>(c->ip - c->begin);
  const uint32_t tag = *c->ip++;
  const size_t in_left = static_cast<size_t>(c->ip_end - c->ip);
  const size_t out_left = static_cast<size_t>(c->op_end - c->op);
  const size_t output_len = static_cast<size_t>(c->op_end - c->output);
  if ((tag & 3) == 0) {
    size_t len = (tag >> 2) + 1;
    if (len > 60) {
      // Lengths 61-64 say the length (less one) follows in 1-4 little-endian bytes. libsnappy
      // (which Java's snappy wraps) adds the one in 32 bits, so 0xffffffff declares an empty
      // literal; blocks it accepts must decode here too.
      const size_t bytes = len - 60;
      if (in_left < bytes) return Malformed("a literal's length runs past the block's end", at);
      uint32_t less_one = 0;
      for (size_t i = 0; i < bytes; ++i) less_one |= uint32_t{c->ip[i]} << (8 * i);
      len = static_cast<uint32_t>(less_one + 1);
      c->ip += bytes;
    }
    if (len > static_cast<size_t>(c->ip_end - c->ip)) {
      return Malformed("a literal of " + std::to_string(len) + " bytes runs past the block's end",
                       at);
    }
    if (len > out_left) {
      return Malformed("a literal of " + std::to_string(len) +
                           " bytes runs past the declared length " + std::to_string(output_len),
                       at);
    }
    std::memcpy(c->op, c->ip, len);
    c->op += len;
    c->ip += len;
    return Status::OK();
  }
  const uint16_t entry = kCopies.entry[tag];
  const size_t len = entry & 0xff;
  const size_t offset_bytes = (entry >> 8) & 7;
  if (in_left < offset_bytes) return Malformed("a copy's offset runs past the block's end", at);
  size_t offset = size_t{(entry >> 11) & 7u} << 8;
  for (size_t i = 0; i < offset_bytes; ++i) offset |= size_t{c->ip[i]} << (8 * i);
  c->ip += offset_bytes;
  const size_t produced = static_cast<size_t>(c->op - c->output);
  if (offset == 0 || offset > produced) {
    return Malformed("a copy from " + std::to_string(offset) + " bytes back, after " +
                         std::to_string(produced) + " bytes of output,",
                     at);
  }
  if (len > out_left) {
    return Malformed("a copy of " + std::to_string(len) + " bytes runs past the declared length " +
                         std::to_string(output_len),
                     at);
  }
  CopyBack(c->op, offset, len, out_left >= kFastRoom);
  c->op += len;
  return Status::OK();
}

// Decodes elements while kFastRoom bytes are left past them in the block and the output, up to
// the first the careful path must take.
void DecodeFast(Cursor* c) {
  const uint8_t* ip = c->ip;
  uint8_t* op = c->op;
  const uint8_t* const ip_stop = c->ip_end - kFastRoom;
  uint8_t* const op_stop = c->op_end - kFastRoom;
  while (ip <= ip_stop && op <= op_stop) {
    const uint32_t tag = *ip;
    if ((tag & 3) == 0) {
      const size_t len = (tag >> 2) + 1;
      if (len > 60) break;
      Copy16(op, ip + 1);
      if (len > 16) [[unlikely]]
        CopyRest64(op, ip + 1);
      op += len;
      ip += 1 + len;
      continue;
    }
    const uint16_t entry = kCopies.entry[tag];
    const size_t len = entry & 0xff;
    const size_t offset_bytes = (entry >> 8) & 7;
    const size_t offset =
        (DecodeFixed32LE(ip + 1) & kOffsetMask[offset_bytes]) | size_t{(entry >> 11) & 7u} << 8;
    if (offset > static_cast<size_t>(op - c->output)) break;
    const uint8_t* src = op - offset;
    if (offset >= 16) [[likely]] {
      Copy16(op, src);
      if (len > 16) [[unlikely]]
        CopyRest64(op, src);
    } else if (offset >= 8 && len <= 16) {
      // The second 8 bytes read at most up to what the first wrote.
      Copy8(op, src);
      Copy8(op + 8, src + 8);
    } else {
      break;
    }
    op += len;
    ip += 1 + offset_bytes;
  }
  c->ip = ip;
  c->op = op;
}

}  // namespace

Result<size_t> SnappyUncompressedLength(std::string_view block) {
  size_t length = 0;
  size_t preamble = 0;
  SLUICE_RETURN_NOT_OK(ParseLength(block, &length, &preamble));
  return length;
}

Status SnappyDecompress(std::string_view block, uint8_t* output, size_t output_len) {
  size_t length = 0;
  size_t preamble = 0;
  SLUICE_RETURN_NOT_OK(ParseLength(block, &length, &preamble));
  if (length != output_len) {
    return Status::Corruption("snappy block decompresses to " + std::to_string(length) +
                              " bytes, expected " + std::to_string(output_len));
  }
  const auto* begin = reinterpret_cast<const uint8_t*>(block.data());
  Cursor c{begin, begin + preamble, begin + block.size(), output, output, output + output_len};
  const bool fast = block.size() >= kFastRoom && output_len >= kFastRoom;
  while (c.ip < c.ip_end) {
    if (fast) {
      DecodeFast(&c);
      if (c.ip == c.ip_end) break;
    }
    SLUICE_RETURN_NOT_OK(DecodeElement(&c));
  }
  if (c.op != c.op_end) {
    return Status::Corruption("snappy block ends after " + std::to_string(c.op - output) +
                              " of its declared " + std::to_string(output_len) + " bytes");
  }
  return Status::OK();
}

}  // namespace sluice
