#include "sluice/lsm/lookup/sort_lookup_store_block.h"

#include <bit>

#include "sluice/base/coding.h"
#include "sluice/base/murmur_hash.h"

namespace sluice {
namespace {

// Offsets below 2^24 leave the top byte of a slot for the hash tag.
constexpr uint32_t kTagMask = 0xFF000000u;

// Decodes the entry at `p`; false when it does not fit before `end`.
bool DecodeEntry(const uint8_t* p, const uint8_t* end, std::string_view* key,
                 std::string_view* value) {
  uint64_t key_len = 0;
  uint64_t value_len = 0;
  if (!GetVarint64(&p, end, &key_len) || !GetVarint64(&p, end, &value_len) ||
      key_len > static_cast<uint64_t>(end - p) ||
      value_len > static_cast<uint64_t>(end - p) - key_len) {
    return false;
  }
  *key = std::string_view(reinterpret_cast<const char*>(p), key_len);
  *value = std::string_view(reinterpret_cast<const char*>(p + key_len), value_len);
  return true;
}

}  // namespace

uint32_t SortLookupStoreBlock::HashOf(std::string_view key) {
  return static_cast<uint32_t>(
      MurmurHashBytes(reinterpret_cast<const uint8_t*>(key.data()), key.size()));
}

Result<SortLookupStoreBlock> SortLookupStoreBlock::Make(std::string bytes) {
  const size_t size = bytes.size();
  // The writer's offsets are 32-bit; the reader refuses larger blocks before they get here.
  if (size > (size_t{1} << 31)) return Status::Corruption("block over 2 gb");
  const auto* base = reinterpret_cast<const uint8_t*>(bytes.data());
  const uint32_t count = size < 4 ? 0 : DecodeFixed32LE(base + size - 4);
  if (count == 0 || (static_cast<uint64_t>(count) + 1) * 4 > size) {
    return Status::Corruption("bad entry count");
  }
  const uint8_t* offsets = base + size - 4 - static_cast<size_t>(count) * 4;
  const size_t entries_end = static_cast<size_t>(offsets - base);
  SortLookupStoreBlock block;
  block.entry_count_ = count;
  block.tag_mask_ = entries_end <= (~kTagMask) ? kTagMask : 0;
  // count <= size / 4 < 2^30 (blocks are at most 2^31 bytes): the table fits in 32 bits.
  const auto slots = static_cast<uint32_t>(std::bit_ceil(uint64_t{count} * 2));
  block.slots_.assign(slots, 0);
  block.slot_mask_ = slots - 1;
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t off = DecodeFixed32LE(offsets + static_cast<size_t>(i) * 4);
    std::string_view key;
    std::string_view value;
    if (off >= entries_end || !DecodeEntry(base + off, offsets, &key, &value)) {
      return Status::Corruption("entry " + std::to_string(i) + " lies outside the block");
    }
    const uint32_t hash = HashOf(key);
    uint32_t at = hash & block.slot_mask_;
    while (block.slots_[at] != 0) at = (at + 1) & block.slot_mask_;
    block.slots_[at] = (hash & block.tag_mask_) | (off + 1);
  }
  block.bytes_ = std::move(bytes);
  return block;
}

bool SortLookupStoreBlock::Find(std::string_view key, uint32_t hash,
                                std::string_view* value) const {
  const auto* base = reinterpret_cast<const uint8_t*>(bytes_.data());
  const uint8_t* end = base + bytes_.size() - 4 - static_cast<size_t>(entry_count_) * 4;
  const uint32_t tag = hash & tag_mask_;
  for (uint32_t at = hash & slot_mask_;; at = (at + 1) & slot_mask_) {
    const uint32_t slot = slots_[at];
    if (slot == 0) return false;
    if ((slot & tag_mask_) != tag) continue;
    std::string_view k;
    // Every entry was checked in Make.
    DecodeEntry(base + (slot & ~tag_mask_) - 1, end, &k, value);
    if (k == key) return true;
  }
}

int64_t SortLookupStoreBlock::memory_size() const {
  return static_cast<int64_t>(bytes_.size() + slots_.size() * sizeof(uint32_t));
}

}  // namespace sluice
