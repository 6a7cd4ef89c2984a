#include "sluice/lsm/lookup/sort_lookup_store_reader.h"

#include "sluice/base/coding.h"
#include "sluice/format/compression/codec.h"
#include "sluice/lsm/lookup/key_head.h"
#include "sluice/lsm/lookup/sort_lookup_store_footer.h"

namespace sluice {
Result<std::unique_ptr<SortLookupStoreReader>> SortLookupStoreReader::Open(
    FileIO* io, const std::string& path, std::shared_ptr<CacheManager> cache) {
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file, io->OpenForRead(path));
  std::unique_ptr<SortLookupStoreReader> reader(
      new SortLookupStoreReader(path, std::move(file), std::move(cache)));
  SLUICE_RETURN_NOT_OK(reader->Init());
  return reader;
}

SortLookupStoreReader::~SortLookupStoreReader() { cache_->DropReader(reader_id_); }

Status SortLookupStoreReader::Corrupt(const std::string& what) const {
  return Status::Corruption("lookup file " + path_ + ": " + what);
}

Status SortLookupStoreReader::Init() {
  const int64_t size = file_->size();
  if (size < static_cast<int64_t>(kSortLookupStoreFooterSize)) {
    return Corrupt(std::to_string(size) + " bytes, too short for its footer");
  }
  std::string footer_bytes(kSortLookupStoreFooterSize, '\0');
  SLUICE_RETURN_NOT_OK(file_->ReadAt(size - static_cast<int64_t>(kSortLookupStoreFooterSize),
                                     static_cast<int64_t>(kSortLookupStoreFooterSize),
                                     reinterpret_cast<uint8_t*>(footer_bytes.data())));
  SLUICE_ASSIGN_OR_RETURN(
      SortLookupStoreFooter footer,
      SortLookupStoreFooter::Parse(footer_bytes, path_, static_cast<uint64_t>(size)));
  entry_count_ = footer.entry_count;
  SLUICE_ASSIGN_OR_RETURN(std::string index, ReadBlock(footer.index_offset, footer.index_size,
                                                       footer.index_size, "index block"));
  const auto* p = reinterpret_cast<const uint8_t*>(index.data());
  const uint8_t* limit = p + index.size();
  const uint64_t data_end = footer.index_offset;
  while (p < limit) {
    BlockHandle handle;
    uint64_t key_len = 0;
    if (!GetVarint64(&p, limit, &key_len) || key_len > static_cast<uint64_t>(limit - p)) {
      return Corrupt("index entry " + std::to_string(index_.size()) + " is truncated");
    }
    const std::string_view last_key(reinterpret_cast<const char*>(p), key_len);
    p += key_len;
    if (!GetVarint64(&p, limit, &handle.offset) || !GetVarint64(&p, limit, &handle.stored_size) ||
        !GetVarint64(&p, limit, &handle.raw_size)) {
      return Corrupt("index entry " + std::to_string(index_.size()) + " is truncated");
    }
    if (handle.offset > data_end || handle.stored_size > data_end - handle.offset ||
        kSortLookupStoreBlockTrailerSize > data_end - handle.offset - handle.stored_size ||
        handle.raw_size > (uint64_t{1} << 31) || handle.raw_size < 4) {
      return Corrupt("index entry " + std::to_string(index_.size()) +
                     " points outside the data blocks");
    }
    if (!index_.empty() && LastKey(index_.size() - 1) >= last_key) {
      return Corrupt("index keys are not ascending at block " + std::to_string(index_.size()));
    }
    index_.push_back(handle);
    last_keys_.append(last_key);
    last_key_starts_.push_back(last_keys_.size());
  }
  if (footer.bloom_size != 0) {
    SLUICE_ASSIGN_OR_RETURN(std::string bloom, ReadBlock(footer.bloom_offset, footer.bloom_size,
                                                         footer.bloom_size, "bloom filter"));
    SLUICE_ASSIGN_OR_RETURN(BloomFilter filter, BloomFilter::Parse(bloom, "lookup file " + path_));
    bloom_ = std::move(filter);
  }
  if (!index_.empty()) {
    // The keys ascend: what the first and the last share, all share.
    const std::string_view first = LastKey(0);
    const size_t common = CommonPrefixLength(first, LastKey(index_.size() - 1));
    last_key_prefix_.assign(first.substr(0, common));
    last_key_heads_.reserve(index_.size());
    for (size_t i = 0; i < index_.size(); ++i) {
      last_key_heads_.push_back(KeyHeadOf(LastKey(i), common));
    }
  }
  reader_id_ = cache_->AddReader(index_.size());
  return Status::OK();
}

Result<std::string> SortLookupStoreReader::ReadBlock(uint64_t offset, uint64_t size,
                                                     uint64_t raw_size, const char* what) const {
  std::string stored(size + kSortLookupStoreBlockTrailerSize, '\0');
  SLUICE_RETURN_NOT_OK(file_->ReadAt(static_cast<int64_t>(offset),
                                     static_cast<int64_t>(stored.size()),
                                     reinterpret_cast<uint8_t*>(stored.data())));
  const auto* trailer = reinterpret_cast<const uint8_t*>(stored.data() + size);
  const std::string_view body(stored.data(), size);
  const uint32_t crc =
      LookupStoreCrc32(std::string_view(stored.data() + size, 1), LookupStoreCrc32(body));
  if (DecodeFixed32LE(trailer + 1) != crc) {
    return Corrupt(std::string(what) + " at offset " + std::to_string(offset) +
                   ": checksum mismatch");
  }
  const auto kind = static_cast<CompressionKind>(trailer[0]);
  if (kind > CompressionKind::kZstd) {
    return Corrupt(std::string(what) + " at offset " + std::to_string(offset) +
                   ": unknown compression " + std::to_string(trailer[0]));
  }
  if (kind == CompressionKind::kNone) {
    if (size != raw_size) {
      return Corrupt(std::string(what) + " at offset " + std::to_string(offset) + ": " +
                     std::to_string(size) + " bytes stored, " + std::to_string(raw_size) +
                     " expected");
    }
    stored.resize(size);
    return stored;
  }
  std::string raw(raw_size, '\0');
  Status st =
      GetCodec(kind).DecompressExact(body, reinterpret_cast<uint8_t*>(raw.data()), raw.size());
  if (!st.ok()) {
    return Corrupt(std::string(what) + " at offset " + std::to_string(offset) +
                   " does not decompress: " + st.message());
  }
  return raw;
}

size_t SortLookupStoreReader::BlockOf(std::string_view key) const {
  const size_t prefix = last_key_prefix_.size();
  const int order = key.substr(0, prefix).compare(last_key_prefix_);
  if (order < 0) return 0;              // below every last key
  if (order > 0) return index_.size();  // above every last key
  const uint64_t head = KeyHeadOf(key, prefix);
  size_t lo = 0;
  size_t hi = index_.size();
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    const uint64_t mid_head = last_key_heads_[mid];
    if (mid_head < head || (mid_head == head && LastKey(mid) < key)) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

Result<bool> SortLookupStoreReader::Lookup(std::string_view key, std::string_view* value) {
  if (bloom_ && !bloom_->MightContain(key)) return false;
  const size_t block_index = BlockOf(key);
  if (block_index == index_.size()) return false;
  const BlockHandle& handle = index_[block_index];
  SLUICE_ASSIGN_OR_RETURN(
      CacheManager::Block block,
      cache_->GetBlock(
          reader_id_, block_index, [this, &handle, block_index]() -> Result<SortLookupStoreBlock> {
            SLUICE_ASSIGN_OR_RETURN(std::string raw, ReadBlock(handle.offset, handle.stored_size,
                                                               handle.raw_size, "data block"));
            Result<SortLookupStoreBlock> indexed = SortLookupStoreBlock::Make(std::move(raw));
            if (!indexed.ok()) {
              return Corrupt("data block " + std::to_string(block_index) + ": " +
                             indexed.status().message());
            }
            return indexed;
          }));
  if (!block->Find(key, SortLookupStoreBlock::HashOf(key), value)) return false;
  pinned_ = std::move(block);
  return true;
}

}  // namespace sluice
