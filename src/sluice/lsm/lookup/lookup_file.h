// LookupFile: the local lookup file built from one data file (Java mergetree.LookupFile): a sort
// lookup store on local disk and its reader, with the lookup counts Java logs. The local file is
// deleted when the LookupFile goes (the cache dropped it and no lookup holds it any more).
//
// Thread safety: not thread-safe (one lookup at a time, see SortLookupStoreReader).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "sluice/fs/file_io.h"
#include "sluice/lsm/lookup/sort_lookup_store_reader.h"
#include "sluice/result.h"

namespace sluice {

class LookupFile {
 public:
  // `io` holds `local_path`, which `reader` reads.
  LookupFile(std::shared_ptr<FileIO> io, std::string local_path,
             std::unique_ptr<SortLookupStoreReader> reader)
      : io_(std::move(io)), local_path_(std::move(local_path)), reader_(std::move(reader)) {}
  ~LookupFile();

  LookupFile(const LookupFile&) = delete;
  LookupFile& operator=(const LookupFile&) = delete;

  // True and `*value` (valid until the next call) when `key` is in the file.
  Result<bool> Get(std::string_view key, std::string_view* value);

  const std::string& local_path() const { return local_path_; }
  int64_t size_bytes() const { return reader_->file_size(); }
  int64_t request_count() const { return request_count_; }
  int64_t hit_count() const { return hit_count_; }

 private:
  std::shared_ptr<FileIO> io_;
  std::string local_path_;
  std::unique_ptr<SortLookupStoreReader> reader_;
  int64_t request_count_ = 0;
  int64_t hit_count_ = 0;
};

}  // namespace sluice
