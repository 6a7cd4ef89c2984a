// ORC stream buffers: a stream's bytes after undoing ORC's chunked compression, with the map
// from compressed chunk offsets to decompressed offsets that row-index positions refer to.
//
// Thread safety: value types; not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/buffer.h"
#include "sluice/format/orc/orc_metadata.h"
#include "sluice/result.h"

namespace sluice::orc {

// The 3-byte chunk header: (length << 1) | is_original, little endian.
inline constexpr size_t kChunkHeaderSize = 3;

struct DecodedStream {
  Buffer data;
  // For compressed streams: (compressed offset of a chunk header, decompressed offset of the
  // chunk's first byte), ascending. Empty for uncompressed streams.
  std::vector<std::pair<uint64_t, uint64_t>> chunks;
  bool compressed = false;
  uint64_t raw_size = 0;

  // Resolves a row-index position (one value uncompressed, two compressed: chunk offset and
  // bytes into the chunk) to an offset into `data`, advancing *index past the values used.
  Result<uint64_t> ResolvePosition(const std::vector<uint64_t>& positions, size_t* index) const;
};

// Undoes ORC's chunked framing of `raw` (a whole stream) with `compression`, each chunk
// decompressing to at most `block_size` bytes.
Status DecodeStream(std::string_view raw, OrcCompression compression, uint64_t block_size,
                    DecodedStream* out);

// Appends `input` to `out` in ORC's chunked framing with `compression` and chunks of at most
// `block_size` input bytes (chunks that do not shrink are stored as originals). When
// `chunk_starts` is set it receives each chunk header's offset relative to the stream's start.
Status EncodeStream(std::string_view input, OrcCompression compression, uint64_t block_size,
                    int level, std::string* out, std::vector<uint64_t>* chunk_starts = nullptr);

}  // namespace sluice::orc
