#include "sluice/format/blob_file_reader.h"

#include <zlib.h>

#include <string>
#include <vector>

#include "sluice/base/coding.h"

namespace sluice {

namespace {

constexpr uint32_t kBlobMagic = 0x584E11CF;
constexpr uint8_t kBlobVersion = 1;
constexpr int64_t kFooterSize = 5;       // index length + version
constexpr int64_t kRecordOverhead = 16;  // magic + record length + CRC

uint32_t LoadU32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

int64_t LoadI64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = v << 8 | p[i];
  return static_cast<int64_t>(v);
}

}  // namespace

Status ReadBlobFile(const RandomAccessFile& file, ColumnVector* out) {
  const std::string& path = file.path();
  auto corrupt = [&](const std::string& what) {
    return Status::Corruption("blob file " + path + ": " + what);
  };
  const int64_t size = file.size();
  if (size < kFooterSize) return corrupt("only " + std::to_string(size) + " bytes");
  std::vector<uint8_t> bytes(static_cast<size_t>(size));
  SLUICE_RETURN_NOT_OK(file.ReadAt(0, size, bytes.data()));
  const uint8_t* data = bytes.data();
  if (data[size - 1] != kBlobVersion) {
    return corrupt("unknown version " + std::to_string(data[size - 1]));
  }
  const int64_t index_length = static_cast<int32_t>(LoadU32(data + size - kFooterSize));
  if (index_length < 0 || index_length > size - kFooterSize) {
    return corrupt("index length " + std::to_string(index_length) + " out of range");
  }
  const int64_t records_end = size - kFooterSize - index_length;
  std::vector<int64_t> lengths;
  const uint8_t* p = data + records_end;
  const uint8_t* limit = data + size - kFooterSize;
  int64_t previous = 0;
  while (p < limit) {
    uint64_t delta = 0;
    if (!GetVarint64(&p, limit, &delta)) return corrupt("truncated index");
    previous += ZigZagDecode64(delta);
    lengths.push_back(previous);
  }
  int64_t offset = 0;
  for (size_t i = 0; i < lengths.size(); ++i) {
    const int64_t length = lengths[i];
    const std::string record = "record " + std::to_string(i);
    if (length < kRecordOverhead || length > records_end - offset) {
      return corrupt(record + " length " + std::to_string(length) + " out of range");
    }
    const uint8_t* r = data + offset;
    if (LoadU32(r) != kBlobMagic) return corrupt(record + " has no blob magic");
    if (LoadI64(r + length - 12) != length) return corrupt(record + " length mismatch");
    const uLong crc = crc32(0L, r, static_cast<uInt>(length - 4));
    if (static_cast<uint32_t>(crc) != LoadU32(r + length - 4)) {
      return corrupt(record + " CRC mismatch");
    }
    out->AppendBytes(std::string_view(reinterpret_cast<const char*>(r + 4),
                                      static_cast<size_t>(length - kRecordOverhead)));
    offset += length;
  }
  if (offset != records_end) {
    return corrupt("records end at " + std::to_string(offset) + ", index starts at " +
                   std::to_string(records_end));
  }
  return Status::OK();
}

}  // namespace sluice
