// DeletionVector: the deleted row positions of one data file (Java DeletionVector,
// BitmapDeletionVector, Bitmap64DeletionVector), parsed from and serialized to its entry in a
// deletion-vector index file exactly as Java writes it (format-spec-indexes.md 1.3):
//
//   int32 BE   L = 4 + size of the bitmap
//   magic      32-bit variant: 1581511376 big-endian; 64-bit variant: 1681511377 little-endian
//   bitmap     32-bit: a RoaringBitmap in the portable format.
//              64-bit (Java OptimizedRoaringBitmap64, little-endian): int64 count, then per
//              32-bit bitmap an int32 key (the positions' high 32 bits, strictly ascending) and
//              the portable RoaringBitmap of the low 32 bits. Java writes every key from 0 to
//              the largest (empty bitmaps included); readers also accept missing keys.
//   int32 BE   CRC32 of the L bytes magic + bitmap
//
// The index manifest records the entry's offset (of the length field) and a length that is L
// for the 32-bit variant but L + 8 (the whole entry) for the 64-bit one.
//
// Thread safety: const methods may run concurrently; Delete and Serialize need exclusive access.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sluice/result.h"

struct roaring_bitmap_s;

namespace sluice {

class DeletionVector {
 public:
  enum class Kind : unsigned char { kBitmap32, kBitmap64 };

  static constexpr uint32_t kBitmap32Magic = 1581511376;
  static constexpr uint32_t kBitmap64Magic = 1681511377;
  // Java RoaringBitmap32.MAX_VALUE and OptimizedRoaringBitmap64.MAX_VALUE.
  static constexpr int64_t kMaxBitmap32Position = INT32_MAX;
  static constexpr int64_t kMaxBitmap64Position =
      (static_cast<int64_t>(INT32_MAX - 1) << 32) | 0x80000000LL;
  // Length field, magic and CRC around the bitmap.
  static constexpr int64_t kFramingBytes = 12;

  explicit DeletionVector(Kind kind = Kind::kBitmap32);
  ~DeletionVector();
  DeletionVector(DeletionVector&& other) noexcept;
  DeletionVector& operator=(DeletionVector&& other) noexcept;
  DeletionVector(const DeletionVector&) = delete;
  DeletionVector& operator=(const DeletionVector&) = delete;

  // Parses one whole entry, from its length field through its CRC. Checks that the length field
  // matches the entry's size, the magic, the CRC, and that the bitmap is well formed and fills
  // the entry exactly; anything else is a Corruption saying what is wrong.
  static Result<DeletionVector> Deserialize(std::string_view entry);

  Kind kind() const { return kind_; }

  // Marks a row deleted; InvalidArgument for a position the variant cannot hold.
  Status Delete(int64_t position);
  bool IsDeleted(int64_t position) const;
  int64_t Cardinality() const;
  bool IsEmpty() const { return Cardinality() == 0; }
  // Every deleted position, ascending.
  std::vector<int64_t> ToSortedPositions() const;

  // The whole entry as Java writes it. Picks each container's kind as Java's runOptimize does
  // first (which differs from CRoaring's at the boundaries) and keeps those kinds, as Java's
  // bitmap would; no position changes.
  std::string Serialize();
  // The length an index manifest records for an entry of `entry_size` bytes of this variant.
  int64_t ManifestLength(int64_t entry_size) const {
    return kind_ == Kind::kBitmap32 ? entry_size - 8 : entry_size;
  }

  // Same variant and same positions.
  bool operator==(const DeletionVector& other) const;

 private:
  struct BitmapFree {
    void operator()(roaring_bitmap_s* bitmap) const;
  };
  using Bitmap = std::unique_ptr<roaring_bitmap_s, BitmapFree>;

  // The 32-bit bitmap at `key` (the positions' high 32 bits), created when absent.
  roaring_bitmap_s* BitmapFor(uint32_t key);
  const roaring_bitmap_s* FindBitmap(uint32_t key) const;

  Kind kind_;
  // Ascending by key. The 32-bit variant has exactly one, key 0.
  std::vector<std::pair<uint32_t, Bitmap>> bitmaps_;
};

}  // namespace sluice
