#include "sluice/format/parquet/decoder/delta_byte_array_decoder.h"

#include <cstring>
#include <string>
#include <vector>

#include "sluice/format/parquet/decoder/delta_binary_packed_decoder.h"

namespace sluice::parquet {

Status DecodeDeltaByteArray(const uint8_t* data, size_t size, int64_t count, ColumnValues* out) {
  std::vector<int64_t> prefixes, suffixes;
  size_t pos = 0, used = 0;
  SLUICE_RETURN_NOT_OK_CTX(DecodeDeltaBinaryPackedAll(data, size, &prefixes, &used),
                           "DELTA_BYTE_ARRAY prefix lengths");
  pos += used;
  SLUICE_RETURN_NOT_OK_CTX(DecodeDeltaBinaryPackedAll(data + pos, size - pos, &suffixes, &used),
                           "DELTA_BYTE_ARRAY suffix lengths");
  pos += used;
  if (static_cast<int64_t>(prefixes.size()) < count ||
      static_cast<int64_t>(suffixes.size()) < count) {
    return Status::Corruption("DELTA_BYTE_ARRAY: fewer lengths than values");
  }
  std::string prev, cur;
  const size_t width = static_cast<size_t>(out->width());
  for (int64_t i = 0; i < count; ++i) {
    int64_t p = prefixes[static_cast<size_t>(i)];
    int64_t s = suffixes[static_cast<size_t>(i)];
    if (p < 0 || static_cast<uint64_t>(p) > prev.size()) {
      return Status::Corruption("DELTA_BYTE_ARRAY: prefix length " + std::to_string(p) +
                                " longer than the previous value");
    }
    if (s < 0 || static_cast<uint64_t>(s) > size - pos) {
      return Status::Corruption("DELTA_BYTE_ARRAY: suffix runs past the end of the page");
    }
    cur.assign(prev, 0, static_cast<size_t>(p));
    cur.append(reinterpret_cast<const char*>(data + pos), static_cast<size_t>(s));
    pos += static_cast<size_t>(s);
    if (out->is_byte_array()) {
      SLUICE_RETURN_NOT_OK(
          out->AppendBytes(reinterpret_cast<const uint8_t*>(cur.data()), cur.size()));
    } else {
      if (cur.size() != width) {
        return Status::Corruption("DELTA_BYTE_ARRAY: value of " + std::to_string(cur.size()) +
                                  " bytes in a FIXED_LEN_BYTE_ARRAY(" + std::to_string(width) +
                                  ") column");
      }
      std::memcpy(out->AppendFixed(1), cur.data(), width);
    }
    prev.swap(cur);
  }
  return Status::OK();
}

}  // namespace sluice::parquet
