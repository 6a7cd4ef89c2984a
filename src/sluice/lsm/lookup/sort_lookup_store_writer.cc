#include "sluice/lsm/lookup/sort_lookup_store_writer.h"

#include "sluice/base/coding.h"
#include "sluice/lsm/lookup/sort_lookup_store_footer.h"

namespace sluice {

Result<std::unique_ptr<SortLookupStoreWriter>> SortLookupStoreWriter::Create(
    FileIO* io, const std::string& path, const LookupOptions& options, int64_t expected_entries) {
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<WritableFile> file,
                          io->OpenForWrite(path, /*overwrite=*/false));
  std::optional<BloomFilter> bloom;
  if (options.bloom_filter_enabled && expected_entries > 0) {
    bloom = BloomFilter::ForEntries(expected_entries, options.bloom_filter_fpp);
  }
  return std::unique_ptr<SortLookupStoreWriter>(
      new SortLookupStoreWriter(path, std::move(file), options, std::move(bloom)));
}

SortLookupStoreWriter::~SortLookupStoreWriter() = default;

Status SortLookupStoreWriter::Put(std::string_view key, std::string_view value) {
  if (entry_count_ > 0 && std::string_view(last_key_) >= key) {
    return Status::InvalidArgument("lookup file " + path_ +
                                   ": keys are not put in ascending order");
  }
  block_offsets_.push_back(static_cast<uint32_t>(block_.size()));
  PutVarint64(&block_, key.size());
  PutVarint64(&block_, value.size());
  block_.append(key);
  block_.append(value);
  last_key_.assign(key);
  if (bloom_) bloom_->Add(key);
  ++entry_count_;
  if (block_.size() >= static_cast<size_t>(options_.block_size)) return FlushBlock();
  return Status::OK();
}

Status SortLookupStoreWriter::WriteBlock(std::string_view raw, CompressionKind kind,
                                         uint64_t* offset, uint64_t* stored) {
  std::string_view bytes = raw;
  if (kind != CompressionKind::kNone) {
    Buffer out;
    SLUICE_RETURN_NOT_OK(GetCodec(kind).Compress(raw, /*level=*/1, &out));
    compressed_.assign(reinterpret_cast<const char*>(out.data()), out.size());
    bytes = compressed_;
  }
  std::string trailer(1, static_cast<char>(kind));
  PutFixed32LE(&trailer, LookupStoreCrc32(trailer, LookupStoreCrc32(bytes)));
  SLUICE_RETURN_NOT_OK(file_->Append(bytes));
  SLUICE_RETURN_NOT_OK(file_->Append(trailer));
  *offset = position_;
  *stored = bytes.size();
  position_ += bytes.size() + trailer.size();
  return Status::OK();
}

Status SortLookupStoreWriter::FlushBlock() {
  if (block_offsets_.empty()) return Status::OK();
  for (uint32_t offset : block_offsets_) PutFixed32LE(&block_, offset);
  PutFixed32LE(&block_, static_cast<uint32_t>(block_offsets_.size()));
  uint64_t offset = 0;
  uint64_t stored = 0;
  SLUICE_RETURN_NOT_OK(WriteBlock(block_, options_.compression, &offset, &stored));
  PutVarint64(&index_, last_key_.size());
  index_.append(last_key_);
  PutVarint64(&index_, offset);
  PutVarint64(&index_, stored);
  PutVarint64(&index_, block_.size());
  block_.clear();
  block_offsets_.clear();
  return Status::OK();
}

Status SortLookupStoreWriter::Close() {
  if (closed_) return Status::OK();
  closed_ = true;
  SLUICE_RETURN_NOT_OK(FlushBlock());
  SortLookupStoreFooter footer;
  footer.entry_count = static_cast<uint64_t>(entry_count_);
  SLUICE_RETURN_NOT_OK(
      WriteBlock(index_, CompressionKind::kNone, &footer.index_offset, &footer.index_size));
  if (bloom_) {
    std::string bloom;
    bloom_->AppendTo(&bloom);
    SLUICE_RETURN_NOT_OK(
        WriteBlock(bloom, CompressionKind::kNone, &footer.bloom_offset, &footer.bloom_size));
  }
  std::string tail;
  footer.AppendTo(&tail);
  SLUICE_RETURN_NOT_OK(file_->Append(tail));
  return file_->Close();
}

}  // namespace sluice
