#include "sluice/format/compression/codec.h"

#include <lz4.h>
#include <lz4frame.h>
#include <snappy.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cctype>
#include <cstring>

#include "sluice/base/coding.h"
#include "sluice/base/string_util.h"
#include "sluice/format/compression/snappy_decoder.h"

namespace sluice {

std::string_view CompressionKindName(CompressionKind kind) {
  switch (kind) {
    case CompressionKind::kNone:
      return "none";
    case CompressionKind::kSnappy:
      return "snappy";
    case CompressionKind::kGzip:
      return "gzip";
    case CompressionKind::kDeflate:
      return "deflate";
    case CompressionKind::kZlib:
      return "zlib";
    case CompressionKind::kLz4Raw:
      return "lz4_raw";
    case CompressionKind::kLz4Hadoop:
      return "lz4_hadoop";
    case CompressionKind::kLz4Frame:
      return "lz4_frame";
    case CompressionKind::kZstd:
      return "zstd";
  }
  return "unknown";
}

Result<CompressionKind> ParseCompressionKind(std::string_view name) {
  const std::string n = AsciiToLower(name);
  if (n == "none" || n == "uncompressed" || n == "null") return CompressionKind::kNone;
  if (n == "snappy") return CompressionKind::kSnappy;
  if (n == "gzip") return CompressionKind::kGzip;
  if (n == "deflate") return CompressionKind::kDeflate;
  if (n == "zlib") return CompressionKind::kZlib;
  if (n == "lz4" || n == "lz4_raw") return CompressionKind::kLz4Raw;
  if (n == "lz4_hadoop") return CompressionKind::kLz4Hadoop;
  if (n == "lz4_frame") return CompressionKind::kLz4Frame;
  if (n == "zstd" || n == "zstandard") return CompressionKind::kZstd;
  return Status::InvalidArgument("unknown compression codec '" + std::string(name) + "'");
}

namespace {

Status SizeMismatch(CompressionKind kind, size_t got, size_t want) {
  return Status::Corruption(std::string(CompressionKindName(kind)) + " block decompressed to " +
                            std::to_string(got) + " bytes, expected " + std::to_string(want));
}

Status TooLarge(CompressionKind kind, size_t max_output) {
  return Status::Corruption(std::string(CompressionKindName(kind)) +
                            " block decompresses to more than " + std::to_string(max_output) +
                            " bytes");
}

class NoneCodec final : public Codec {
 public:
  CompressionKind kind() const override { return CompressionKind::kNone; }
  Status Compress(std::string_view input, int, Buffer* out) const override {
    out->Append(input);
    return Status::OK();
  }
  Status DecompressExact(std::string_view input, uint8_t* output,
                         size_t output_len) const override {
    if (input.size() != output_len) return SizeMismatch(kind(), input.size(), output_len);
    if (output_len > 0) std::memcpy(output, input.data(), output_len);
    return Status::OK();
  }
  Status Decompress(std::string_view input, Buffer* out, size_t max_output) const override {
    if (input.size() > max_output) return TooLarge(kind(), max_output);
    out->Clear();
    out->Append(input);
    return Status::OK();
  }
};

class SnappyCodec final : public Codec {
 public:
  CompressionKind kind() const override { return CompressionKind::kSnappy; }
  Status Compress(std::string_view input, int, Buffer* out) const override {
    size_t start = out->size();
    out->Resize(start + snappy::MaxCompressedLength(input.size()));
    size_t n = 0;
    snappy::RawCompress(input.data(), input.size(), reinterpret_cast<char*>(out->data() + start),
                        &n);
    out->Resize(start + n);
    return Status::OK();
  }
  Status DecompressExact(std::string_view input, uint8_t* output,
                         size_t output_len) const override {
    return SnappyDecompress(input, output, output_len);
  }
  Status Decompress(std::string_view input, Buffer* out, size_t max_output) const override {
    SLUICE_ASSIGN_OR_RETURN(size_t n, SnappyUncompressedLength(input));
    if (n > max_output) return TooLarge(kind(), max_output);
    out->Resize(n);
    return SnappyDecompress(input, out->data(), n);
  }
};

// zlib-family codecs differ only in the window-bits argument.
class ZlibFamilyCodec final : public Codec {
 public:
  explicit ZlibFamilyCodec(CompressionKind kind) : kind_(kind) {}
  CompressionKind kind() const override { return kind_; }

  int WindowBits() const {
    switch (kind_) {
      case CompressionKind::kGzip:
        return 15 + 16;
      case CompressionKind::kDeflate:
        return -15;
      default:
        return 15;
    }
  }

  Status Compress(std::string_view input, int level, Buffer* out) const override {
    z_stream zs{};
    if (level <= 0 || level > 9) level = Z_DEFAULT_COMPRESSION;
    if (deflateInit2(&zs, level, Z_DEFLATED, WindowBits(), 8, Z_DEFAULT_STRATEGY) != Z_OK) {
      return Status::Internal("deflateInit2 failed");
    }
    size_t start = out->size();
    out->Resize(start + deflateBound(&zs, input.size()));
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
    zs.avail_in = static_cast<uInt>(input.size());
    zs.next_out = out->data() + start;
    zs.avail_out = static_cast<uInt>(out->size() - start);
    int rc = deflate(&zs, Z_FINISH);
    size_t produced = zs.total_out;
    deflateEnd(&zs);
    if (rc != Z_STREAM_END) return Status::Internal("deflate did not finish");
    out->Resize(start + produced);
    return Status::OK();
  }

  Status DecompressExact(std::string_view input, uint8_t* output,
                         size_t output_len) const override {
    Buffer tmp;
    SLUICE_RETURN_NOT_OK(Decompress(input, &tmp, output_len));
    if (tmp.size() != output_len) return SizeMismatch(kind_, tmp.size(), output_len);
    if (output_len > 0) std::memcpy(output, tmp.data(), output_len);
    return Status::OK();
  }

  Status Decompress(std::string_view input, Buffer* out, size_t max_output) const override {
    out->Clear();
    const uint8_t* in = reinterpret_cast<const uint8_t*>(input.data());
    size_t remaining = input.size();
    // Gzip data may hold several concatenated members; each is inflated in turn.
    do {
      z_stream zs{};
      if (inflateInit2(&zs, WindowBits()) != Z_OK) return Status::Internal("inflateInit2 failed");
      zs.next_in = const_cast<Bytef*>(in);
      zs.avail_in = static_cast<uInt>(remaining);
      int rc = Z_OK;
      while (rc != Z_STREAM_END) {
        if (out->size() >= max_output + 1) {
          inflateEnd(&zs);
          return TooLarge(kind_, max_output);
        }
        size_t have = out->size();
        size_t grow = std::max<size_t>(remaining * 3, 4096);
        grow = std::min(grow, max_output + 1 - have);
        out->Resize(have + grow);
        zs.next_out = out->data() + have;
        zs.avail_out = static_cast<uInt>(grow);
        rc = inflate(&zs, Z_NO_FLUSH);
        out->Resize(have + (grow - zs.avail_out));
        if (rc == Z_BUF_ERROR && zs.avail_in == 0) rc = Z_DATA_ERROR;  // truncated input
        if (rc != Z_OK && rc != Z_STREAM_END) {
          inflateEnd(&zs);
          return Status::Corruption(std::string("malformed ") +
                                    std::string(CompressionKindName(kind_)) + " data" +
                                    (zs.msg ? std::string(": ") + zs.msg : std::string()));
        }
      }
      size_t consumed = remaining - zs.avail_in;
      inflateEnd(&zs);
      in += consumed;
      remaining -= consumed;
      if (out->size() > max_output) return TooLarge(kind_, max_output);
    } while (kind_ == CompressionKind::kGzip && remaining > 0);
    return Status::OK();
  }

 private:
  CompressionKind kind_;
};

class Lz4RawCodec final : public Codec {
 public:
  CompressionKind kind() const override { return CompressionKind::kLz4Raw; }
  Status Compress(std::string_view input, int, Buffer* out) const override {
    size_t start = out->size();
    int bound = LZ4_compressBound(static_cast<int>(input.size()));
    out->Resize(start + static_cast<size_t>(bound));
    int n = LZ4_compress_default(input.data(), reinterpret_cast<char*>(out->data() + start),
                                 static_cast<int>(input.size()), bound);
    if (n <= 0 && !input.empty()) return Status::Internal("LZ4 compression failed");
    out->Resize(start + static_cast<size_t>(n));
    return Status::OK();
  }
  Status DecompressExact(std::string_view input, uint8_t* output,
                         size_t output_len) const override {
    int n = LZ4_decompress_safe(input.data(), reinterpret_cast<char*>(output),
                                static_cast<int>(input.size()), static_cast<int>(output_len));
    if (n < 0) return Status::Corruption("malformed LZ4 block");
    if (static_cast<size_t>(n) != output_len) {
      return SizeMismatch(kind(), static_cast<size_t>(n), output_len);
    }
    return Status::OK();
  }
  Status Decompress(std::string_view input, Buffer* out, size_t max_output) const override {
    // LZ4 blocks do not record their size; grow until the block fits.
    size_t cap = std::max<size_t>(input.size() * 4, 1024);
    for (;;) {
      cap = std::min(cap, max_output);
      out->Resize(cap);
      int n = LZ4_decompress_safe(input.data(), reinterpret_cast<char*>(out->data()),
                                  static_cast<int>(input.size()), static_cast<int>(cap));
      if (n >= 0) {
        out->Resize(static_cast<size_t>(n));
        return Status::OK();
      }
      // At the limit the two causes look alike: a block that is damaged, or one that is larger.
      if (cap >= max_output) {
        return Status::Corruption("malformed LZ4 block, or one that decompresses to more than " +
                                  std::to_string(max_output) + " bytes");
      }
      cap *= 2;
    }
  }
};

// Hadoop's Lz4Codec framing: repeated [4-byte BE decompressed size][4-byte BE compressed size]
// [LZ4 block]. Some writers emit plain LZ4 blocks under the same codec id; those are accepted
// when the framing does not parse. Writing cuts the input into blocks of at most Hadoop's
// BlockCompressorStream input limit (its 256 KiB buffer less the LZ4 overhead it reserves,
// 256 KiB / 255 + 16), as Java's Parquet writer does: Hadoop's decompressor holds one block's
// compressed bytes in a buffer of that size.
class Lz4HadoopCodec final : public Codec {
 public:
  static constexpr size_t kBufferSize = 256 * 1024;
  static constexpr size_t kMaxBlockInput = kBufferSize - (kBufferSize / 255 + 16);

  CompressionKind kind() const override { return CompressionKind::kLz4Hadoop; }
  Status Compress(std::string_view input, int level, Buffer* out) const override {
    do {
      const std::string_view block = input.substr(0, kMaxBlockInput);
      input.remove_prefix(block.size());
      const size_t header = out->size();
      out->Resize(header + 8);
      SLUICE_RETURN_NOT_OK(GetCodec(CompressionKind::kLz4Raw).Compress(block, level, out));
      EncodeFixed32BE(out->data() + header, static_cast<uint32_t>(block.size()));
      EncodeFixed32BE(out->data() + header + 4, static_cast<uint32_t>(out->size() - header - 8));
    } while (!input.empty());
    return Status::OK();
  }
  Status DecompressExact(std::string_view input, uint8_t* output,
                         size_t output_len) const override {
    if (TryHadoop(input, output, output_len)) return Status::OK();
    return GetCodec(CompressionKind::kLz4Raw).DecompressExact(input, output, output_len);
  }
  Status Decompress(std::string_view input, Buffer* out, size_t max_output) const override {
    // The first frame header gives a lower bound; sum all frames for the total.
    size_t total = 0;
    const uint8_t* p = reinterpret_cast<const uint8_t*>(input.data());
    size_t left = input.size();
    bool framed = left >= 8;
    while (framed && left > 0) {
      if (left < 8) {
        framed = false;
        break;
      }
      uint32_t raw = DecodeFixed32BE(p);
      uint32_t comp = DecodeFixed32BE(p + 4);
      if (comp > left - 8) {
        framed = false;
        break;
      }
      total += raw;
      p += 8 + comp;
      left -= 8 + comp;
    }
    if (framed && total <= max_output) {
      out->Resize(total);
      if (TryHadoop(input, out->data(), total)) return Status::OK();
    }
    return GetCodec(CompressionKind::kLz4Raw).Decompress(input, out, max_output);
  }

 private:
  static bool TryHadoop(std::string_view input, uint8_t* output, size_t output_len) {
    const uint8_t* p = reinterpret_cast<const uint8_t*>(input.data());
    size_t left = input.size();
    size_t produced = 0;
    while (left > 0) {
      if (left < 8) return false;
      uint32_t raw = DecodeFixed32BE(p);
      uint32_t comp = DecodeFixed32BE(p + 4);
      p += 8;
      left -= 8;
      if (comp > left || raw > output_len - produced) return false;
      int n = LZ4_decompress_safe(reinterpret_cast<const char*>(p),
                                  reinterpret_cast<char*>(output + produced),
                                  static_cast<int>(comp), static_cast<int>(raw));
      if (n < 0 || static_cast<uint32_t>(n) != raw) return false;
      produced += raw;
      p += comp;
      left -= comp;
    }
    return produced == output_len;
  }
};

class Lz4FrameCodec final : public Codec {
 public:
  CompressionKind kind() const override { return CompressionKind::kLz4Frame; }
  Status Compress(std::string_view input, int level, Buffer* out) const override {
    LZ4F_preferences_t prefs{};
    prefs.compressionLevel = level;
    size_t start = out->size();
    size_t bound = LZ4F_compressFrameBound(input.size(), &prefs);
    out->Resize(start + bound);
    size_t n = LZ4F_compressFrame(out->data() + start, bound, input.data(), input.size(), &prefs);
    if (LZ4F_isError(n)) return Status::Internal(LZ4F_getErrorName(n));
    out->Resize(start + n);
    return Status::OK();
  }
  Status DecompressExact(std::string_view input, uint8_t* output,
                         size_t output_len) const override {
    Buffer tmp;
    SLUICE_RETURN_NOT_OK(Decompress(input, &tmp, output_len));
    if (tmp.size() != output_len) return SizeMismatch(kind(), tmp.size(), output_len);
    if (output_len > 0) std::memcpy(output, tmp.data(), output_len);
    return Status::OK();
  }
  Status Decompress(std::string_view input, Buffer* out, size_t max_output) const override {
    LZ4F_dctx* ctx = nullptr;
    if (LZ4F_isError(LZ4F_createDecompressionContext(&ctx, LZ4F_VERSION))) {
      return Status::Internal("LZ4F context");
    }
    out->Clear();
    const char* src = input.data();
    size_t left = input.size();
    Status st;
    size_t rc = 1;
    while (left > 0 && rc != 0) {
      size_t have = out->size();
      if (have > max_output) {
        st = TooLarge(kind(), max_output);
        break;
      }
      out->Resize(have + 65536);
      size_t dst_size = 65536;
      size_t src_size = left;
      rc = LZ4F_decompress(ctx, out->data() + have, &dst_size, src, &src_size, nullptr);
      out->Resize(have + dst_size);
      if (LZ4F_isError(rc)) {
        st = Status::Corruption(std::string("malformed LZ4 frame: ") + LZ4F_getErrorName(rc));
        break;
      }
      if (src_size == 0 && dst_size == 0) {
        st = Status::Corruption("truncated LZ4 frame");
        break;
      }
      src += src_size;
      left -= src_size;
    }
    if (st.ok() && rc != 0) st = Status::Corruption("truncated LZ4 frame");
    if (st.ok() && out->size() > max_output) st = TooLarge(kind(), max_output);
    LZ4F_freeDecompressionContext(ctx);
    return st;
  }
};

// zstd's one-shot ZSTD_compress / ZSTD_decompress set up and tear down a context (hundreds of
// KB of tables) per call: one page of a column chunk or one block. Each thread keeps one context
// of each kind instead, reused by every call on it (the codec itself is shared and stateless).
struct ZstdContexts {
  ~ZstdContexts() {
    ZSTD_freeCCtx(compress);
    ZSTD_freeDCtx(decompress);
  }
  ZSTD_CCtx* compress = nullptr;
  ZSTD_DCtx* decompress = nullptr;
};

ZstdContexts& ThreadZstdContexts() {
  thread_local ZstdContexts contexts;
  return contexts;
}

class ZstdCodec final : public Codec {
 public:
  CompressionKind kind() const override { return CompressionKind::kZstd; }
  Status Compress(std::string_view input, int level, Buffer* out) const override {
    ZstdContexts& contexts = ThreadZstdContexts();
    if (contexts.compress == nullptr) contexts.compress = ZSTD_createCCtx();
    if (contexts.compress == nullptr) {
      return Status::Internal("cannot create a zstd compression context");
    }
    size_t start = out->size();
    size_t bound = ZSTD_compressBound(input.size());
    out->Resize(start + bound);
    size_t n = ZSTD_compressCCtx(contexts.compress, out->data() + start, bound, input.data(),
                                 input.size(), level);
    if (ZSTD_isError(n)) return Status::Internal(ZSTD_getErrorName(n));
    out->Resize(start + n);
    return Status::OK();
  }
  Status DecompressExact(std::string_view input, uint8_t* output,
                         size_t output_len) const override {
    ZstdContexts& contexts = ThreadZstdContexts();
    if (contexts.decompress == nullptr) contexts.decompress = ZSTD_createDCtx();
    if (contexts.decompress == nullptr) {
      return Status::Internal("cannot create a zstd decompression context");
    }
    size_t n =
        ZSTD_decompressDCtx(contexts.decompress, output, output_len, input.data(), input.size());
    if (ZSTD_isError(n)) {
      return Status::Corruption(std::string("malformed zstd data: ") + ZSTD_getErrorName(n));
    }
    if (n != output_len) return SizeMismatch(kind(), n, output_len);
    return Status::OK();
  }
  Status Decompress(std::string_view input, Buffer* out, size_t max_output) const override {
    unsigned long long size = ZSTD_getFrameContentSize(input.data(), input.size());
    if (size != ZSTD_CONTENTSIZE_ERROR && size != ZSTD_CONTENTSIZE_UNKNOWN &&
        ZSTD_findFrameCompressedSize(input.data(), input.size()) == input.size()) {
      if (size > max_output) return TooLarge(kind(), max_output);
      out->Resize(static_cast<size_t>(size));
      return DecompressExact(input, out->data(), static_cast<size_t>(size));
    }
    // Unknown size or several frames: stream.
    ZSTD_DCtx* ctx = ZSTD_createDCtx();
    out->Clear();
    ZSTD_inBuffer in{input.data(), input.size(), 0};
    Status st;
    size_t rc = 1;
    while (in.pos < in.size || rc != 0) {
      size_t have = out->size();
      if (have > max_output) {
        st = TooLarge(kind(), max_output);
        break;
      }
      size_t grow = std::max<size_t>(ZSTD_DStreamOutSize(), input.size() * 2);
      out->Resize(have + grow);
      ZSTD_outBuffer ob{out->data() + have, grow, 0};
      size_t before = in.pos;
      rc = ZSTD_decompressStream(ctx, &ob, &in);
      out->Resize(have + ob.pos);
      if (ZSTD_isError(rc)) {
        st = Status::Corruption(std::string("malformed zstd data: ") + ZSTD_getErrorName(rc));
        break;
      }
      if (in.pos == before && ob.pos == 0) {
        st = Status::Corruption("truncated zstd data");
        break;
      }
    }
    ZSTD_freeDCtx(ctx);
    if (st.ok() && out->size() > max_output) st = TooLarge(kind(), max_output);
    return st;
  }
};

}  // namespace

const Codec& GetCodec(CompressionKind kind) {
  static const NoneCodec none;
  static const SnappyCodec snappy;
  static const ZlibFamilyCodec gzip(CompressionKind::kGzip);
  static const ZlibFamilyCodec deflate(CompressionKind::kDeflate);
  static const ZlibFamilyCodec zlib(CompressionKind::kZlib);
  static const Lz4RawCodec lz4raw;
  static const Lz4HadoopCodec lz4hadoop;
  static const Lz4FrameCodec lz4frame;
  static const ZstdCodec zstd;
  switch (kind) {
    case CompressionKind::kNone:
      return none;
    case CompressionKind::kSnappy:
      return snappy;
    case CompressionKind::kGzip:
      return gzip;
    case CompressionKind::kDeflate:
      return deflate;
    case CompressionKind::kZlib:
      return zlib;
    case CompressionKind::kLz4Raw:
      return lz4raw;
    case CompressionKind::kLz4Hadoop:
      return lz4hadoop;
    case CompressionKind::kLz4Frame:
      return lz4frame;
    case CompressionKind::kZstd:
      return zstd;
  }
  return none;
}

}  // namespace sluice
