#include "sluice/format/parquet/decoder/dictionary_decoder.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "sluice/format/parquet/decoder/plain_decoder.h"
#include "sluice/format/parquet/decoder/rle_bit_packed_decoder.h"

namespace sluice::parquet {

Status DictionaryDecoder::SetDictionary(PhysicalType type, int32_t type_length, const uint8_t* data,
                                        size_t size, int64_t count) {
  if (count < 0) return Status::Corruption("dictionary page: negative value count");
  dictionary_.Reset(type, type_length);
  size_t consumed = 0;
  SLUICE_RETURN_NOT_OK_CTX(DecodePlain(data, size, count, &dictionary_, &consumed),
                           "dictionary page");
  has_dictionary_ = true;
  return Status::OK();
}

namespace {

template <typename T>
void Gather(const uint8_t* dict, const uint32_t* idx, int64_t n, uint8_t* out) {
  const T* d = reinterpret_cast<const T*>(dict);
  T* o = reinterpret_cast<T*>(out);
  for (int64_t i = 0; i < n; ++i) std::memcpy(&o[i], &d[idx[i]], sizeof(T));
}

}  // namespace

Status DictionaryDecoder::Decode(const uint8_t* data, size_t size, int64_t count,
                                 ColumnValues* out) {
  if (!has_dictionary_) {
    return Status::Corruption("dictionary-encoded page without a dictionary page");
  }
  if (count == 0) return Status::OK();
  if (size < 1) return Status::Corruption("dictionary indices: missing bit width");
  int bit_width = data[0];
  if (!RleBitPackedDecoder::ValidBitWidth(bit_width)) {
    return Status::Corruption("dictionary indices: invalid bit width " + std::to_string(bit_width));
  }
  // `count` is bounded by the caller (page value counts are capped), so this cannot explode.
  indices_.resize(static_cast<size_t>(count));
  RleBitPackedDecoder rle(data + 1, size - 1, bit_width);
  SLUICE_RETURN_NOT_OK_CTX(rle.Decode(indices_.data(), count), "dictionary indices");
  uint32_t max_index = *std::max_element(indices_.begin(), indices_.begin() + count);
  if (static_cast<int64_t>(max_index) >= dictionary_.count()) {
    return Status::Corruption("dictionary index " + std::to_string(max_index) +
                              " out of range (dictionary has " +
                              std::to_string(dictionary_.count()) + " values)");
  }
  const uint32_t* idx = indices_.data();
  if (dictionary_.is_byte_array()) {
    const int32_t* off = dictionary_.offsets();
    size_t total = 0;
    for (int64_t i = 0; i < count; ++i) total += static_cast<size_t>(off[idx[i] + 1] - off[idx[i]]);
    return out->AppendGathered(dictionary_, idx, count, total);
  }
  uint8_t* dst = out->AppendFixed(count);
  switch (dictionary_.width()) {
    case 1:
      Gather<uint8_t>(dictionary_.data(), idx, count, dst);
      break;
    case 4:
      Gather<uint32_t>(dictionary_.data(), idx, count, dst);
      break;
    case 8:
      Gather<uint64_t>(dictionary_.data(), idx, count, dst);
      break;
    default: {
      size_t w = static_cast<size_t>(dictionary_.width());
      for (int64_t i = 0; i < count; ++i) {
        std::memcpy(dst + static_cast<size_t>(i) * w, dictionary_.data() + idx[i] * w, w);
      }
    }
  }
  return Status::OK();
}

}  // namespace sluice::parquet
