// DataFilePathFactory: names the new data files of one partition and bucket (Java
// DataFilePathFactory): `<prefix><uuid>-<n><extension>` in the bucket directory, one random uuid
// per factory and a counter from 0 that data and changelog files (`changelog-file.prefix`)
// share.
//
// Thread safety: thread-safe (the counter is atomic).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "sluice/meta/core_options.h"

namespace sluice {

class DataFilePathFactory {
 public:
  // The extension follows `file.format`, `file.compression` and
  // `file.suffix.include.compression`.
  DataFilePathFactory(std::string bucket_path, const CoreOptions& options);

  const std::string& bucket_path() const { return bucket_path_; }
  const std::string& uuid() const { return uuid_; }
  // The next data file name (`data-<uuid>-<n>.parquet`).
  std::string NewDataFileName();
  // The next changelog file name (`changelog-<uuid>-<n>.parquet`).
  std::string NewChangelogFileName();
  std::string PathOf(const std::string& file_name) const { return bucket_path_ + "/" + file_name; }

 private:
  std::string bucket_path_;
  std::string prefix_;
  std::string changelog_prefix_;
  std::string extension_;
  std::string uuid_;
  std::atomic<int64_t> counter_{0};
};

}  // namespace sluice
