// Avro binary encoding primitives (Avro 1.11 specification, "Binary Encoding"): zig-zag varint
// int and long, little-endian float and double, length-prefixed bytes and strings.
//
// AvroCursor reads from a bounded range and reports overruns by returning false; callers turn
// that into a Status naming the file. The Put* functions append to the caller's buffer.
//
// Thread safety: AvroCursor is a value type; not thread-safe.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

#include "sluice/base/coding.h"
#include "sluice/buffer.h"

namespace sluice {

class AvroCursor {
 public:
  AvroCursor() = default;
  AvroCursor(const uint8_t* begin, const uint8_t* end) : pos_(begin), end_(end) {}

  const uint8_t* pos() const { return pos_; }
  const uint8_t* end() const { return end_; }
  size_t remaining() const { return static_cast<size_t>(end_ - pos_); }

  bool ReadLong(int64_t* out) {
    if (pos_ < end_ && *pos_ < 0x80) {
      *out = ZigZagDecode64(*pos_++);
      return true;
    }
    uint64_t raw;
    if (!GetVarint64(&pos_, end_, &raw)) return false;
    *out = ZigZagDecode64(raw);
    return true;
  }
  // An Avro int: a long whose value must fit in 32 bits.
  bool ReadInt(int32_t* out) {
    int64_t v;
    if (!ReadLong(&v) || v < INT32_MIN || v > INT32_MAX) return false;
    *out = static_cast<int32_t>(v);
    return true;
  }
  bool ReadByte(uint8_t* out) {
    if (pos_ >= end_) return false;
    *out = *pos_++;
    return true;
  }
  bool ReadFloat(float* out) {
    if (remaining() < 4) return false;
    std::memcpy(out, pos_, 4);
    pos_ += 4;
    return true;
  }
  bool ReadDouble(double* out) {
    if (remaining() < 8) return false;
    std::memcpy(out, pos_, 8);
    pos_ += 8;
    return true;
  }
  // Reads a length-prefixed byte string; the view points into the input.
  bool ReadBytes(std::string_view* out) {
    int64_t len;
    if (!ReadLong(&len) || len < 0 || static_cast<uint64_t>(len) > remaining()) return false;
    *out = std::string_view(reinterpret_cast<const char*>(pos_), static_cast<size_t>(len));
    pos_ += len;
    return true;
  }
  bool ReadFixed(size_t n, std::string_view* out) {
    if (n > remaining()) return false;
    *out = std::string_view(reinterpret_cast<const char*>(pos_), n);
    pos_ += n;
    return true;
  }
  bool Skip(size_t n) {
    if (n > remaining()) return false;
    pos_ += n;
    return true;
  }

 private:
  const uint8_t* pos_ = nullptr;
  const uint8_t* end_ = nullptr;
};

inline void PutAvroLong(Buffer* out, int64_t v) {
  uint64_t u = ZigZagEncode64(v);
  uint8_t buf[10];
  int n = 0;
  while (u >= 0x80) {
    buf[n++] = static_cast<uint8_t>(u | 0x80);
    u >>= 7;
  }
  buf[n++] = static_cast<uint8_t>(u);
  out->Append(buf, static_cast<size_t>(n));
}

inline void PutAvroBytes(Buffer* out, std::string_view s) {
  PutAvroLong(out, static_cast<int64_t>(s.size()));
  out->Append(s);
}

inline void PutAvroFloat(Buffer* out, float v) { out->AppendValue(v); }
inline void PutAvroDouble(Buffer* out, double v) { out->AppendValue(v); }

}  // namespace sluice
