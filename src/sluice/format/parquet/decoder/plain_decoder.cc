#include "sluice/format/parquet/decoder/plain_decoder.h"

#include <cstring>
#include <string>

#include "sluice/base/coding.h"

namespace sluice::parquet {

Status DecodePlain(const uint8_t* data, size_t size, int64_t count, ColumnValues* out,
                   size_t* consumed) {
  if (count < 0) return Status::Corruption("PLAIN: negative value count");
  if (out->type() == PhysicalType::kBoolean) {
    uint64_t bytes = (static_cast<uint64_t>(count) + 7) / 8;
    if (bytes > size) return Status::Corruption("PLAIN booleans run past the end of the page");
    uint8_t* dst = out->AppendFixed(count);
    for (int64_t i = 0; i < count; ++i) dst[i] = (data[i >> 3] >> (i & 7)) & 1;
    *consumed = bytes;
    return Status::OK();
  }
  if (!out->is_byte_array()) {
    uint64_t bytes = static_cast<uint64_t>(count) * static_cast<uint64_t>(out->width());
    if (bytes > size) {
      return Status::Corruption(
          "PLAIN values run past the end of the page (" + std::to_string(count) + " values of " +
          std::to_string(out->width()) + " bytes, " + std::to_string(size) + " bytes left)");
    }
    if (count > 0) std::memcpy(out->AppendFixed(count), data, bytes);
    *consumed = bytes;
    return Status::OK();
  }
  // Every value has a 4-byte length, which bounds a lying count before any allocation.
  if (static_cast<uint64_t>(count) > size / 4) {
    return Status::Corruption("PLAIN byte arrays: " + std::to_string(count) +
                              " values cannot fit in " + std::to_string(size) + " bytes");
  }
  // The values' bytes are at most the page's (not its size less `count` lengths: a page that
  // claims more values than it holds fails only after its first values are written).
  SLUICE_ASSIGN_OR_RETURN(ColumnValues::BytesWriter writer,
                          out->StartBytes(static_cast<size_t>(count), size));
  size_t pos = 0;
  Status status;
  for (int64_t i = 0; i < count; ++i) {
    if (size - pos < 4) {
      status = Status::Corruption("PLAIN byte array length runs past the end");
      break;
    }
    uint32_t len = DecodeFixed32LE(data + pos);
    pos += 4;
    if (len > size - pos) {
      status = Status::Corruption("PLAIN byte array of " + std::to_string(len) +
                                  " bytes runs past the end of the page");
      break;
    }
    writer.Put(data + pos, len, size - pos >= kShortCopy);
    pos += len;
  }
  out->CommitBytes(writer);
  *consumed = pos;
  return status;
}

}  // namespace sluice::parquet
