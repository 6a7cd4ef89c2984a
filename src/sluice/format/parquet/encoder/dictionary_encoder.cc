#include "sluice/format/parquet/encoder/dictionary_encoder.h"

#include "sluice/base/coding.h"

namespace sluice::parquet {

namespace internal {

uint64_t HashBytes(const uint8_t* p, size_t n) {
  uint64_t h = 0x9e3779b97f4a7c15ULL ^ (n * 0xc6a4a7935bd1e995ULL);
  while (n >= 8) {
    h = MixHash(h ^ DecodeFixed64LE(p));
    p += 8;
    n -= 8;
  }
  uint64_t tail = 0;
  // An empty value of an empty column has no buffer at all: p may be null.
  if (n > 0) std::memcpy(&tail, p, n);
  return MixHash(h ^ tail);
}

}  // namespace internal

uint32_t ByteArrayDictionary::Insert(std::string_view v) {
  const uint8_t* data = reinterpret_cast<const uint8_t*>(v.data());
  uint32_t hash = static_cast<uint32_t>(internal::HashBytes(data, v.size()));
  size_t slot = hash & mask_;
  while (true) {
    const Slot& s = slots_[slot];
    if (s.index_plus_one == 0) break;
    if (s.hash == hash) {
      uint32_t index = s.index_plus_one - 1;
      uint32_t begin = offsets_[index];
      uint32_t len = offsets_[index + 1] - begin;
      if (len == v.size() && (len == 0 || std::memcmp(bytes_.data() + begin, data, len) == 0)) {
        return index;
      }
    }
    slot = (slot + 1) & mask_;
  }
  uint32_t index = static_cast<uint32_t>(size());
  bytes_.Append(data, v.size());
  offsets_.push_back(static_cast<uint32_t>(bytes_.size()));
  hashes_.push_back(hash);
  slots_[slot] = Slot{index + 1, hash};
  if (hashes_.size() * 2 > slots_.size()) Rehash(slots_.size() * 2);
  return index;
}

void ByteArrayDictionary::Rehash(size_t capacity) {
  slots_.assign(capacity, Slot{});
  mask_ = capacity - 1;
  for (size_t i = 0; i < hashes_.size(); ++i) {
    size_t slot = hashes_[i] & mask_;
    while (slots_[slot].index_plus_one != 0) slot = (slot + 1) & mask_;
    slots_[slot] = Slot{static_cast<uint32_t>(i + 1), hashes_[i]};
  }
}

void ByteArrayDictionary::PlainEncode(Buffer* out) const {
  size_t start = out->size();
  out->Resize(start + static_cast<size_t>(byte_size()));
  uint8_t* p = out->data() + start;
  for (int64_t i = 0; i < size(); ++i) {
    uint32_t len = offsets_[i + 1] - offsets_[i];
    EncodeFixed32LE(p, len);
    if (len > 0) std::memcpy(p + 4, bytes_.data() + offsets_[i], len);
    p += 4 + len;
  }
}

void ByteArrayDictionary::Clear() {
  bytes_.Clear();
  offsets_.assign(1, 0);
  hashes_.clear();
  std::fill(slots_.begin(), slots_.end(), Slot{});
}

}  // namespace sluice::parquet
