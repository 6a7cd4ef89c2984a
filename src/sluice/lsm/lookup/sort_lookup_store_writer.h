// SortLookupStoreWriter: writes a sort lookup store file (Java lookup.sort.SortLookupStoreWriter):
// key-value entries in ascending bytewise key order, cut into blocks of about `block_size` raw
// bytes, each compressed, then the block index, the bloom filter and the footer
// (sort_lookup_store_footer.h has the layout).
//
// Thread safety: not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/fs/file_io.h"
#include "sluice/lsm/lookup/bloom_filter.h"
#include "sluice/lsm/lookup/lookup_options.h"
#include "sluice/result.h"

namespace sluice {

class SortLookupStoreWriter {
 public:
  // Creates `path` (AlreadyExists if it exists). `expected_entries` sizes the bloom filter.
  static Result<std::unique_ptr<SortLookupStoreWriter>> Create(FileIO* io, const std::string& path,
                                                               const LookupOptions& options,
                                                               int64_t expected_entries);
  ~SortLookupStoreWriter();

  // REQUIRES: `key` orders bytewise after every key put before (InvalidArgument otherwise).
  Status Put(std::string_view key, std::string_view value);
  // Writes the last block, index, bloom filter and footer, and closes the file.
  Status Close();

  const std::string& path() const { return path_; }
  int64_t entry_count() const { return entry_count_; }

 private:
  SortLookupStoreWriter(std::string path, std::unique_ptr<WritableFile> file,
                        const LookupOptions& options, std::optional<BloomFilter> bloom)
      : path_(std::move(path)),
        file_(std::move(file)),
        options_(options),
        bloom_(std::move(bloom)) {}

  Status FlushBlock();
  // Appends `raw` compressed with `kind` and its trailer; `*offset` / `*stored` receive where.
  Status WriteBlock(std::string_view raw, CompressionKind kind, uint64_t* offset, uint64_t* stored);

  std::string path_;
  std::unique_ptr<WritableFile> file_;
  LookupOptions options_;
  std::optional<BloomFilter> bloom_;
  std::string block_;                    // entries of the block being built
  std::vector<uint32_t> block_offsets_;  // their offsets in block_
  std::string last_key_;
  std::string index_;
  std::string compressed_;
  uint64_t position_ = 0;
  int64_t entry_count_ = 0;
  bool closed_ = false;
};

}  // namespace sluice
