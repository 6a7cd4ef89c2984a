// Run-length decoders of ORC streams: byte RLE, boolean RLE and integer RLE v1 / v2. They decode
// whole runs into small buffers and copy values out in bulk.
//
// Every decoder reads a caller-owned byte range (a decoded stream) and returns Corruption when
// the range runs out or a run is malformed; nothing is read past the range.
//
// Thread safety: not thread-safe; one decoder per column reader.
#pragma once

#include <cstdint>
#include <string>

#include "sluice/result.h"

namespace sluice::orc {

class ByteRleDecoder {
 public:
  void Reset(const uint8_t* data, size_t size) {
    data_ = data;
    size_ = size;
    pos_ = 0;
    remaining_ = 0;
  }
  // Positions at byte `offset` of the range with no run in progress.
  void Seek(uint64_t offset) {
    pos_ = offset;
    remaining_ = 0;
  }
  Status Next(uint8_t* out, int64_t n);
  Status Skip(int64_t n);

 private:
  Status ReadHeader();

  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t pos_ = 0;
  int64_t remaining_ = 0;  // values left in the current run / literal group
  bool repeating_ = false;
  uint8_t value_ = 0;
};

class BooleanRleDecoder {
 public:
  void Reset(const uint8_t* data, size_t size) {
    bytes_.Reset(data, size);
    bits_left_ = 0;
  }
  // Positions at byte `offset`, then skips `bits` values.
  Status Seek(uint64_t offset, uint64_t byte_values, uint64_t bits);
  // Writes n values (0/1) to out.
  Status Next(uint8_t* out, int64_t n);
  Status Skip(int64_t n);

 private:
  ByteRleDecoder bytes_;
  uint8_t current_ = 0;
  int bits_left_ = 0;
};

class IntRleDecoder {
 public:
  // `v2`: RLE v2 (DIRECT_V2 / DICTIONARY_V2 encodings), else v1. `is_signed`: zigzag values.
  void Reset(const uint8_t* data, size_t size, bool v2, bool is_signed) {
    data_ = data;
    size_ = size;
    pos_ = 0;
    v2_ = v2;
    signed_ = is_signed;
    count_ = index_ = 0;
  }
  void Seek(uint64_t offset) {
    pos_ = offset;
    count_ = index_ = 0;
  }
  Status Next(int64_t* out, int64_t n);
  Status Skip(int64_t n);

 private:
  static constexpr int kMaxRun = 512;
  Status ReadRun();
  Status ReadRunV1();
  Status ReadRunV2();
  Status ReadVarint(uint64_t* v);
  Status ReadBigEndian(int bytes, uint64_t* v);
  // Unpacks n values of `bits` bits (big-endian bit order) into literals_[first..].
  Status Unpack(int bits, int n, int64_t* dst);
  Status Corrupt(const std::string& what) const;

  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t pos_ = 0;
  bool v2_ = true;
  bool signed_ = true;
  int64_t literals_[kMaxRun];
  int count_ = 0;
  int index_ = 0;
};

}  // namespace sluice::orc
