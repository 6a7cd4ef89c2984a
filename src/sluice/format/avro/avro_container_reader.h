// AvroContainerReader: the object container file layer (Avro 1.11 specification, "Object
// Container Files"): header (magic, metadata map, sync marker) and the index of data blocks,
// each read back verified and decompressed. It knows nothing about the records in a block.
//
// Files up to kMaxCachedFileSize (every manifest) are read into memory in one call; larger
// files are read block by block.
//
// Thread safety: not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/buffer.h"
#include "sluice/format/avro/avro_schema.h"
#include "sluice/format/compression/codec.h"
#include "sluice/fs/file_io.h"
#include "sluice/result.h"

namespace sluice {

inline constexpr char kAvroMagic[4] = {'O', 'b', 'j', '\x01'};
inline constexpr int kAvroSyncSize = 16;

// The codec of an Avro `avro.codec` name ("null", "deflate", "snappy", "zstandard"); NotSupported
// for "bzip2", "xz" and names Avro does not define.
Result<CompressionKind> AvroCodecKind(std::string_view codec_name);

struct AvroBlockInfo {
  int64_t offset = 0;       // of the block's first byte (its object count)
  int64_t data_offset = 0;  // of the (compressed) records
  int64_t count = 0;        // records in the block
  int64_t size = 0;         // bytes of (compressed) records
};

class AvroContainerReader {
 public:
  static constexpr int64_t kMaxCachedFileSize = int64_t{64} << 20;
  // Decompressed blocks larger than this are rejected (Java writes 64 000-byte blocks).
  static constexpr size_t kMaxBlockSize = size_t{256} << 20;

  // Reads the header and indexes every block. A file that is not Avro, has a damaged header,
  // an unsupported codec, or blocks that do not end exactly at the end of the file fails here.
  // Files larger than `max_cached_size` are read block by block.
  static Result<std::unique_ptr<AvroContainerReader>> Open(
      std::shared_ptr<RandomAccessFile> file, int64_t max_cached_size = kMaxCachedFileSize);

  const std::string& path() const { return file_->path(); }
  const std::string& schema_json() const { return schema_json_; }
  const AvroSchemaPtr& schema() const { return schema_; }
  const std::string& codec_name() const { return codec_name_; }
  CompressionKind compression() const { return compression_; }
  std::string_view sync_marker() const { return std::string_view(sync_, kAvroSyncSize); }
  const std::vector<AvroBlockInfo>& blocks() const { return blocks_; }
  // Sum of the block counts.
  int64_t num_rows() const { return num_rows_; }

  // The decompressed records of block `i`, after checking its sync marker (and the CRC of a
  // snappy block). The view is valid until the next call.
  Result<std::string_view> ReadBlock(size_t i);

 private:
  explicit AvroContainerReader(std::shared_ptr<RandomAccessFile> file) : file_(std::move(file)) {}
  Status ReadHeader();
  Status IndexBlocks();
  // Bytes [offset, offset + n) of the file; valid until the next call.
  Result<std::string_view> Read(int64_t offset, int64_t n);
  Status Corrupt(const std::string& what) const;

  std::shared_ptr<RandomAccessFile> file_;
  int64_t file_size_ = 0;
  Buffer cache_;  // the whole file when it is small
  bool cached_ = false;
  Buffer scratch_;
  Buffer block_;
  std::string schema_json_;
  AvroSchemaPtr schema_;
  std::string codec_name_ = "null";
  CompressionKind compression_ = CompressionKind::kNone;
  char sync_[kAvroSyncSize] = {};
  int64_t header_size_ = 0;
  std::vector<AvroBlockInfo> blocks_;
  int64_t num_rows_ = 0;
};

}  // namespace sluice
