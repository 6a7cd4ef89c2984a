#include "sluice/index/deletion_vector.h"

#include <roaring/containers/containers.h>
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

// CRoaring's parser trusts the serialized cardinality of bitmap containers and the order and
// range of array and run values. A bitmap is consistent when its values strictly ascend, each
// lies in its container's key range (no container left empty), and their count is the stated
// cardinality; otherwise it is corrupt (and would overrun buffers sized by that cardinality).
bool IsConsistent(const roaring_bitmap_t* bitmap) {
  const roaring_array_t& ra = bitmap->high_low_container;
  uint64_t count = 0;
  int64_t last = -1;
  int32_t container = -1;
  bool ok = true;
  ForEachBlock(bitmap, [&](const uint32_t* values, uint32_t n) {
    for (uint32_t i = 0; i < n && ok; ++i) {
      ok = static_cast<int64_t>(values[i]) > last;
      last = values[i];
      const auto key = static_cast<uint16_t>(values[i] >> 16);
      if (container < 0 || key != ra.keys[container]) {
        ++container;
        ok = ok && container < ra.size && key == ra.keys[container];
      }
    }
    count += n;
  });
  return ok && container + 1 == ra.size && count == roaring_bitmap_get_cardinality(bitmap);
}

// Java RoaringBitmap.runOptimize() followed by serialize(), in the portable format. Java picks
// each container's kind from its current kind, and the rules differ from CRoaring's
// roaring_bitmap_run_optimize at the boundaries (e.g. 3 consecutive values stay an array in
// Java): an array becomes runs if 2 * card > 2 + 4 * runs; a bitmap if 8192 > 2 + 4 * runs;
// runs stay runs if 2 + 4 * runs <= min(8192, 2 + 2 * card), else become an array (card <=
// 4096) or a bitmap.
std::string JavaRunOptimizedBytes(const roaring_bitmap_t* bitmap) {
  enum ContainerKind : unsigned char { kArray, kBitset, kRun };
  struct Container {
    uint16_t key;
    ContainerKind kind;
    size_t begin, end;                                // into `values`
    std::vector<std::pair<uint16_t, uint16_t>> runs;  // (start, length - 1)
  };
  std::vector<uint32_t> values;
  values.reserve(roaring_bitmap_get_cardinality(bitmap));
  ForEachBlock(bitmap, [&](const uint32_t* block, uint32_t n) {
    values.insert(values.end(), block, block + n);
  });
  const roaring_array_t& ra = bitmap->high_low_container;
  std::vector<Container> containers;
  size_t next = 0;
  for (int32_t i = 0; i < ra.size; ++i) {
    Container c{ra.keys[i], kArray, next, next, {}};
    while (c.end < values.size() && (values[c.end] >> 16) == c.key) ++c.end;
    next = c.end;
    const size_t card = c.end - c.begin;
    if (card == 0) continue;
    for (size_t v = c.begin; v < c.end; ++v) {
      const auto low = static_cast<uint16_t>(values[v]);
      if (!c.runs.empty() && c.runs.back().first + c.runs.back().second + 1 == low) {
        ++c.runs.back().second;
      } else {
        c.runs.emplace_back(low, 0);
      }
    }
    const size_t run_size = 2 + 4 * c.runs.size();
    if (ra.typecodes[i] == RUN_CONTAINER_TYPE_CODE) {
      c.kind = run_size <= std::min<size_t>(8192, 2 + 2 * card) ? kRun
               : card <= 4096                                   ? kArray
                                                                : kBitset;
    } else if (card <= 4096) {
      c.kind = 2 * card > run_size ? kRun : kArray;
    } else {
      c.kind = 8192 > run_size ? kRun : kBitset;
    }
    containers.push_back(std::move(c));
  }

  const auto size = static_cast<uint32_t>(containers.size());
  const bool has_run = std::any_of(containers.begin(), containers.end(),
                                   [](const Container& c) { return c.kind == kRun; });
  std::string out;
  if (has_run) {
    PutFixed32LE(&out, 12347u | ((size - 1) << 16));
    std::string flags((size + 7) / 8, '\0');
    for (uint32_t i = 0; i < size; ++i) {
      if (containers[i].kind == kRun)
        flags[i / 8] = static_cast<char>(flags[i / 8] | (1 << (i % 8)));
    }
    out += flags;
  } else {
    PutFixed32LE(&out, 12346u);
    PutFixed32LE(&out, size);
  }
  auto put16 = [&out](uint16_t v) {
    out.push_back(static_cast<char>(v & 0xFF));
    out.push_back(static_cast<char>(v >> 8));
  };
  for (const Container& c : containers) {
    put16(c.key);
    put16(static_cast<uint16_t>(c.end - c.begin - 1));
  }
  auto data_size = [](const Container& c) -> size_t {
    switch (c.kind) {
      case kArray:
        return 2 * (c.end - c.begin);
      case kBitset:
        return 8192;
      case kRun:
        return 2 + 4 * c.runs.size();
    }
    return 0;
  };
  // Offsets: always without run containers, else from 4 containers on (NO_OFFSET_THRESHOLD).
  if (!has_run || size >= 4) {
    size_t offset = out.size() + 4 * size;
    for (const Container& c : containers) {
      PutFixed32LE(&out, static_cast<uint32_t>(offset));
      offset += data_size(c);
    }
  }
  for (const Container& c : containers) {
    if (c.kind == kArray) {
      for (size_t v = c.begin; v < c.end; ++v) put16(static_cast<uint16_t>(values[v]));
    } else if (c.kind == kRun) {
      put16(static_cast<uint16_t>(c.runs.size()));
      for (const auto& [start, length] : c.runs) {
        put16(start);
        put16(length);
      }
    } else {
      std::string words(8192, '\0');
      for (size_t v = c.begin; v < c.end; ++v) {
        const auto low = static_cast<uint16_t>(values[v]);
        words[low / 8] = static_cast<char>(words[low / 8] | (1 << (low % 8)));
      }
      out += words;
    }
  }
  return out;
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
  std::string body;
  if (kind_ == Kind::kBitmap32) {
    PutFixed32BE(&body, kBitmap32Magic);
    Bitmap& bitmap = bitmaps_[0].second;
    body += JavaRunOptimizedBytes(bitmap.get());
    // Keep the container kinds Java would now hold, so later additions and serializations
    // follow it.
    bitmap.reset(roaring_bitmap_portable_deserialize_safe(body.data() + 4, body.size() - 4));
  } else {
    PutFixed32LE(&body, kBitmap64Magic);
    // Java writes the 64-bit variant densely: every key from 0 to the largest.
    const int64_t dense_count = bitmaps_.empty() ? 0 : int64_t{bitmaps_.back().first} + 1;
    PutFixed64LE(&body, static_cast<uint64_t>(dense_count));
    Bitmap empty(roaring_bitmap_create());
    auto stored = bitmaps_.begin();
    for (int64_t key = 0; key < dense_count; ++key) {
      PutFixed32LE(&body, static_cast<uint32_t>(key));
      if (stored->first != key) {
        body += JavaRunOptimizedBytes(empty.get());
        continue;
      }
      const size_t start = body.size();
      body += JavaRunOptimizedBytes(stored->second.get());
      stored->second.reset(
          roaring_bitmap_portable_deserialize_safe(body.data() + start, body.size() - start));
      ++stored;
    }
  }
  std::string out;
  out.reserve(body.size() + 8);
  PutFixed32BE(&out, static_cast<uint32_t>(body.size()));
  out += body;
  PutFixed32BE(&out, Crc32(reinterpret_cast<const uint8_t*>(body.data()), body.size()));
  return out;
}

bool DeletionVector::operator==(const DeletionVector& other) const {
  return kind_ == other.kind_ && ToSortedPositions() == other.ToSortedPositions();
}

}  // namespace sluice
