// SortLookupStoreBlock: one decompressed data block of a sort lookup store file as the block
// cache holds it (the block bytes of Java lookup.sort's BlockReader), with a hash index over its
// keys built when the block is loaded. A point lookup then reads one or two index slots and the
// entry itself, where a binary search over the entry offsets reads two cache lines per probe
// (about ten probes in a 64 kb block); a block is loaded once and looked up many times.
//
// Block bytes (as SortLookupStoreWriter writes them): entries (varint64 key length, varint64
// value length, key, value), then each entry's offset (fixed32 LE), then the entry count
// (fixed32 LE). The index is local memory only; the file format is unchanged.
//
// Thread safety: immutable after Make; const methods are safe to call concurrently.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/result.h"

namespace sluice {

class SortLookupStoreBlock {
 public:
  // Checks every entry of `bytes` (count, offsets, lengths within the block) and indexes it.
  // Corruption saying what does not fit (the caller names the file and block).
  static Result<SortLookupStoreBlock> Make(std::string bytes);

  // The hash Find takes: the key's MurmurHash.
  static uint32_t HashOf(std::string_view key);

  // True and `*value` (valid while the block lives) when `key`, of hash `hash`, is in the block.
  bool Find(std::string_view key, uint32_t hash, std::string_view* value) const;

  uint32_t entry_count() const { return entry_count_; }
  // Bytes held: the block and its index (what the cache's memory bound counts).
  int64_t memory_size() const;

 private:
  SortLookupStoreBlock() = default;

  std::string bytes_;
  uint32_t entry_count_ = 0;
  // Open addressing with linear probing over a power-of-two table, at most half full. A slot
  // holds 0 (empty) or the entry's offset + 1 in the bits below tag_mask_ and, above them, the
  // top bits of the key's hash, which rule out most other keys without reading their entries
  // (tag_mask_ is 0 for blocks too large to leave room for a tag).
  std::vector<uint32_t> slots_;
  uint32_t slot_mask_ = 0;
  uint32_t tag_mask_ = 0;
};

}  // namespace sluice
