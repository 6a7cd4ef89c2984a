// ProtoWriter: appends protobuf wire-format fields to a string, for the ORC file tail the writer
// produces (the counterpart of ProtoReader).
//
// Thread safety: not thread-safe; one owner at a time.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/base/coding.h"

namespace sluice::orc {

class ProtoWriter {
 public:
  void Varint(uint32_t field, uint64_t v) {
    Key(field, 0);
    PutVarint64(&out_, v);
  }
  void Signed(uint32_t field, int64_t v) { Varint(field, ZigZagEncode64(v)); }
  void Double(uint32_t field, double v) {
    Key(field, 1);
    uint64_t u;
    std::memcpy(&u, &v, 8);
    PutFixed64LE(&out_, u);
  }
  void Bytes(uint32_t field, std::string_view v) {
    Key(field, 2);
    PutVarint64(&out_, v.size());
    out_.append(v);
  }
  void PackedVarints(uint32_t field, const std::vector<uint64_t>& values) {
    if (values.empty()) return;
    std::string packed;
    for (uint64_t v : values) PutVarint64(&packed, v);
    Bytes(field, packed);
  }
  const std::string& str() const { return out_; }
  std::string Release() { return std::move(out_); }

 private:
  void Key(uint32_t field, uint32_t wire) { PutVarint64(&out_, (uint64_t{field} << 3) | wire); }

  std::string out_;
};

}  // namespace sluice::orc
