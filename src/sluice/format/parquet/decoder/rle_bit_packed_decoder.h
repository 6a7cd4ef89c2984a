// RleBitPackedDecoder: the RLE / bit-packed hybrid encoding (Encodings.md "RLE"), used for
// definition and repetition levels, dictionary indices and RLE booleans. Runs are expanded in
// bulk: a repeated run is a fill, a bit-packed run one UnpackBits call.
//
// Thread safety: not thread-safe.
#pragma once

#include <algorithm>
#include <cstdint>

#include "sluice/base/coding.h"
#include "sluice/format/parquet/decoder/bit_unpack.h"
#include "sluice/result.h"

namespace sluice::parquet {

class RleBitPackedDecoder {
 public:
  // REQUIRES: 0 <= bit_width <= 32 (checked by Make callers via ValidBitWidth).
  RleBitPackedDecoder(const uint8_t* data, size_t size, int bit_width)
      : pos_(data), end_(data + size), bit_width_(bit_width) {}

  static bool ValidBitWidth(int bit_width) { return bit_width >= 0 && bit_width <= 32; }

  // Decodes exactly `n` values into `out`; Corruption if the stream ends first.
  template <typename T>
  Status Decode(T* out, int64_t n) {
    int64_t done = 0;
    while (done < n) {
      if (rle_left_ == 0 && packed_left_ == 0) SLUICE_RETURN_NOT_OK(NextRun());
      if (rle_left_ > 0) {
        int64_t k = std::min(rle_left_, n - done);
        std::fill(out + done, out + done + k, static_cast<T>(rle_value_));
        rle_left_ -= k;
        done += k;
      } else {
        int64_t k = std::min(packed_left_, n - done);
        UnpackFrom(packed_index_, k, out + done);
        packed_index_ += k;
        packed_left_ -= k;
        done += k;
      }
    }
    return Status::OK();
  }

  // True if the next `n` values are all `value` in repeated runs (how writers encode the
  // definition levels of a page without nulls); decodes nothing.
  bool NextAreRepeated(uint64_t value, int64_t n) const {
    RleBitPackedDecoder ahead = *this;
    int64_t covered = 0;
    while (covered < n) {
      if (ahead.packed_left_ > 0 || (ahead.rle_left_ > 0 && ahead.rle_value_ != value)) {
        return false;
      }
      covered += ahead.rle_left_;
      ahead.rle_left_ = 0;
      if (covered < n && !ahead.NextRun().ok()) return false;
    }
    return true;
  }

 private:
  Status NextRun() {
    uint64_t header;
    if (!GetVarint64(&pos_, end_, &header)) {
      return Status::Corruption("RLE/bit-packed stream runs short");
    }
    if (header & 1) {
      uint64_t groups = header >> 1;
      uint64_t bytes = groups * static_cast<uint64_t>(bit_width_);
      if (groups == 0 || groups > (uint64_t{1} << 28) ||
          bytes > static_cast<uint64_t>(end_ - pos_)) {
        // A writer may end the stream with a truncated last group: keep what is there.
        uint64_t avail = static_cast<uint64_t>(end_ - pos_);
        if (groups == 0 || bit_width_ == 0 || avail == 0) {
          return Status::Corruption("RLE/bit-packed run runs past the end of its stream");
        }
        bytes = avail;
        packed_left_ = static_cast<int64_t>(avail * 8 / static_cast<uint64_t>(bit_width_));
      } else {
        packed_left_ = static_cast<int64_t>(groups * 8);
      }
      packed_data_ = pos_;
      packed_index_ = 0;
      pos_ += bytes;
      if (packed_left_ == 0) return Status::Corruption("RLE/bit-packed stream runs short");
    } else {
      int64_t count = static_cast<int64_t>(header >> 1);
      int nbytes = (bit_width_ + 7) / 8;
      if (end_ - pos_ < nbytes) return Status::Corruption("RLE run value runs past the end");
      uint64_t v = 0;
      for (int i = 0; i < nbytes; ++i) v |= static_cast<uint64_t>(pos_[i]) << (8 * i);
      pos_ += nbytes;
      if (count == 0) return NextRun();
      rle_value_ = v;
      rle_left_ = count;
    }
    return Status::OK();
  }

  template <typename T>
  void UnpackFrom(int64_t index, int64_t k, T* out) {
    // Runs start at byte boundaries of 8-value groups: start from the group holding `index`.
    int64_t group = index / 8;
    int64_t skip = index % 8;
    const uint8_t* base = packed_data_ + group * bit_width_;
    // The bytes after the run (up to the stream's end) may be read, never used: a short run
    // (the writer's 8 values between repeated runs) is unpacked by the group code too.
    size_t size = static_cast<size_t>(end_ - base);
    if (skip == 0) {
      UnpackBits(base, size, bit_width_, k, out);
      return;
    }
    T head[8];
    int64_t first = std::min<int64_t>(8 - skip, k);
    UnpackBits(base, size, bit_width_, skip + first, head);
    std::copy(head + skip, head + skip + first, out);
    if (k > first) {
      UnpackBits(base + bit_width_, size - static_cast<size_t>(bit_width_), bit_width_, k - first,
                 out + first);
    }
  }

  const uint8_t* pos_;
  const uint8_t* end_;
  int bit_width_;
  int64_t rle_left_ = 0;
  uint64_t rle_value_ = 0;
  int64_t packed_left_ = 0;
  int64_t packed_index_ = 0;
  const uint8_t* packed_data_ = nullptr;
};

// Bit width needed for values 0..max_value.
inline int BitWidthFor(uint64_t max_value) {
  int w = 0;
  while (max_value > 0) {
    ++w;
    max_value >>= 1;
  }
  return w;
}

}  // namespace sluice::parquet
