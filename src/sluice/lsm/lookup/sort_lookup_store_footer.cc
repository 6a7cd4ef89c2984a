#include "sluice/lsm/lookup/sort_lookup_store_footer.h"

#include <zlib.h>

#include "sluice/base/coding.h"

namespace sluice {

uint32_t LookupStoreCrc32(std::string_view data, uint32_t crc) {
  return static_cast<uint32_t>(
      crc32(crc, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(data.size())));
}

void SortLookupStoreFooter::AppendTo(std::string* out) const {
  const size_t start = out->size();
  PutFixed64LE(out, index_offset);
  PutFixed64LE(out, index_size);
  PutFixed64LE(out, bloom_offset);
  PutFixed64LE(out, bloom_size);
  PutFixed64LE(out, entry_count);
  PutFixed32LE(out, LookupStoreCrc32(std::string_view(*out).substr(start)));
  PutFixed32LE(out, kSortLookupStoreMagic);
}

Result<SortLookupStoreFooter> SortLookupStoreFooter::Parse(std::string_view bytes,
                                                           const std::string& path,
                                                           uint64_t file_size) {
  if (bytes.size() != kSortLookupStoreFooterSize) {
    return Status::Corruption("lookup file " + path + ": " + std::to_string(file_size) +
                              " bytes, too short for its footer");
  }
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  if (DecodeFixed32LE(p + 44) != kSortLookupStoreMagic) {
    return Status::Corruption("lookup file " + path + ": bad magic number in the footer");
  }
  if (DecodeFixed32LE(p + 40) != LookupStoreCrc32(bytes.substr(0, 40))) {
    return Status::Corruption("lookup file " + path + ": footer checksum mismatch");
  }
  SortLookupStoreFooter footer;
  footer.index_offset = DecodeFixed64LE(p);
  footer.index_size = DecodeFixed64LE(p + 8);
  footer.bloom_offset = DecodeFixed64LE(p + 16);
  footer.bloom_size = DecodeFixed64LE(p + 24);
  footer.entry_count = DecodeFixed64LE(p + 32);
  const uint64_t body = file_size - kSortLookupStoreFooterSize;
  auto block_fits = [body](uint64_t offset, uint64_t size) {
    return offset <= body && size <= body - offset &&
           kSortLookupStoreBlockTrailerSize <= body - offset - size;
  };
  if (!block_fits(footer.index_offset, footer.index_size) ||
      (footer.bloom_size != 0 && !block_fits(footer.bloom_offset, footer.bloom_size))) {
    return Status::Corruption("lookup file " + path +
                              ": index or bloom filter block lies outside the file");
  }
  return footer;
}

}  // namespace sluice
