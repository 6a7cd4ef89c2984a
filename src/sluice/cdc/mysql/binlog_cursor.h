// BinlogCursor: bounds-checked reads over the bytes of one binlog event, in the encodings the
// binlog uses (little-endian fixed-width integers, big-endian ones inside row values, MySQL's
// length-encoded "packed" integers). Every read checks the bytes left and returns false, without
// moving, when they run short, so a decoder turns a short event into a Corruption, never into a
// read past its end.
//
// Thread safety: a cursor is a value; the bytes it views must outlive it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace sluice {

class BinlogCursor {
 public:
  explicit BinlogCursor(std::string_view data) : data_(data) {}

  size_t offset() const { return pos_; }
  size_t remaining() const { return data_.size() - pos_; }
  // The bytes not read yet.
  std::string_view rest() const { return data_.substr(pos_); }

  bool Skip(size_t n) {
    if (n > remaining()) return false;
    pos_ += n;
    return true;
  }
  bool ReadBytes(size_t n, std::string_view* out) {
    if (n > remaining()) return false;
    *out = data_.substr(pos_, n);
    pos_ += n;
    return true;
  }
  bool ReadU8(uint8_t* out) {
    if (remaining() < 1) return false;
    *out = static_cast<uint8_t>(data_[pos_++]);
    return true;
  }
  // An unsigned little-endian integer of `n` bytes (0..8).
  bool ReadLE(size_t n, uint64_t* out) {
    if (n > 8 || n > remaining()) return false;
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v |= uint64_t{Byte(pos_ + i)} << (8 * i);
    pos_ += n;
    *out = v;
    return true;
  }
  // An unsigned big-endian integer of `n` bytes (0..8).
  bool ReadBE(size_t n, uint64_t* out) {
    if (n > 8 || n > remaining()) return false;
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v = (v << 8) | Byte(pos_ + i);
    pos_ += n;
    *out = v;
    return true;
  }
  template <typename T>
  bool ReadLE(T* out) {
    uint64_t v;
    if (!ReadLE(sizeof(T), &v)) return false;
    *out = static_cast<T>(v);
    return true;
  }
  // MySQL's length-encoded integer: one byte below 251, else 0xFC + 2 bytes, 0xFD + 3 bytes or
  // 0xFE + 8 bytes. 0xFB (the protocol's NULL) and 0xFF do not occur in a binlog: false.
  bool ReadPacked(uint64_t* out) {
    const size_t start = pos_;
    uint8_t first;
    if (!ReadU8(&first)) return false;
    if (first < 251) {
      *out = first;
      return true;
    }
    const size_t width = first == 0xFC ? 2 : first == 0xFD ? 3 : first == 0xFE ? 8 : 0;
    if (width == 0 || !ReadLE(width, out)) {
      pos_ = start;
      return false;
    }
    return true;
  }
  // A packed length, then that many bytes.
  bool ReadPackedBytes(std::string_view* out) {
    const size_t start = pos_;
    uint64_t n;
    if (!ReadPacked(&n) || n > remaining()) {
      pos_ = start;
      return false;
    }
    *out = data_.substr(pos_, n);
    pos_ += n;
    return true;
  }

 private:
  uint8_t Byte(size_t i) const { return static_cast<uint8_t>(data_[i]); }

  std::string_view data_;
  size_t pos_ = 0;
};

}  // namespace sluice
