#include "sluice/format/parquet/decoder/byte_stream_split_decoder.h"

#include <string>

namespace sluice::parquet {

Status DecodeByteStreamSplit(const uint8_t* data, size_t size, int64_t count, ColumnValues* out) {
  if (out->is_byte_array() || out->type() == PhysicalType::kBoolean ||
      out->type() == PhysicalType::kInt96) {
    return Status::Corruption("BYTE_STREAM_SPLIT is not defined for this physical type");
  }
  const size_t width = static_cast<size_t>(out->width());
  const size_t n = static_cast<size_t>(count);
  if (n > size / width) {
    return Status::Corruption("BYTE_STREAM_SPLIT: " + std::to_string(count) + " values of " +
                              std::to_string(width) + " bytes need more than " +
                              std::to_string(size) + " bytes");
  }
  // The stream of byte k starts at k * (values in the page).
  const size_t stride = n;
  uint8_t* dst = out->AppendFixed(count);
  for (size_t k = 0; k < width; ++k) {
    const uint8_t* src = data + k * stride;
    for (size_t i = 0; i < n; ++i) dst[i * width + k] = src[i];
  }
  return Status::OK();
}

}  // namespace sluice::parquet
