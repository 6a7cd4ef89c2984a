#include "sluice/index/deletion_vector.h"

#include <roaring/roaring.h>
#include <zlib.h>

#include <algorithm>

#include "sluice/base/coding.h"

namespace sluice {

namespace {

uint32_t Crc32(const uint8_t* data, size_t n) {
  return static_cast<uint32_t>(crc32(crc32(0L, Z_NULL, 0), data, static_cast<uInt>(n)));
}

Status Corrupt(const std::string& what) { return Status::Corruption("deletion vector: " + what); }

// Calls `fn` with the values of `bitmap` in storage order, a block at a time.
template <typename Fn>
void ForEachBlock(const roaring_bitmap_t* bitmap, Fn&& fn) {
  uint32_t block[256];
  roaring_uint32_iterator_t it;
  roaring_init_iterator(bitmap, &it);
  while (uint32_t n = roaring_read_uint32_iterator(&it, block, 256)) fn(block, n);
}

// CRoaring's parser trusts the serialized cardinality of bitmap containers and the order of
// array and run values; a bitmap whose values do not strictly ascend, or whose cardinality
// differs from its values, is corrupt (and would overrun buffers sized by that cardinality).
bool IsConsistent(const roaring_bitmap_t* bitmap) {
  uint64_t count = 0;
  int64_t last = -1;
  bool ascending = true;
  ForEachBlock(bitmap, [&](const uint32_t* values, uint32_t n) {
    for (uint32_t i = 0; i < n; ++i) {
      ascending &= static_cast<int64_t>(values[i]) > last;
      last = values[i];
    }
    count += n;
  });
  return ascending && count == roaring_bitmap_get_cardinality(bitmap);
}

// Parses one portable RoaringBitmap that must start at `data`, within `n` bytes; stores how many
// bytes it took in `*consumed`.
Result<roaring_bitmap_t*> ParsePortableBitmap(const uint8_t* data, size_t n, size_t* consumed) {
  const char* buf = reinterpret_cast<const char*>(data);
  const size_t size = roaring_bitmap_portable_deserialize_size(buf, n);
  if (size == 0) return Corrupt("malformed roaring bitmap");
  roaring_bitmap_t* bitmap = roaring_bitmap_portable_deserialize_safe(buf, size);
  if (bitmap == nullptr) return Corrupt("malformed roaring bitmap");
  if (!IsConsistent(bitmap)) {
    roaring_bitmap_free(bitmap);
    return Corrupt("roaring bitmap values out of order or cardinality mismatch");
  }
  *consumed = size;
  return bitmap;
}

}  // namespace

void DeletionVector::BitmapFree::operator()(roaring_bitmap_s* bitmap) const {
  roaring_bitmap_free(bitmap);
}

DeletionVector::DeletionVector(Kind kind) : kind_(kind) {
  if (kind_ == Kind::kBitmap32) bitmaps_.emplace_back(0, Bitmap(roaring_bitmap_create()));
}

DeletionVector::~DeletionVector() = default;
DeletionVector::DeletionVector(DeletionVector&& other) noexcept = default;
DeletionVector& DeletionVector::operator=(DeletionVector&& other) noexcept = default;

Result<DeletionVector> DeletionVector::Deserialize(std::string_view entry) {
  if (entry.size() < static_cast<size_t>(kFramingBytes)) {
    return Corrupt("entry of " + std::to_string(entry.size()) + " bytes is shorter than " +
                   std::to_string(kFramingBytes));
  }
  const auto* data = reinterpret_cast<const uint8_t*>(entry.data());
  const uint32_t length = DecodeFixed32BE(data);
  if (length != entry.size() - 8) {
    return Corrupt("length field " + std::to_string(length) + " does not match the entry of " +
                   std::to_string(entry.size()) + " bytes (expected " +
                   std::to_string(entry.size() - 8) + ")");
  }
  const uint32_t magic_be = DecodeFixed32BE(data + 4);
  Kind kind;
  if (magic_be == kBitmap32Magic) {
    kind = Kind::kBitmap32;
  } else if (DecodeFixed32LE(data + 4) == kBitmap64Magic) {
    kind = Kind::kBitmap64;
  } else {
    return Corrupt("invalid magic number " + std::to_string(static_cast<int32_t>(magic_be)));
  }
  const uint32_t stored_crc = DecodeFixed32BE(data + 4 + length);
  const uint32_t actual_crc = Crc32(data + 4, length);
  if (stored_crc != actual_crc) {
    return Corrupt("CRC mismatch: stored " + std::to_string(stored_crc) + ", computed " +
                   std::to_string(actual_crc));
  }

  DeletionVector dv(kind);
  const uint8_t* p = data + 8;
  const uint8_t* const end = data + 4 + length;
  size_t consumed = 0;
  if (kind == Kind::kBitmap32) {
    SLUICE_ASSIGN_OR_RETURN(roaring_bitmap_t * bitmap,
                            ParsePortableBitmap(p, static_cast<size_t>(end - p), &consumed));
    dv.bitmaps_[0].second.reset(bitmap);
    p += consumed;
  } else {
    if (end - p < 8) return Corrupt("64-bit bitmap truncated before its bitmap count");
    const auto count = static_cast<int64_t>(DecodeFixed64LE(p));
    p += 8;
    if (count < 0 || count > INT32_MAX) {
      return Corrupt("invalid 64-bit bitmap count " + std::to_string(count));
    }
    int64_t last_key = -1;
    for (int64_t i = 0; i < count; ++i) {
      if (end - p < 4) return Corrupt("64-bit bitmap truncated at bitmap " + std::to_string(i));
      const auto key = static_cast<int32_t>(DecodeFixed32LE(p));
      p += 4;
      if (key < 0 || key > INT32_MAX - 1 || key <= last_key) {
        return Corrupt("64-bit bitmap key " + std::to_string(key) + " after key " +
                       std::to_string(last_key) + " (keys must ascend within 0.." +
                       std::to_string(INT32_MAX - 1) + ")");
      }
      last_key = key;
      SLUICE_ASSIGN_OR_RETURN(roaring_bitmap_t * bitmap,
                              ParsePortableBitmap(p, static_cast<size_t>(end - p), &consumed));
      dv.bitmaps_.emplace_back(static_cast<uint32_t>(key), Bitmap(bitmap));
      p += consumed;
    }
  }
  if (p != end) {
    return Corrupt(std::to_string(end - p) + " bytes after the bitmap inside the entry");
  }
  return dv;
}

roaring_bitmap_s* DeletionVector::BitmapFor(uint32_t key) {
  auto it = std::lower_bound(bitmaps_.begin(), bitmaps_.end(), key,
                             [](const auto& entry, uint32_t k) { return entry.first < k; });
  if (it == bitmaps_.end() || it->first != key) {
    it = bitmaps_.emplace(it, key, Bitmap(roaring_bitmap_create()));
  }
  return it->second.get();
}

const roaring_bitmap_s* DeletionVector::FindBitmap(uint32_t key) const {
  auto it = std::lower_bound(bitmaps_.begin(), bitmaps_.end(), key,
                             [](const auto& entry, uint32_t k) { return entry.first < k; });
  return it == bitmaps_.end() || it->first != key ? nullptr : it->second.get();
}

Status DeletionVector::Delete(int64_t position) {
  const int64_t max = kind_ == Kind::kBitmap32 ? kMaxBitmap32Position : kMaxBitmap64Position;
  if (position < 0 || position > max) {
    return Status::InvalidArgument("deletion vector: position " + std::to_string(position) +
                                   " outside 0.." + std::to_string(max));
  }
  roaring_bitmap_add(BitmapFor(static_cast<uint32_t>(position >> 32)),
                     static_cast<uint32_t>(position));
  return Status::OK();
}

bool DeletionVector::IsDeleted(int64_t position) const {
  if (position < 0) return false;
  const roaring_bitmap_s* bitmap = FindBitmap(static_cast<uint32_t>(position >> 32));
  return bitmap != nullptr && roaring_bitmap_contains(bitmap, static_cast<uint32_t>(position));
}

int64_t DeletionVector::Cardinality() const {
  int64_t total = 0;
  for (const auto& [key, bitmap] : bitmaps_) {
    total += static_cast<int64_t>(roaring_bitmap_get_cardinality(bitmap.get()));
  }
  return total;
}

std::vector<int64_t> DeletionVector::ToSortedPositions() const {
  std::vector<int64_t> positions;
  positions.reserve(static_cast<size_t>(Cardinality()));
  for (const auto& [key, bitmap] : bitmaps_) {
    const int64_t high = static_cast<int64_t>(key) << 32;
    ForEachBlock(bitmap.get(), [&](const uint32_t* values, uint32_t n) {
      for (uint32_t i = 0; i < n; ++i) positions.push_back(high | values[i]);
    });
  }
  return positions;
}

std::string DeletionVector::Serialize() {
  for (auto& [key, bitmap] : bitmaps_) roaring_bitmap_run_optimize(bitmap.get());
  // Java writes the 64-bit variant densely: every key from 0 to the largest.
  Bitmap empty(roaring_bitmap_create());
  const int64_t dense_count = bitmaps_.empty() ? 0 : int64_t{bitmaps_.back().first} + 1;
  size_t bitmap_size = 0;
  if (kind_ == Kind::kBitmap32) {
    bitmap_size = roaring_bitmap_portable_size_in_bytes(bitmaps_[0].second.get());
  } else {
    bitmap_size = 8 + static_cast<size_t>(dense_count - static_cast<int64_t>(bitmaps_.size())) *
                          (4 + roaring_bitmap_portable_size_in_bytes(empty.get()));
    for (const auto& [key, bitmap] : bitmaps_) {
      bitmap_size += 4 + roaring_bitmap_portable_size_in_bytes(bitmap.get());
    }
  }
  const size_t length = 4 + bitmap_size;
  std::string out(length + 8, '\0');
  auto* data = reinterpret_cast<uint8_t*>(out.data());
  EncodeFixed32BE(data, static_cast<uint32_t>(length));
  uint8_t* p = data + 8;
  if (kind_ == Kind::kBitmap32) {
    EncodeFixed32BE(data + 4, kBitmap32Magic);
    p += roaring_bitmap_portable_serialize(bitmaps_[0].second.get(), reinterpret_cast<char*>(p));
  } else {
    EncodeFixed32LE(data + 4, kBitmap64Magic);
    EncodeFixed64LE(p, static_cast<uint64_t>(dense_count));
    p += 8;
    auto stored = bitmaps_.begin();
    for (int64_t key = 0; key < dense_count; ++key) {
      EncodeFixed32LE(p, static_cast<uint32_t>(key));
      p += 4;
      const roaring_bitmap_s* bitmap = empty.get();
      if (stored->first == key) {
        bitmap = stored->second.get();
        ++stored;
      }
      p += roaring_bitmap_portable_serialize(bitmap, reinterpret_cast<char*>(p));
    }
  }
  EncodeFixed32BE(p, Crc32(data + 4, length));
  return out;
}

bool DeletionVector::operator==(const DeletionVector& other) const {
  return kind_ == other.kind_ && ToSortedPositions() == other.ToSortedPositions();
}

}  // namespace sluice
