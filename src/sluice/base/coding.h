// Fixed-width and variable-length integer encodings shared by the codecs.
//
// The Decode* functions read from a caller-checked range; the Get* functions check bounds and
// advance a cursor, returning false when the input runs short.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace sluice {

inline uint16_t DecodeFixed16LE(const uint8_t* p) {
  uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
}
inline uint32_t DecodeFixed32LE(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline uint64_t DecodeFixed64LE(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
inline uint16_t DecodeFixed16BE(const uint8_t* p) { return __builtin_bswap16(DecodeFixed16LE(p)); }
inline uint32_t DecodeFixed32BE(const uint8_t* p) { return __builtin_bswap32(DecodeFixed32LE(p)); }
inline uint64_t DecodeFixed64BE(const uint8_t* p) { return __builtin_bswap64(DecodeFixed64LE(p)); }

inline void EncodeFixed16LE(uint8_t* p, uint16_t v) { std::memcpy(p, &v, 2); }
inline void EncodeFixed32LE(uint8_t* p, uint32_t v) { std::memcpy(p, &v, 4); }
inline void EncodeFixed64LE(uint8_t* p, uint64_t v) { std::memcpy(p, &v, 8); }
inline void EncodeFixed32BE(uint8_t* p, uint32_t v) { EncodeFixed32LE(p, __builtin_bswap32(v)); }
inline void EncodeFixed64BE(uint8_t* p, uint64_t v) { EncodeFixed64LE(p, __builtin_bswap64(v)); }

inline void PutFixed32LE(std::string* dst, uint32_t v) {
  uint8_t buf[4];
  EncodeFixed32LE(buf, v);
  dst->append(reinterpret_cast<const char*>(buf), 4);
}
inline void PutFixed64LE(std::string* dst, uint64_t v) {
  uint8_t buf[8];
  EncodeFixed64LE(buf, v);
  dst->append(reinterpret_cast<const char*>(buf), 8);
}
inline void PutFixed32BE(std::string* dst, uint32_t v) {
  uint8_t buf[4];
  EncodeFixed32BE(buf, v);
  dst->append(reinterpret_cast<const char*>(buf), 4);
}

inline uint64_t ZigZagEncode64(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
inline int64_t ZigZagDecode64(uint64_t v) {
  return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}
inline uint32_t ZigZagEncode32(int32_t v) {
  return (static_cast<uint32_t>(v) << 1) ^ static_cast<uint32_t>(v >> 31);
}
inline int32_t ZigZagDecode32(uint32_t v) {
  return static_cast<int32_t>(v >> 1) ^ -static_cast<int32_t>(v & 1);
}

// Unsigned LEB128 (protobuf / Avro / ORC varints).
void PutVarint64(std::string* dst, uint64_t v);

// Reads an unsigned LEB128 value from [*p, limit). On success advances *p and returns true;
// returns false on a truncated or over-long (more than 10 bytes) encoding.
inline bool GetVarint64(const uint8_t** p, const uint8_t* limit, uint64_t* out) {
  uint64_t result = 0;
  const uint8_t* q = *p;
  for (int shift = 0; shift <= 63 && q < limit; shift += 7) {
    uint64_t byte = *q++;
    result |= (byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      *p = q;
      *out = result;
      return true;
    }
  }
  return false;
}

}  // namespace sluice
