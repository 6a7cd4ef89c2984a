#include "sluice/format/orc/rle_encoder.h"

#include <algorithm>
#include <cstring>

#include "sluice/base/coding.h"

namespace sluice::orc {

namespace {

// The smallest bit width RLE v2 can encode that holds `bits` bits, and its 5-bit code.
int FixedWidth(int bits, bool allow_zero, uint32_t* code) {
  if (bits == 0 && allow_zero) {
    *code = 0;
    return 0;
  }
  if (bits <= 1) {
    *code = 0;
    return 1;
  }
  if (bits <= 24) {
    *code = static_cast<uint32_t>(bits - 1);
    return bits;
  }
  static constexpr int kWide[] = {26, 28, 30, 32, 40, 48, 56, 64};
  for (uint32_t i = 0; i < 8; ++i) {
    if (bits <= kWide[i]) {
      *code = 24 + i;
      return kWide[i];
    }
  }
  *code = 31;
  return 64;
}

int BitsOf(uint64_t v) { return v == 0 ? 0 : 64 - __builtin_clzll(v); }

void PackBits(const uint64_t* values, int n, int width, std::string* out) {
  uint64_t acc = 0;
  int have = 0;
  for (int i = 0; i < n; ++i) {
    for (int remaining = width; remaining > 0;) {
      int take = std::min(remaining, 8 - have);
      uint64_t bits = (values[i] >> (remaining - take)) & ((uint64_t{1} << take) - 1);
      acc = (acc << take) | bits;
      have += take;
      remaining -= take;
      if (have == 8) {
        out->push_back(static_cast<char>(acc));
        acc = 0;
        have = 0;
      }
    }
  }
  if (have > 0) out->push_back(static_cast<char>(acc << (8 - have)));
}

}  // namespace

// ---------------------------------------------------------------- ByteRleEncoder

void ByteRleEncoder::EmitLiterals(int n) {
  if (n == 0) return;
  out_.push_back(static_cast<char>(-n));
  out_.append(reinterpret_cast<const char*>(literals_), static_cast<size_t>(n));
}

void ByteRleEncoder::WriteOne(uint8_t v) {
  if (repeat_) {
    if (v == literals_[0] && count_ < 130) {
      ++count_;
      return;
    }
    out_.push_back(static_cast<char>(count_ - 3));
    out_.push_back(static_cast<char>(literals_[0]));
    repeat_ = false;
    count_ = 0;
  }
  if (count_ > 0 && v == literals_[count_ - 1]) {
    ++tail_run_;
  } else {
    tail_run_ = 1;
  }
  if (tail_run_ == 3) {
    // The last three values start a run: emit the literals before them.
    EmitLiterals(count_ - 2);
    literals_[0] = v;
    count_ = 3;
    repeat_ = true;
    tail_run_ = 0;
    return;
  }
  literals_[count_++] = v;
  if (count_ == 128) {
    EmitLiterals(128);
    count_ = 0;
    tail_run_ = 0;
  }
}

void ByteRleEncoder::Write(const uint8_t* values, int64_t n) {
  for (int64_t i = 0; i < n; ++i) WriteOne(values[i]);
}

void ByteRleEncoder::Flush() {
  if (repeat_) {
    out_.push_back(static_cast<char>(count_ - 3));
    out_.push_back(static_cast<char>(literals_[0]));
  } else {
    EmitLiterals(count_);
  }
  repeat_ = false;
  count_ = 0;
  tail_run_ = 0;
}

// ---------------------------------------------------------------- BooleanRleEncoder

void BooleanRleEncoder::Write(const uint8_t* values, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    current_ = static_cast<uint8_t>(current_ | ((values[i] & 1) << (7 - bits_)));
    if (++bits_ == 8) {
      bytes_.Write(&current_, 1);
      current_ = 0;
      bits_ = 0;
    }
  }
}

void BooleanRleEncoder::Flush() {
  if (bits_ > 0) {
    bytes_.Write(&current_, 1);
    current_ = 0;
    bits_ = 0;
  }
  bytes_.Flush();
}

// ---------------------------------------------------------------- IntRleV2Encoder

void IntRleV2Encoder::PutVarintValue(int64_t v) {
  PutVarint64(&out_, signed_ ? ZigZagEncode64(v) : static_cast<uint64_t>(v));
}

void IntRleV2Encoder::EmitDirect(int n) {
  uint64_t encoded[kMaxRun];
  uint64_t all = 0;
  for (int i = 0; i < n; ++i) {
    encoded[i] = signed_ ? ZigZagEncode64(values_[i]) : static_cast<uint64_t>(values_[i]);
    all |= encoded[i];
  }
  uint32_t code;
  int width = FixedWidth(BitsOf(all), false, &code);
  int length = n - 1;
  out_.push_back(static_cast<char>(0x40 | (code << 1) | ((length >> 8) & 1)));
  out_.push_back(static_cast<char>(length & 0xff));
  PackBits(encoded, n, width, &out_);
}

void IntRleV2Encoder::EmitRun() {
  int n = count_;
  count_ = 0;
  bool all_equal = true;
  for (int i = 1; i < n && all_equal; ++i) all_equal = values_[i] == values_[0];
  if (all_equal && n >= 3 && n <= 10) {
    uint64_t v = signed_ ? ZigZagEncode64(values_[0]) : static_cast<uint64_t>(values_[0]);
    int bytes = std::max(1, (BitsOf(v) + 7) / 8);
    out_.push_back(static_cast<char>(((bytes - 1) << 3) | (n - 3)));
    for (int b = bytes - 1; b >= 0; --b) out_.push_back(static_cast<char>((v >> (8 * b)) & 0xff));
    return;
  }
  if (n >= 3) {
    // Delta run: all deltas of one sign (the first delta's sign gives the direction).
    bool ok = true;
    int sign = 0;
    __int128 first = static_cast<__int128>(values_[1]) - values_[0];
    bool fixed = true;
    uint64_t max_delta = 0;
    for (int i = 1; i < n && ok; ++i) {
      __int128 d = static_cast<__int128>(values_[i]) - values_[i - 1];
      if (d > INT64_MAX || d < -INT64_MAX) ok = false;
      int s = d > 0 ? 1 : d < 0 ? -1 : 0;
      if (s != 0) {
        if (sign == 0) sign = s;
        if (s != sign) ok = false;
      }
      if (d != first) fixed = false;
      if (i >= 2) max_delta = std::max(max_delta, static_cast<uint64_t>(d < 0 ? -d : d));
    }
    if (first == 0 && sign < 0) ok = false;  // a zero first delta reads as increasing
    if (ok && (fixed || BitsOf(max_delta) < 60)) {
      uint32_t code = 0;
      int width = 0;
      if (!fixed) {
        // Width code 0 means "fixed delta" in delta runs, so packed deltas take at least 2 bits.
        width = FixedWidth(std::max(BitsOf(max_delta), 2), false, &code);
      }
      int length = n - 1;
      out_.push_back(static_cast<char>(0xc0 | (code << 1) | ((length >> 8) & 1)));
      out_.push_back(static_cast<char>(length & 0xff));
      PutVarintValue(values_[0]);
      PutVarint64(&out_, ZigZagEncode64(static_cast<int64_t>(first)));
      if (!fixed) {
        uint64_t deltas[kMaxRun];
        for (int i = 2; i < n; ++i) {
          __int128 d = static_cast<__int128>(values_[i]) - values_[i - 1];
          deltas[i - 2] = static_cast<uint64_t>(d < 0 ? -d : d);
        }
        PackBits(deltas, n - 2, width, &out_);
      }
      return;
    }
  }
  EmitDirect(n);
}

}  // namespace sluice::orc
