#include "sluice/format/parquet/decoder/delta_length_byte_array_decoder.h"

#include <string>
#include <vector>

#include "sluice/format/parquet/decoder/delta_binary_packed_decoder.h"

namespace sluice::parquet {

Status DecodeDeltaLengthByteArray(const uint8_t* data, size_t size, int64_t count,
                                  ColumnValues* out) {
  std::vector<int64_t> lengths;
  size_t pos = 0;
  SLUICE_RETURN_NOT_OK_CTX(DecodeDeltaBinaryPackedAll(data, size, &lengths, &pos),
                           "DELTA_LENGTH_BYTE_ARRAY lengths");
  if (static_cast<int64_t>(lengths.size()) < count) {
    return Status::Corruption("DELTA_LENGTH_BYTE_ARRAY: " + std::to_string(lengths.size()) +
                              " lengths for " + std::to_string(count) + " values");
  }
  SLUICE_ASSIGN_OR_RETURN(ColumnValues::BytesWriter writer,
                          out->StartBytes(static_cast<size_t>(count), size - pos));
  Status status;
  for (int64_t i = 0; i < count; ++i) {
    int64_t len = lengths[static_cast<size_t>(i)];
    if (len < 0 || static_cast<uint64_t>(len) > size - pos) {
      status = Status::Corruption("DELTA_LENGTH_BYTE_ARRAY: value length " + std::to_string(len) +
                                  " runs past the end of the page");
      break;
    }
    writer.Put(data + pos, static_cast<size_t>(len), size - pos >= kShortCopy);
    pos += static_cast<size_t>(len);
  }
  out->CommitBytes(writer);
  return status;
}

}  // namespace sluice::parquet
