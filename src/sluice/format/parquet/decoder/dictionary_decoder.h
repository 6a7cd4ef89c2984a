// Dictionary decoding (PLAIN_DICTIONARY / RLE_DICTIONARY): a data page holds a bit width byte
// and RLE/bit-packed indices into the chunk's dictionary page, which is decoded once per column
// chunk. Indices are decoded in bulk, range-checked in one pass, then gathered.
//
// Thread safety: not thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "sluice/format/parquet/decoder/column_values.h"
#include "sluice/result.h"

namespace sluice::parquet {

class DictionaryDecoder {
 public:
  // Decodes a dictionary page body (PLAIN values).
  Status SetDictionary(PhysicalType type, int32_t type_length, const uint8_t* data, size_t size,
                       int64_t count);
  bool has_dictionary() const { return has_dictionary_; }

  // Decodes `count` indices from a data page's values section and appends the values.
  Status Decode(const uint8_t* data, size_t size, int64_t count, ColumnValues* out);

 private:
  bool has_dictionary_ = false;
  ColumnValues dictionary_;
  std::vector<uint32_t> indices_;
};

}  // namespace sluice::parquet
