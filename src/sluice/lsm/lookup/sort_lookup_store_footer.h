// The layout of a sort lookup store file (Java lookup.sort: SortLookupStoreWriter's SST file and
// SortLookupStoreFooter). Lookup files live on local disk only, so the layout is Sluice's own:
//
//   data block*    entries in ascending bytewise key order, each
//                    varint key_len, varint value_len, key, value
//                  then one fixed32 LE offset per entry, then fixed32 LE entry count,
//                  compressed with the store's codec
//   index block    per data block: varint last_key_len, last_key, varint64 offset,
//                  varint64 stored_size, varint64 raw_size (uncompressed)
//   bloom block    BloomFilter bytes (absent: size 0)
//   footer         48 bytes: fixed64 LE index offset, index size, bloom offset, bloom size,
//                  entry count; fixed32 LE crc32 of those 40 bytes; fixed32 LE magic
//
// Every block (data, index, bloom) is followed by a 5-byte trailer: the CompressionKind byte
// and a fixed32 LE crc32 (zlib) of the stored bytes and that byte. Index and bloom blocks are
// stored uncompressed.
//
// Thread safety: constants and a value type.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sluice/result.h"

namespace sluice {

inline constexpr uint32_t kSortLookupStoreMagic = 0x534C4B31;  // "SLK1"
inline constexpr size_t kSortLookupStoreFooterSize = 48;
inline constexpr size_t kSortLookupStoreBlockTrailerSize = 5;

struct SortLookupStoreFooter {
  uint64_t index_offset = 0;
  uint64_t index_size = 0;  // stored bytes, without the trailer
  uint64_t bloom_offset = 0;
  uint64_t bloom_size = 0;  // 0: no bloom filter
  uint64_t entry_count = 0;

  void AppendTo(std::string* out) const;
  // Corruption naming `path` when the bytes are not a footer of a file of `file_size` bytes.
  static Result<SortLookupStoreFooter> Parse(std::string_view bytes, const std::string& path,
                                             uint64_t file_size);
};

// crc32 (zlib) of `data`, continuing from the crc32 `crc` of the bytes before it.
uint32_t LookupStoreCrc32(std::string_view data, uint32_t crc = 0);

}  // namespace sluice
