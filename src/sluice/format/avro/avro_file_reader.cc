#include "sluice/format/avro/avro_file_reader.h"

#include <algorithm>
#include <string>

namespace sluice {

namespace {

// Records that encode in zero bytes (empty records) are allowed this many per block beyond the
// block's byte size, so a lying count cannot spin the reader.
constexpr int64_t kZeroSizeRecordSlack = 1 << 16;

}  // namespace

Result<std::unique_ptr<AvroFileReader>> AvroFileReader::Open(std::shared_ptr<RandomAccessFile> file,
                                                             DataTypePtr read_type,
                                                             const ReaderOptions& options) {
  std::unique_ptr<AvroFileReader> r(new AvroFileReader());
  std::string path = file->path();
  SLUICE_ASSIGN_OR_RETURN(r->container_, AvroContainerReader::Open(std::move(file)));
  auto decoder = AvroRecordDecoder::Make(r->container_->schema(), std::move(read_type));
  if (!decoder.ok()) return decoder.status().WithContext(path);
  r->decoder_ = std::move(decoder).value();
  r->batch_size_ = std::max<int64_t>(1, options.batch_size);
  r->positions_ = options.row_positions;
  return r;
}

Status AvroFileReader::BlockError(const Status& st) const {
  const AvroBlockInfo& block = container_->blocks()[current_block_];
  return st.WithContext(container_->path() + ": block " + std::to_string(current_block_) +
                        " at offset " + std::to_string(block.offset));
}

Status AvroFileReader::LoadBlock(size_t index) {
  current_block_ = index;
  const AvroBlockInfo& block = container_->blocks()[index];
  SLUICE_ASSIGN_OR_RETURN(std::string_view data, container_->ReadBlock(index));
  int64_t min_size = decoder_->min_record_size();
  int64_t size = static_cast<int64_t>(data.size());
  bool fits =
      min_size > 0 ? block.count <= size / min_size : block.count <= size + kZeroSizeRecordSlack;
  if (!fits) {
    return BlockError(Status::Corruption("claims " + std::to_string(block.count) +
                                         " records but holds only " + std::to_string(size) +
                                         " bytes"));
  }
  const auto* begin = reinterpret_cast<const uint8_t*>(data.data());
  cursor_ = AvroCursor(begin, begin + data.size());
  rows_left_in_block_ = block.count;
  return Status::OK();
}

Status AvroFileReader::DecodeInto(ColumnBatch* batch, int64_t* rows) {
  const auto& blocks = container_->blocks();
  while (*rows < batch_size_) {
    if (rows_left_in_block_ == 0) {
      if (next_block_ >= blocks.size()) break;
      const AvroBlockInfo& block = blocks[next_block_];
      if (positions_.has_value()) {
        while (next_position_ < positions_->size() && (*positions_)[next_position_] < next_row_) {
          ++next_position_;  // unsorted or repeated positions
        }
        if (next_position_ == positions_->size()) {
          next_block_ = blocks.size();
          break;
        }
        if ((*positions_)[next_position_] >= next_row_ + block.count) {
          next_row_ += block.count;
          ++next_block_;
          continue;
        }
      }
      SLUICE_RETURN_NOT_OK(LoadBlock(next_block_++));
      continue;
    }
    int64_t take;
    if (!positions_.has_value()) {
      take = std::min(rows_left_in_block_, batch_size_ - *rows);
    } else {
      while (next_position_ < positions_->size() && (*positions_)[next_position_] < next_row_) {
        ++next_position_;
      }
      if (next_position_ == positions_->size() ||
          (*positions_)[next_position_] >= next_row_ + rows_left_in_block_) {
        // Nothing more wanted from this block.
        next_row_ += rows_left_in_block_;
        rows_left_in_block_ = 0;
        continue;
      }
      int64_t gap = (*positions_)[next_position_] - next_row_;
      if (gap > 0) {
        Status st = decoder_->Skip(&cursor_, gap);
        if (!st.ok()) return BlockError(st);
        next_row_ += gap;
        rows_left_in_block_ -= gap;
      }
      take = 1;
      ++next_position_;
    }
    Status st = decoder_->Decode(&cursor_, take, batch);
    if (!st.ok()) return BlockError(st);
    *rows += take;
    next_row_ += take;
    rows_left_in_block_ -= take;
    if (rows_left_in_block_ == 0 && cursor_.remaining() > 0) {
      return BlockError(Status::Corruption(std::to_string(cursor_.remaining()) +
                                           " bytes left after the last record"));
    }
  }
  return Status::OK();
}

Result<bool> AvroFileReader::Next(ColumnBatch* batch) {
  if (!error_.ok()) return error_;
  batch->Clear();
  int64_t rows = 0;
  Status st = DecodeInto(batch, &rows);
  if (!st.ok()) {
    error_ = st;
    batch->Clear();
    return st;
  }
  AvroRecordDecoder::FinishBatch(batch, rows);
  return rows > 0;
}

}  // namespace sluice
