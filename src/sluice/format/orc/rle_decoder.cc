#include "sluice/format/orc/rle_decoder.h"

#include <algorithm>
#include <cstring>

#include "sluice/base/coding.h"

namespace sluice::orc {

namespace {

// RLE v2's 5-bit width code to a bit width.
int DecodeBitWidth(uint32_t code) {
  if (code <= 23) return static_cast<int>(code) + 1;
  static constexpr int kWide[] = {26, 28, 30, 32, 40, 48, 56, 64};
  return kWide[code - 24];
}

// The widths that patch lists are packed with (Java's getClosestFixedBits).
int ClosestFixedBits(int n) {
  if (n == 0) return 1;
  if (n <= 24) return n;
  if (n <= 26) return 26;
  if (n <= 28) return 28;
  if (n <= 30) return 30;
  if (n <= 32) return 32;
  if (n <= 40) return 40;
  if (n <= 48) return 48;
  if (n <= 56) return 56;
  return 64;
}

}  // namespace

// ---------------------------------------------------------------- ByteRleDecoder

Status ByteRleDecoder::ReadHeader() {
  if (pos_ >= size_) return Status::Corruption("byte RLE: stream ends before the values do");
  auto control = static_cast<int8_t>(data_[pos_++]);
  if (control >= 0) {
    if (pos_ >= size_) return Status::Corruption("byte RLE: run value missing");
    repeating_ = true;
    remaining_ = control + 3;
    value_ = data_[pos_++];
  } else {
    repeating_ = false;
    remaining_ = -static_cast<int64_t>(control);
    if (static_cast<size_t>(remaining_) > size_ - pos_) {
      return Status::Corruption("byte RLE: literal group runs past the stream");
    }
  }
  return Status::OK();
}

Status ByteRleDecoder::Next(uint8_t* out, int64_t n) {
  while (n > 0) {
    if (remaining_ == 0) SLUICE_RETURN_NOT_OK(ReadHeader());
    int64_t take = std::min(n, remaining_);
    if (repeating_) {
      std::memset(out, value_, static_cast<size_t>(take));
    } else {
      std::memcpy(out, data_ + pos_, static_cast<size_t>(take));
      pos_ += static_cast<size_t>(take);
    }
    out += take;
    n -= take;
    remaining_ -= take;
  }
  return Status::OK();
}

Status ByteRleDecoder::Skip(int64_t n) {
  while (n > 0) {
    if (remaining_ == 0) SLUICE_RETURN_NOT_OK(ReadHeader());
    int64_t take = std::min(n, remaining_);
    if (!repeating_) pos_ += static_cast<size_t>(take);
    n -= take;
    remaining_ -= take;
  }
  return Status::OK();
}

// ---------------------------------------------------------------- BooleanRleDecoder

Status BooleanRleDecoder::Seek(uint64_t offset, uint64_t byte_values, uint64_t bits) {
  bytes_.Seek(offset);
  bits_left_ = 0;
  SLUICE_RETURN_NOT_OK(bytes_.Skip(static_cast<int64_t>(byte_values)));
  if (bits > 8) return Status::Corruption("boolean RLE: bit position " + std::to_string(bits));
  return Skip(static_cast<int64_t>(bits));
}

Status BooleanRleDecoder::Next(uint8_t* out, int64_t n) {
  int64_t i = 0;
  while (i < n && bits_left_ > 0) {
    out[i++] = (current_ >> --bits_left_) & 1;
  }
  // Whole bytes in bulk: decode them into the tail of `out`, then expand in place forwards.
  int64_t whole = (n - i) / 8;
  if (whole > 0) {
    uint8_t* packed = out + n - whole;
    SLUICE_RETURN_NOT_OK(bytes_.Next(packed, whole));
    for (int64_t b = 0; b < whole; ++b) {
      uint8_t byte = packed[b];
      uint8_t* dst = out + i + b * 8;
      for (int bit = 0; bit < 8; ++bit) dst[bit] = (byte >> (7 - bit)) & 1;
    }
    i += whole * 8;
  }
  while (i < n) {
    if (bits_left_ == 0) {
      SLUICE_RETURN_NOT_OK(bytes_.Next(&current_, 1));
      bits_left_ = 8;
    }
    out[i++] = (current_ >> --bits_left_) & 1;
  }
  return Status::OK();
}

Status BooleanRleDecoder::Skip(int64_t n) {
  int64_t from_current = std::min<int64_t>(n, bits_left_);
  bits_left_ -= static_cast<int>(from_current);
  n -= from_current;
  if (n == 0) return Status::OK();
  SLUICE_RETURN_NOT_OK(bytes_.Skip(n / 8));
  n %= 8;
  if (n > 0) {
    SLUICE_RETURN_NOT_OK(bytes_.Next(&current_, 1));
    bits_left_ = 8 - static_cast<int>(n);
  }
  return Status::OK();
}

// ---------------------------------------------------------------- IntRleDecoder

Status IntRleDecoder::Corrupt(const std::string& what) const {
  return Status::Corruption(std::string(v2_ ? "integer RLE v2" : "integer RLE v1") + ": " + what +
                            " at byte " + std::to_string(pos_));
}

Status IntRleDecoder::ReadVarint(uint64_t* v) {
  const uint8_t* p = data_ + pos_;
  if (!GetVarint64(&p, data_ + size_, v)) return Corrupt("truncated varint");
  pos_ = static_cast<size_t>(p - data_);
  return Status::OK();
}

Status IntRleDecoder::ReadBigEndian(int bytes, uint64_t* v) {
  if (static_cast<size_t>(bytes) > size_ - pos_) return Corrupt("truncated value");
  uint64_t r = 0;
  for (int i = 0; i < bytes; ++i) r = (r << 8) | data_[pos_++];
  *v = r;
  return Status::OK();
}

Status IntRleDecoder::Unpack(int bits, int n, int64_t* dst) {
  uint64_t total_bits = static_cast<uint64_t>(bits) * static_cast<uint64_t>(n);
  uint64_t bytes = (total_bits + 7) / 8;
  if (bytes > size_ - pos_) return Corrupt("bit-packed values run past the stream");
  const uint8_t* p = data_ + pos_;
  if (bits % 8 == 0) {
    int width = bits / 8;
    for (int i = 0; i < n; ++i) {
      uint64_t v = 0;
      for (int b = 0; b < width; ++b) v = (v << 8) | *p++;
      dst[i] = static_cast<int64_t>(v);
    }
  } else {
    uint64_t acc = 0;  // holds `have` unread low bits
    int have = 0;
    for (int i = 0; i < n; ++i) {
      uint64_t v = 0;
      int need = bits;
      while (need > 0) {
        if (have == 0) {
          acc = *p++;
          have = 8;
        }
        int take = std::min(need, have);
        v = (v << take) | ((acc >> (have - take)) & ((uint64_t{1} << take) - 1));
        have -= take;
        need -= take;
      }
      dst[i] = static_cast<int64_t>(v);
    }
  }
  pos_ += bytes;
  return Status::OK();
}

Status IntRleDecoder::ReadRunV1() {
  if (pos_ >= size_) return Corrupt("stream ends before the values do");
  auto control = static_cast<int8_t>(data_[pos_++]);
  if (control >= 0) {
    int length = control + 3;
    if (pos_ >= size_) return Corrupt("truncated run");
    auto delta = static_cast<int8_t>(data_[pos_++]);
    uint64_t raw;
    SLUICE_RETURN_NOT_OK(ReadVarint(&raw));
    int64_t base = signed_ ? ZigZagDecode64(raw) : static_cast<int64_t>(raw);
    for (int i = 0; i < length; ++i) {
      literals_[i] = static_cast<int64_t>(static_cast<uint64_t>(base) +
                                          static_cast<uint64_t>(int64_t{delta} * i));
    }
    count_ = length;
  } else {
    int length = -control;
    for (int i = 0; i < length; ++i) {
      uint64_t raw;
      SLUICE_RETURN_NOT_OK(ReadVarint(&raw));
      literals_[i] = signed_ ? ZigZagDecode64(raw) : static_cast<int64_t>(raw);
    }
    count_ = length;
  }
  index_ = 0;
  return Status::OK();
}

Status IntRleDecoder::ReadRunV2() {
  if (pos_ >= size_) return Corrupt("stream ends before the values do");
  uint8_t first = data_[pos_++];
  int encoding = first >> 6;
  index_ = 0;
  if (encoding == 0) {  // short repeat
    int width = ((first >> 3) & 7) + 1;
    int repeat = (first & 7) + 3;
    uint64_t raw;
    SLUICE_RETURN_NOT_OK(ReadBigEndian(width, &raw));
    int64_t v = signed_ ? ZigZagDecode64(raw) : static_cast<int64_t>(raw);
    std::fill(literals_, literals_ + repeat, v);
    count_ = repeat;
    return Status::OK();
  }
  if (pos_ >= size_) return Corrupt("truncated header");
  uint8_t second = data_[pos_++];
  int length = (((first & 1) << 8) | second) + 1;
  uint32_t width_code = (first >> 1) & 0x1f;
  if (encoding == 1) {  // direct
    int bits = DecodeBitWidth(width_code);
    SLUICE_RETURN_NOT_OK(Unpack(bits, length, literals_));
    if (signed_) {
      for (int i = 0; i < length; ++i) {
        literals_[i] = ZigZagDecode64(static_cast<uint64_t>(literals_[i]));
      }
    }
    count_ = length;
    return Status::OK();
  }
  if (encoding == 2) {  // patched base
    int bits = DecodeBitWidth(width_code);
    if (size_ - pos_ < 2) return Corrupt("truncated patched-base header");
    uint8_t third = data_[pos_++];
    uint8_t fourth = data_[pos_++];
    int base_bytes = ((third >> 5) & 7) + 1;
    int patch_bits = DecodeBitWidth(third & 0x1f);
    int gap_bits = ((fourth >> 5) & 7) + 1;
    int patch_count = fourth & 0x1f;
    uint64_t raw_base;
    SLUICE_RETURN_NOT_OK(ReadBigEndian(base_bytes, &raw_base));
    uint64_t sign_bit = uint64_t{1} << (base_bytes * 8 - 1);
    int64_t base = (raw_base & sign_bit) ? -static_cast<int64_t>(raw_base & ~sign_bit)
                                         : static_cast<int64_t>(raw_base);
    SLUICE_RETURN_NOT_OK(Unpack(bits, length, literals_));
    if (patch_bits + gap_bits > 64) return Corrupt("patch wider than 64 bits");
    int64_t patches[32];
    SLUICE_RETURN_NOT_OK(Unpack(ClosestFixedBits(patch_bits + gap_bits), patch_count, patches));
    uint64_t patch_mask = patch_bits == 64 ? ~uint64_t{0} : (uint64_t{1} << patch_bits) - 1;
    int64_t index = 0;
    for (int p = 0; p < patch_count; ++p) {
      auto entry = static_cast<uint64_t>(patches[p]);
      index += static_cast<int64_t>(entry >> patch_bits);
      uint64_t patch = entry & patch_mask;
      if (patch == 0) continue;  // a gap longer than 255 is split with empty patches
      if (index >= length) return Corrupt("patch index past the run");
      if (bits < 64) {
        literals_[index] =
            static_cast<int64_t>(static_cast<uint64_t>(literals_[index]) | (patch << bits));
      }
    }
    for (int i = 0; i < length; ++i) {
      literals_[i] =
          static_cast<int64_t>(static_cast<uint64_t>(base) + static_cast<uint64_t>(literals_[i]));
    }
    count_ = length;
    return Status::OK();
  }
  // delta
  int bits = width_code == 0 ? 0 : DecodeBitWidth(width_code);
  uint64_t raw_base;
  SLUICE_RETURN_NOT_OK(ReadVarint(&raw_base));
  int64_t base = signed_ ? ZigZagDecode64(raw_base) : static_cast<int64_t>(raw_base);
  uint64_t raw_delta;
  SLUICE_RETURN_NOT_OK(ReadVarint(&raw_delta));
  int64_t delta = ZigZagDecode64(raw_delta);
  literals_[0] = base;
  if (length > 1) {
    literals_[1] = static_cast<int64_t>(static_cast<uint64_t>(base) + static_cast<uint64_t>(delta));
  }
  if (bits == 0) {
    for (int i = 2; i < length; ++i) {
      literals_[i] = static_cast<int64_t>(static_cast<uint64_t>(literals_[i - 1]) +
                                          static_cast<uint64_t>(delta));
    }
  } else if (length > 2) {
    SLUICE_RETURN_NOT_OK(Unpack(bits, length - 2, literals_ + 2));
    for (int i = 2; i < length; ++i) {
      uint64_t d = static_cast<uint64_t>(literals_[i]);
      uint64_t prev = static_cast<uint64_t>(literals_[i - 1]);
      literals_[i] = static_cast<int64_t>(delta < 0 ? prev - d : prev + d);
    }
  }
  count_ = length;
  return Status::OK();
}

Status IntRleDecoder::ReadRun() { return v2_ ? ReadRunV2() : ReadRunV1(); }

Status IntRleDecoder::Next(int64_t* out, int64_t n) {
  while (n > 0) {
    if (index_ == count_) SLUICE_RETURN_NOT_OK(ReadRun());
    int64_t take = std::min<int64_t>(n, count_ - index_);
    std::memcpy(out, literals_ + index_, static_cast<size_t>(take) * sizeof(int64_t));
    out += take;
    n -= take;
    index_ += static_cast<int>(take);
  }
  return Status::OK();
}

Status IntRleDecoder::Skip(int64_t n) {
  while (n > 0) {
    if (index_ == count_) SLUICE_RETURN_NOT_OK(ReadRun());
    int64_t take = std::min<int64_t>(n, count_ - index_);
    n -= take;
    index_ += static_cast<int>(take);
  }
  return Status::OK();
}

}  // namespace sluice::orc
