// AvroFileWriter: FormatWriter producing an Avro object container file as Java Paimon writes it
// (AvroFileFormat / Avro's DataFileWriter): header with avro.schema then avro.codec, a random
// 16-byte sync marker, and blocks flushed once kSyncInterval bytes of records are buffered.
//
// Codec: WriterOptions::options["avro.codec"] when set (an Avro codec name), else
// WriterOptions::compression as Java takes it: "zstd" (any case) / "zstandard" -> zstandard
// (level compression_level), "snappy", "deflate", "null". Any other name ("none", "lz4",
// "gzip", "ZSTANDARD") is an InvalidArgument naming the option, as Java refuses to write it
// ("Unrecognized codec"); Avro's "bzip2" / "xz" are NotSupported.
//
// Thread safety: not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sluice/buffer.h"
#include "sluice/format/avro/avro_record_encoder.h"
#include "sluice/format/avro/column_stats_collector.h"
#include "sluice/format/compression/codec.h"
#include "sluice/format/file_format.h"

namespace sluice {

// The Avro codec name for a Paimon compression name (see above).
Result<std::string> AvroCodecNameFor(const WriterOptions& options);

class AvroFileWriter : public FormatWriter {
 public:
  // Avro's DataFileConstants.DEFAULT_SYNC_INTERVAL, which Paimon keeps.
  static constexpr size_t kSyncInterval = 4000 * 16;

  // Writes the header. REQUIRES: write_type is a ROW.
  static Result<std::unique_ptr<AvroFileWriter>> Open(std::unique_ptr<WritableFile> file,
                                                      DataTypePtr write_type,
                                                      const WriterOptions& options);

  Status Write(const ColumnBatch& batch) override;
  int64_t EstimatedSize() const override;
  Result<WriteResult> Finish() override;

 private:
  AvroFileWriter() = default;
  Status FlushBlock();
  Status Fail(Status st);

  std::unique_ptr<WritableFile> file_;
  DataTypePtr write_type_;
  std::unique_ptr<AvroRecordEncoder> encoder_;
  CompressionKind compression_ = CompressionKind::kNone;
  int compression_level_ = 0;
  char sync_[16] = {};
  Buffer block_;
  int64_t block_count_ = 0;
  Buffer compressed_;
  Buffer frame_;
  std::vector<ColumnStatsCollector> stats_;
  int64_t row_count_ = 0;
  bool finished_ = false;
  Status error_;  // sticky: a failed write leaves a partial block behind
};

}  // namespace sluice
