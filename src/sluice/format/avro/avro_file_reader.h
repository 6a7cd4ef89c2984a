// AvroFileReader: FormatReader over an Avro object container file. Blocks are decompressed one
// at a time and their records decoded straight into the caller's ColumnBatch for the read type,
// with the writer schema from the header resolved against it (AvroRecordDecoder).
//
// With ReaderOptions::row_positions, blocks holding none of the positions are skipped without
// being decompressed. ReaderOptions::predicate is ignored (Avro keeps no statistics).
//
// Thread safety: not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "sluice/format/avro/avro_binary.h"
#include "sluice/format/avro/avro_container_reader.h"
#include "sluice/format/avro/avro_record_decoder.h"
#include "sluice/format/file_format.h"

namespace sluice {

class AvroFileReader : public FormatReader {
 public:
  // Reads the header and block index and compiles the decode plan; errors name the file.
  static Result<std::unique_ptr<AvroFileReader>> Open(std::shared_ptr<RandomAccessFile> file,
                                                      DataTypePtr read_type,
                                                      const ReaderOptions& options);

  Result<bool> Next(ColumnBatch* batch) override;
  int64_t num_rows() const override { return container_->num_rows(); }

  const AvroContainerReader& container() const { return *container_; }

 private:
  AvroFileReader() = default;
  Status LoadBlock(size_t index);
  Status DecodeInto(ColumnBatch* batch, int64_t* rows);
  Status BlockError(const Status& st) const;

  std::unique_ptr<AvroContainerReader> container_;
  std::unique_ptr<AvroRecordDecoder> decoder_;
  int64_t batch_size_ = 4096;
  std::optional<std::vector<int64_t>> positions_;
  size_t next_position_ = 0;
  size_t next_block_ = 0;
  size_t current_block_ = 0;
  AvroCursor cursor_;
  int64_t rows_left_in_block_ = 0;
  int64_t next_row_ = 0;  // file position of the record at cursor_
  Status error_;          // sticky: once a block fails, every later Next fails the same way
};

}  // namespace sluice
