// Codec: block compression shared by the Avro, Parquet and ORC codecs.
//
// Thread safety: Codec objects are stateless and thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "sluice/buffer.h"
#include "sluice/result.h"

namespace sluice {

enum class CompressionKind : unsigned char {
  kNone,
  kSnappy,     // raw snappy block
  kGzip,       // gzip member(s) (RFC 1952), Parquet GZIP
  kDeflate,    // raw deflate (RFC 1951), Avro "deflate" and ORC ZLIB
  kZlib,       // zlib stream (RFC 1950)
  kLz4Raw,     // LZ4 block, Parquet LZ4_RAW and ORC LZ4
  kLz4Hadoop,  // Hadoop's framed LZ4 (Parquet's deprecated LZ4), with raw-block fallback
  kLz4Frame,   // LZ4 frame format
  kZstd,       // zstd frame(s)
};

std::string_view CompressionKindName(CompressionKind kind);

// Parses a Paimon / format codec name ("zstd", "zstandard", "snappy", "gzip", "deflate", "zlib",
// "lz4", "lz4_raw", "none", "uncompressed", case-insensitive).
Result<CompressionKind> ParseCompressionKind(std::string_view name);

class Codec {
 public:
  virtual ~Codec() = default;
  virtual CompressionKind kind() const = 0;

  // Appends the compressed form of `input` to `out`.
  virtual Status Compress(std::string_view input, int level, Buffer* out) const = 0;

  // Decompresses `input`, whose decompressed size is known to be exactly `output_len`, into
  // `output`. A mismatch or malformed input is Corruption.
  virtual Status DecompressExact(std::string_view input, uint8_t* output,
                                 size_t output_len) const = 0;

  // Decompresses `input` of unknown decompressed size, replacing the content of `out`. Output
  // larger than `max_output` is Corruption (guards against decompression bombs).
  virtual Status Decompress(std::string_view input, Buffer* out,
                            size_t max_output = size_t{1} << 31) const = 0;
};

// The codec of `kind`; never null.
const Codec& GetCodec(CompressionKind kind);

}  // namespace sluice
