// MemoryRandomAccessFile: a RandomAccessFile over bytes held in memory, for fuzzers and tests
// that decode a buffer without touching the file system.
//
// Thread safety: immutable after construction; concurrent ReadAt calls are safe.
#pragma once

#include <cstdint>
#include <string>

#include "sluice/fs/file_io.h"

namespace sluice {

class MemoryRandomAccessFile : public RandomAccessFile {
 public:
  MemoryRandomAccessFile(std::string path, std::string data)
      : path_(std::move(path)), data_(std::move(data)) {}

  const std::string& path() const override { return path_; }
  int64_t size() const override { return static_cast<int64_t>(data_.size()); }
  Status ReadAt(int64_t offset, int64_t n, uint8_t* out) const override;

 private:
  std::string path_;
  std::string data_;
};

}  // namespace sluice
