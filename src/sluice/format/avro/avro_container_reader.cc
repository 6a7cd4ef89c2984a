#include "sluice/format/avro/avro_container_reader.h"

#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "sluice/format/avro/avro_binary.h"

namespace sluice {

namespace {

std::string Hex(std::string_view bytes) {
  std::string out;
  char buf[3];
  for (unsigned char c : bytes) {
    std::snprintf(buf, sizeof(buf), "%02x", c);
    out += buf;
  }
  return out;
}

// Longest encoding of a block header: two 10-byte varints.
constexpr int64_t kMaxBlockHeaderSize = 20;

}  // namespace

Result<CompressionKind> AvroCodecKind(std::string_view codec_name) {
  if (codec_name == "null") return CompressionKind::kNone;
  if (codec_name == "deflate") return CompressionKind::kDeflate;
  if (codec_name == "snappy") return CompressionKind::kSnappy;
  if (codec_name == "zstandard") return CompressionKind::kZstd;
  if (codec_name == "bzip2" || codec_name == "xz") {
    return Status::NotSupported("Avro codec '" + std::string(codec_name) + "' is not supported");
  }
  std::string shown(codec_name.substr(0, 64));
  return Status::NotSupported("unknown Avro codec '" + shown + "'");
}

Status AvroContainerReader::Corrupt(const std::string& what) const {
  return Status::Corruption(path() + ": " + what);
}

Result<std::unique_ptr<AvroContainerReader>> AvroContainerReader::Open(
    std::shared_ptr<RandomAccessFile> file, int64_t max_cached_size) {
  std::unique_ptr<AvroContainerReader> reader(new AvroContainerReader(std::move(file)));
  reader->file_size_ = reader->file_->size();
  if (reader->file_size_ <= max_cached_size) {
    reader->cache_.Resize(static_cast<size_t>(reader->file_size_));
    SLUICE_RETURN_NOT_OK(reader->file_->ReadAt(0, reader->file_size_, reader->cache_.data()));
    reader->cached_ = true;
  }
  SLUICE_RETURN_NOT_OK(reader->ReadHeader());
  SLUICE_RETURN_NOT_OK(reader->IndexBlocks());
  return reader;
}

Result<std::string_view> AvroContainerReader::Read(int64_t offset, int64_t n) {
  if (offset < 0 || n < 0 || offset > file_size_ || n > file_size_ - offset) {
    return Corrupt("read of " + std::to_string(n) + " bytes at offset " + std::to_string(offset) +
                   " runs past the end of the file (" + std::to_string(file_size_) + " bytes)");
  }
  if (cached_) {
    return std::string_view(reinterpret_cast<const char*>(cache_.data()) + offset,
                            static_cast<size_t>(n));
  }
  scratch_.Resize(static_cast<size_t>(n));
  SLUICE_RETURN_NOT_OK(file_->ReadAt(offset, n, scratch_.data()));
  return scratch_.view();
}

Status AvroContainerReader::ReadHeader() {
  if (file_size_ < 4) {
    return Corrupt("not an Avro file: " + std::to_string(file_size_) +
                   " bytes, shorter than the magic");
  }
  int64_t prefix = std::min<int64_t>(file_size_, int64_t{1} << 20);
  while (true) {
    SLUICE_ASSIGN_OR_RETURN(std::string_view head, Read(0, prefix));
    if (std::memcmp(head.data(), kAvroMagic, 4) != 0) {
      return Corrupt("not an Avro file: magic is " + Hex(head.substr(0, 4)) +
                     ", expected 4f626a01 (Obj\\x01)");
    }
    const uint8_t* begin = reinterpret_cast<const uint8_t*>(head.data());
    AvroCursor in(begin + 4, begin + head.size());
    bool truncated = false;
    std::string error;
    bool have_schema = false;
    codec_name_ = "null";
    while (true) {
      int64_t count;
      if (!in.ReadLong(&count)) {
        truncated = true;
        break;
      }
      if (count == 0) break;
      if (count < 0) {
        int64_t byte_size;
        if (!in.ReadLong(&byte_size)) {
          truncated = true;
          break;
        }
        count = -count;
      }
      if (static_cast<uint64_t>(count) > in.remaining()) {
        // Every entry takes at least two bytes.
        if (prefix < file_size_) {
          truncated = true;
        } else {
          error = "header metadata claims " + std::to_string(count) + " entries in " +
                  std::to_string(in.remaining()) + " bytes";
        }
        break;
      }
      for (int64_t i = 0; i < count && !truncated; ++i) {
        std::string_view key, value;
        if (!in.ReadBytes(&key) || !in.ReadBytes(&value)) {
          truncated = true;
          break;
        }
        if (key == "avro.schema") {
          schema_json_ = std::string(value);
          have_schema = true;
        } else if (key == "avro.codec") {
          codec_name_ = std::string(value);
        }
      }
      if (truncated) break;
    }
    if (!error.empty()) return Corrupt(error);
    if (truncated) {
      if (prefix < file_size_) {
        prefix = std::min<int64_t>(file_size_, prefix * 8);
        continue;
      }
      return Corrupt("truncated Avro header (file is " + std::to_string(file_size_) + " bytes)");
    }
    if (in.remaining() < static_cast<size_t>(kAvroSyncSize)) {
      if (prefix < file_size_) {
        prefix = std::min<int64_t>(file_size_, prefix * 8);
        continue;
      }
      return Corrupt("truncated Avro header: no room for the 16-byte sync marker");
    }
    std::memcpy(sync_, in.pos(), kAvroSyncSize);
    header_size_ = (in.pos() - begin) + kAvroSyncSize;
    if (!have_schema) return Corrupt("Avro header has no avro.schema");
    break;
  }
  auto codec = AvroCodecKind(codec_name_);
  if (!codec.ok()) return codec.status().WithContext(path());
  compression_ = *codec;
  auto schema = ParseAvroSchema(schema_json_);
  if (!schema.ok()) return schema.status().WithContext(path() + ": avro.schema");
  schema_ = std::move(schema).value();
  return Status::OK();
}

Status AvroContainerReader::IndexBlocks() {
  int64_t pos = header_size_;
  while (pos < file_size_) {
    int64_t n = std::min<int64_t>(kMaxBlockHeaderSize, file_size_ - pos);
    SLUICE_ASSIGN_OR_RETURN(std::string_view head, Read(pos, n));
    const uint8_t* begin = reinterpret_cast<const uint8_t*>(head.data());
    AvroCursor in(begin, begin + head.size());
    AvroBlockInfo block;
    block.offset = pos;
    std::string where =
        "block " + std::to_string(blocks_.size()) + " at offset " + std::to_string(pos);
    if (!in.ReadLong(&block.count) || !in.ReadLong(&block.size)) {
      return Corrupt(where + ": truncated block header");
    }
    if (block.count < 0) {
      return Corrupt(where + ": negative object count " + std::to_string(block.count));
    }
    if (block.size < 0) return Corrupt(where + ": negative size " + std::to_string(block.size));
    block.data_offset = pos + (in.pos() - begin);
    if (block.size > file_size_ - block.data_offset ||
        file_size_ - block.data_offset - block.size < kAvroSyncSize) {
      return Corrupt(where + ": " + std::to_string(block.size) +
                     " bytes and a sync marker run past the end of the file (" +
                     std::to_string(file_size_) + " bytes)");
    }
    if (block.count > INT64_MAX - num_rows_) return Corrupt(where + ": row count overflows");
    num_rows_ += block.count;
    pos = block.data_offset + block.size + kAvroSyncSize;
    blocks_.push_back(block);
  }
  return Status::OK();
}

Result<std::string_view> AvroContainerReader::ReadBlock(size_t i) {
  const AvroBlockInfo& block = blocks_.at(i);
  std::string where = "block " + std::to_string(i) + " at offset " + std::to_string(block.offset);
  SLUICE_ASSIGN_OR_RETURN(std::string_view raw,
                          Read(block.data_offset, block.size + kAvroSyncSize));
  std::string_view sync = raw.substr(static_cast<size_t>(block.size));
  if (std::memcmp(sync.data(), sync_, kAvroSyncSize) != 0) {
    return Corrupt(where + ": sync marker mismatch (found " + Hex(sync) + ", header has " +
                   Hex(sync_marker()) + ")");
  }
  std::string_view data = raw.substr(0, static_cast<size_t>(block.size));
  const Codec& codec = GetCodec(compression_);
  Status st;
  switch (compression_) {
    case CompressionKind::kNone:
      if (!cached_) {
        block_.Resize(0);
        block_.Append(data);
        return block_.view();
      }
      return data;
    case CompressionKind::kSnappy: {
      if (data.size() < 4) return Corrupt(where + ": snappy block shorter than its CRC");
      std::string_view body = data.substr(0, data.size() - 4);
      uint32_t expected =
          DecodeFixed32BE(reinterpret_cast<const uint8_t*>(data.data() + data.size() - 4));
      st = codec.Decompress(body, &block_, kMaxBlockSize);
      if (!st.ok()) return st.WithContext(path() + ": " + where);
      uint32_t actual = static_cast<uint32_t>(
          crc32(crc32(0L, Z_NULL, 0), block_.data(), static_cast<uInt>(block_.size())));
      if (actual != expected) {
        return Corrupt(where + ": snappy block CRC mismatch (stored " + std::to_string(expected) +
                       ", computed " + std::to_string(actual) + ")");
      }
      return block_.view();
    }
    default:
      st = codec.Decompress(data, &block_, kMaxBlockSize);
      if (!st.ok()) return st.WithContext(path() + ": " + where);
      return block_.view();
  }
}

}  // namespace sluice
