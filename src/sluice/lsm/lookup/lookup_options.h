// LookupOptions: the lookup engine's settings of a table, parsed once from its options (Java
// CoreOptions `lookup.*` and `cache-page-size`, with Java's defaults):
//
//   lookup.cache-file-retention     1 h     a lookup file unused this long is dropped
//   lookup.cache-max-disk-size      no cap  bytes of lookup files kept on local disk
//   lookup.cache-max-memory-size    256 mb  bytes of decompressed blocks kept in memory
//   lookup.cache-spill-compression  zstd    block compression of lookup files
//   cache-page-size                 64 kb   block size of lookup files
//   lookup.cache.bloom.filter.enabled / .fpp   true / 0.05
//   lookup.local-file-type          sort    the store kind; `hash` (older Java) is refused
//   lookup.remote-file.enabled      false   remote lookup files are refused (see Make)
//
// Thread safety: a value type.
#pragma once

#include <cstdint>
#include <limits>

#include "sluice/format/compression/codec.h"
#include "sluice/meta/core_options.h"
#include "sluice/result.h"

namespace sluice {

struct LookupOptions {
  int64_t cache_file_retention_millis = 60 * 60 * 1000;
  int64_t cache_max_disk_size = std::numeric_limits<int64_t>::max();
  int64_t cache_max_memory_size = int64_t{256} << 20;
  CompressionKind compression = CompressionKind::kZstd;
  int32_t block_size = 64 << 10;
  bool bloom_filter_enabled = true;
  double bloom_filter_fpp = 0.05;

  // InvalidArgument naming the key and value for a malformed value; NotSupported for
  // `lookup.local-file-type = hash` and `lookup.remote-file.enabled = true` (Java uploads lookup
  // files beside data files as `.lookup` extra files; Sluice builds them locally only).
  static Result<LookupOptions> Make(const CoreOptions& options);
};

}  // namespace sluice
