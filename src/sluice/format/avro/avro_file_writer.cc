#include "sluice/format/avro/avro_file_writer.h"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <random>

#include "sluice/base/string_util.h"
#include "sluice/format/avro/avro_binary.h"
#include "sluice/format/avro/avro_container_reader.h"
#include "sluice/format/avro/avro_schema_converter.h"

namespace sluice {

Result<std::string> AvroCodecNameFor(const WriterOptions& options) {
  auto it = options.options.find("avro.codec");
  if (it != options.options.end()) {
    SLUICE_RETURN_NOT_OK(AvroCodecKind(it->second).status());
    return it->second;
  }
  // Java's AvroFileFormat: "zstd" in any case is Avro's zstandard; any other name goes to
  // Avro's CodecFactory.fromString, which knows its own names only, spelled exactly.
  const std::string& name = options.compression;
  if (AsciiToLower(name) == "zstd") return std::string("zstandard");
  if (name == "zstandard" || name == "snappy" || name == "deflate" || name == "null") return name;
  if (name == "bzip2" || name == "xz") {
    return Status::NotSupported("compression '" + name + "': Sluice has no Avro " + name +
                                " codec");
  }
  // The table options that name a compression: `file.compression` for data files,
  // `manifest.compression` for manifests (Java refuses both the same way).
  return Status::InvalidArgument(
      "file.compression / manifest.compression '" + name +
      "' is not an Avro codec (Java Paimon refuses to write it: \"Unrecognized codec: " + name +
      "\"); Avro files take zstd, zstandard, snappy, deflate, null, bzip2 or xz");
}

Result<std::unique_ptr<AvroFileWriter>> AvroFileWriter::Open(std::unique_ptr<WritableFile> file,
                                                             DataTypePtr write_type,
                                                             const WriterOptions& options) {
  std::unique_ptr<AvroFileWriter> w(new AvroFileWriter());
  const std::string& path = file->path();
  auto codec_name = AvroCodecNameFor(options);
  if (!codec_name.ok()) return codec_name.status().WithContext(path);
  SLUICE_ASSIGN_OR_RETURN(w->compression_, AvroCodecKind(*codec_name));
  w->compression_level_ = w->compression_ == CompressionKind::kZstd ? options.compression_level : 0;
  auto schema = RowTypeToAvroSchema(*write_type);
  if (!schema.ok()) return schema.status().WithContext(path);
  auto encoder = AvroRecordEncoder::Make(write_type);
  if (!encoder.ok()) return encoder.status().WithContext(path);
  w->encoder_ = std::move(encoder).value();
  for (const DataField& f : write_type->fields()) w->stats_.emplace_back(f.type);
  w->write_type_ = std::move(write_type);
  w->file_ = std::move(file);

  std::random_device rd;
  std::mt19937_64 rng((static_cast<uint64_t>(rd()) << 32) ^ rd());
  for (int i = 0; i < 16; i += 8) {
    uint64_t r = rng();
    std::memcpy(w->sync_ + i, &r, 8);
  }
  Buffer header;
  header.Append(kAvroMagic, 4);
  PutAvroLong(&header, 2);
  PutAvroBytes(&header, "avro.schema");
  PutAvroBytes(&header, AvroSchemaToJson(**schema));
  PutAvroBytes(&header, "avro.codec");
  PutAvroBytes(&header, *codec_name);
  PutAvroLong(&header, 0);
  header.Append(w->sync_, 16);
  SLUICE_RETURN_NOT_OK(w->file_->Append(header.view()));
  return w;
}

Status AvroFileWriter::Fail(Status st) {
  error_ = st;
  return st;
}

Status AvroFileWriter::Write(const ColumnBatch& batch) {
  if (!error_.ok()) return error_;
  if (finished_) return Status::InvalidArgument(file_->path() + ": write after Finish");
  if (batch.num_columns() != write_type_->num_fields()) {
    return Status::InvalidArgument(file_->path() + ": batch has " +
                                   std::to_string(batch.num_columns()) + " columns, the file " +
                                   std::to_string(write_type_->num_fields()));
  }
  int64_t n = batch.num_rows();
  for (int64_t row = 0; row < n; ++row) {
    Status st = encoder_->EncodeRow(batch, row, &block_);
    if (!st.ok()) return Fail(st.WithContext(file_->path() + ": row " + std::to_string(row)));
    ++block_count_;
    if (block_.size() >= kSyncInterval) SLUICE_RETURN_NOT_OK(FlushBlock());
  }
  for (int c = 0; c < batch.num_columns(); ++c)
    stats_[static_cast<size_t>(c)].Update(*batch.column(c));
  row_count_ += n;
  return Status::OK();
}

Status AvroFileWriter::FlushBlock() {
  if (block_count_ == 0) return Status::OK();
  std::string_view payload = block_.view();
  if (compression_ != CompressionKind::kNone) {
    compressed_.Clear();
    Status st = GetCodec(compression_).Compress(block_.view(), compression_level_, &compressed_);
    if (!st.ok()) return Fail(st.WithContext(file_->path()));
    if (compression_ == CompressionKind::kSnappy) {
      uint32_t crc = static_cast<uint32_t>(
          crc32(crc32(0L, Z_NULL, 0), block_.data(), static_cast<uInt>(block_.size())));
      uint8_t be[4];
      EncodeFixed32BE(be, crc);
      compressed_.Append(be, 4);
    }
    payload = compressed_.view();
  }
  frame_.Clear();
  PutAvroLong(&frame_, block_count_);
  PutAvroLong(&frame_, static_cast<int64_t>(payload.size()));
  frame_.Append(payload);
  frame_.Append(sync_, 16);
  Status st = file_->Append(frame_.view());
  if (!st.ok()) return Fail(st);
  block_.Clear();
  block_count_ = 0;
  return Status::OK();
}

int64_t AvroFileWriter::EstimatedSize() const {
  return file_->bytes_written() + static_cast<int64_t>(block_.size());
}

Result<WriteResult> AvroFileWriter::Finish() {
  if (!error_.ok()) return error_;
  if (finished_) return Status::InvalidArgument(file_->path() + ": Finish called twice");
  SLUICE_RETURN_NOT_OK(FlushBlock());
  finished_ = true;
  WriteResult result;
  result.row_count = row_count_;
  result.file_size = file_->bytes_written();
  SLUICE_RETURN_NOT_OK(file_->Close());
  for (const ColumnStatsCollector& c : stats_) result.stats.push_back(c.Finish());
  return result;
}

}  // namespace sluice
