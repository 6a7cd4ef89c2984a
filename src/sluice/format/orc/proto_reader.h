// ProtoReader: a minimal protobuf wire-format decoder for ORC's file tail (postscript, footer,
// metadata, stripe footers, row indexes, bloom filters).
//
// Why our own decoder instead of libprotobuf: the ORC tail uses a handful of messages with
// plain scalar, packed and nested fields, so a ~100-line cursor covers it; it keeps protoc and
// libprotobuf out of the build; and it bounds every allocation by the bytes actually present
// (a lying length prefix is a Corruption, never a huge allocation), which generated parsers do
// not promise for untrusted input. Unknown fields are skipped, as protobuf requires.
//
// Thread safety: a ProtoReader is a cursor; use one per thread.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/base/coding.h"
#include "sluice/result.h"

namespace sluice::orc {

enum class WireType : uint8_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

class ProtoReader {
 public:
  ProtoReader(const uint8_t* data, size_t size) : p_(data), limit_(data + size) {}
  explicit ProtoReader(std::string_view s)
      : ProtoReader(reinterpret_cast<const uint8_t*>(s.data()), s.size()) {}

  bool done() const { return p_ >= limit_; }

  // Reads the next field key. REQUIRES: !done().
  Status NextField(uint32_t* field, WireType* wire) {
    uint64_t key;
    if (!GetVarint64(&p_, limit_, &key)) return Truncated("field key");
    *field = static_cast<uint32_t>(key >> 3);
    uint32_t w = static_cast<uint32_t>(key & 7);
    if (w != 0 && w != 1 && w != 2 && w != 5) {
      return Status::Corruption("protobuf: unsupported wire type " + std::to_string(w));
    }
    *wire = static_cast<WireType>(w);
    return Status::OK();
  }

  Status ReadVarint(uint64_t* v) {
    if (!GetVarint64(&p_, limit_, v)) return Truncated("varint");
    return Status::OK();
  }
  Status ReadSigned(int64_t* v) {
    uint64_t u;
    SLUICE_RETURN_NOT_OK(ReadVarint(&u));
    *v = ZigZagDecode64(u);
    return Status::OK();
  }
  Status ReadFixed64(uint64_t* v) {
    if (limit_ - p_ < 8) return Truncated("fixed64");
    *v = DecodeFixed64LE(p_);
    p_ += 8;
    return Status::OK();
  }
  Status ReadDouble(double* v) {
    uint64_t u;
    SLUICE_RETURN_NOT_OK(ReadFixed64(&u));
    std::memcpy(v, &u, 8);
    return Status::OK();
  }
  // A length-delimited field's bytes (a view into the input).
  Status ReadBytes(std::string_view* v) {
    uint64_t len;
    SLUICE_RETURN_NOT_OK(ReadVarint(&len));
    if (len > static_cast<uint64_t>(limit_ - p_)) {
      return Status::Corruption("protobuf: length " + std::to_string(len) + " exceeds the " +
                                std::to_string(limit_ - p_) + " bytes left");
    }
    *v = std::string_view(reinterpret_cast<const char*>(p_), len);
    p_ += len;
    return Status::OK();
  }
  Status ReadString(std::string* v) {
    std::string_view s;
    SLUICE_RETURN_NOT_OK(ReadBytes(&s));
    v->assign(s);
    return Status::OK();
  }
  // A repeated unsigned varint field, packed or not.
  Status ReadPackedVarints(WireType wire, std::vector<uint64_t>* out) {
    if (wire == WireType::kVarint) {
      uint64_t v;
      SLUICE_RETURN_NOT_OK(ReadVarint(&v));
      out->push_back(v);
      return Status::OK();
    }
    if (wire != WireType::kLengthDelimited) return Status::Corruption("protobuf: bad packed field");
    std::string_view s;
    SLUICE_RETURN_NOT_OK(ReadBytes(&s));
    ProtoReader inner(s);
    while (!inner.done()) {
      uint64_t v;
      SLUICE_RETURN_NOT_OK(inner.ReadVarint(&v));
      out->push_back(v);
    }
    return Status::OK();
  }
  Status Skip(WireType wire) {
    switch (wire) {
      case WireType::kVarint: {
        uint64_t v;
        return ReadVarint(&v);
      }
      case WireType::kFixed64:
        if (limit_ - p_ < 8) return Truncated("fixed64");
        p_ += 8;
        return Status::OK();
      case WireType::kFixed32:
        if (limit_ - p_ < 4) return Truncated("fixed32");
        p_ += 4;
        return Status::OK();
      case WireType::kLengthDelimited: {
        std::string_view s;
        return ReadBytes(&s);
      }
    }
    return Status::OK();
  }

 private:
  static Status Truncated(const char* what) {
    return Status::Corruption(std::string("protobuf: truncated ") + what);
  }

  const uint8_t* p_;
  const uint8_t* limit_;
};

}  // namespace sluice::orc
