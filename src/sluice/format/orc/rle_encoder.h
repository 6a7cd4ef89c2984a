// Run-length encoders of ORC streams: byte RLE, boolean RLE and integer RLE v2 (short repeat,
// direct and delta runs; patched base is never produced, which every reader accepts).
//
// Thread safety: not thread-safe; one encoder per stream.
#pragma once

#include <cstdint>
#include <string>

namespace sluice::orc {

class ByteRleEncoder {
 public:
  void Write(const uint8_t* values, int64_t n);
  // Emits buffered values; the encoder can keep writing afterwards.
  void Flush();
  std::string* output() { return &out_; }
  void Reset() {
    out_.clear();
    count_ = 0;
    repeat_ = false;
    tail_run_ = 0;
  }

 private:
  void WriteOne(uint8_t v);
  void EmitLiterals(int n);

  std::string out_;
  uint8_t literals_[128];
  int count_ = 0;
  bool repeat_ = false;
  int tail_run_ = 0;  // length of the run of equal values ending the literals
};

class BooleanRleEncoder {
 public:
  // values: 0/1 bytes.
  void Write(const uint8_t* values, int64_t n);
  void Flush();
  // A row-index position: ends the current byte run so that the next byte starts at *offset,
  // and gives the bits already taken from that (partial) byte.
  void Position(uint64_t* offset, uint64_t* bits) {
    bytes_.Flush();
    *offset = bytes_.output()->size();
    *bits = static_cast<uint64_t>(bits_);
  }
  std::string* output() { return bytes_.output(); }
  void Reset() {
    bytes_.Reset();
    current_ = 0;
    bits_ = 0;
  }

 private:
  ByteRleEncoder bytes_;
  uint8_t current_ = 0;
  int bits_ = 0;
};

class IntRleV2Encoder {
 public:
  explicit IntRleV2Encoder(bool is_signed) : signed_(is_signed) {}
  void Write(int64_t v) {
    values_[count_++] = v;
    if (count_ == kMaxRun) EmitRun();
  }
  void Flush() {
    if (count_ > 0) EmitRun();
  }
  std::string* output() { return &out_; }
  void Reset() {
    out_.clear();
    count_ = 0;
  }

 private:
  static constexpr int kMaxRun = 512;
  void EmitRun();
  void EmitDirect(int n);
  void PutVarintValue(int64_t v);

  bool signed_;
  std::string out_;
  int64_t values_[kMaxRun];
  int count_ = 0;
};

}  // namespace sluice::orc
