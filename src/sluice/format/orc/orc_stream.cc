#include "sluice/format/orc/orc_stream.h"

#include <algorithm>

#include "sluice/format/compression/codec.h"

namespace sluice::orc {

namespace {

Result<const Codec*> CodecFor(OrcCompression compression) {
  switch (compression) {
    case OrcCompression::kNone:
      return &GetCodec(CompressionKind::kNone);
    case OrcCompression::kZlib:
      return &GetCodec(CompressionKind::kDeflate);
    case OrcCompression::kSnappy:
      return &GetCodec(CompressionKind::kSnappy);
    case OrcCompression::kLz4:
      return &GetCodec(CompressionKind::kLz4Raw);
    case OrcCompression::kZstd:
      return &GetCodec(CompressionKind::kZstd);
    case OrcCompression::kLzo:
      break;
  }
  return Status::NotSupported("ORC compression LZO is not supported");
}

}  // namespace

Result<uint64_t> DecodedStream::ResolvePosition(const std::vector<uint64_t>& positions,
                                                size_t* index) const {
  if (!compressed) {
    if (*index >= positions.size()) return Status::Corruption("row index: too few positions");
    uint64_t pos = positions[(*index)++];
    if (pos > data.size()) return Status::Corruption("row index: position past the stream");
    return pos;
  }
  if (*index + 2 > positions.size()) return Status::Corruption("row index: too few positions");
  uint64_t chunk = positions[(*index)++];
  uint64_t within = positions[(*index)++];
  uint64_t base;
  auto it = std::lower_bound(chunks.begin(), chunks.end(), std::make_pair(chunk, uint64_t{0}));
  if (it != chunks.end() && it->first == chunk) {
    base = it->second;
  } else if (chunk == raw_size) {
    // The end of the stream: a row group that starts after the last value.
    base = data.size();
  } else {
    return Status::Corruption("row index: position " + std::to_string(chunk) +
                              " is not a compression chunk start");
  }
  if (within > data.size() - std::min<uint64_t>(base, data.size())) {
    return Status::Corruption("row index: position past the stream");
  }
  return base + within;
}

Status DecodeStream(std::string_view raw, OrcCompression compression, uint64_t block_size,
                    DecodedStream* out) {
  out->data.Clear();
  out->data.Reserve(1);  // data() is never null, even for an empty stream
  out->chunks.clear();
  out->compressed = compression != OrcCompression::kNone;
  out->raw_size = raw.size();
  if (!out->compressed) {
    out->data.Append(raw);
    return Status::OK();
  }
  SLUICE_ASSIGN_OR_RETURN(const Codec* codec, CodecFor(compression));
  Buffer scratch;
  size_t pos = 0;
  while (pos < raw.size()) {
    if (raw.size() - pos < kChunkHeaderSize) {
      return Status::Corruption("compression chunk header truncated at offset " +
                                std::to_string(pos));
    }
    const auto* h = reinterpret_cast<const uint8_t*>(raw.data() + pos);
    uint32_t header = h[0] | (uint32_t{h[1]} << 8) | (uint32_t{h[2]} << 16);
    bool original = header & 1;
    size_t length = header >> 1;
    if (length > raw.size() - pos - kChunkHeaderSize) {
      return Status::Corruption("compression chunk at offset " + std::to_string(pos) + " claims " +
                                std::to_string(length) + " bytes, only " +
                                std::to_string(raw.size() - pos - kChunkHeaderSize) + " left");
    }
    out->chunks.emplace_back(pos, out->data.size());
    std::string_view body = raw.substr(pos + kChunkHeaderSize, length);
    if (original) {
      out->data.Append(body);
    } else {
      Status st = codec->Decompress(body, &scratch, std::max<uint64_t>(block_size, 1));
      if (!st.ok()) {
        return st.WithContext("compression chunk at offset " + std::to_string(pos));
      }
      out->data.Append(scratch.data(), scratch.size());
    }
    pos += kChunkHeaderSize + length;
  }
  return Status::OK();
}

Status EncodeStream(std::string_view input, OrcCompression compression, uint64_t block_size,
                    int level, std::string* out, std::vector<uint64_t>* chunk_starts) {
  if (compression == OrcCompression::kNone) {
    out->append(input);
    return Status::OK();
  }
  SLUICE_ASSIGN_OR_RETURN(const Codec* codec, CodecFor(compression));
  Buffer compressed;
  size_t stream_start = out->size();
  for (size_t pos = 0; pos < input.size(); pos += block_size) {
    if (chunk_starts != nullptr) chunk_starts->push_back(out->size() - stream_start);
    std::string_view chunk = input.substr(pos, block_size);
    compressed.Clear();
    SLUICE_RETURN_NOT_OK(codec->Compress(chunk, level, &compressed));
    bool original = compressed.size() >= chunk.size();
    std::string_view body = original ? chunk : compressed.view();
    uint32_t header = (static_cast<uint32_t>(body.size()) << 1) | (original ? 1 : 0);
    char h[3] = {static_cast<char>(header & 0xff), static_cast<char>((header >> 8) & 0xff),
                 static_cast<char>((header >> 16) & 0xff)};
    out->append(h, 3);
    out->append(body);
  }
  return Status::OK();
}

}  // namespace sluice::orc
