#include "sluice/fs/memory_file.h"

#include <cstring>

namespace sluice {

Status MemoryRandomAccessFile::ReadAt(int64_t offset, int64_t n, uint8_t* out) const {
  if (offset < 0 || n < 0 || offset > size() || n > size() - offset) {
    return Status::Corruption("'" + path_ + "': read of " + std::to_string(n) + " bytes at " +
                              std::to_string(offset) + " past the end of " +
                              std::to_string(size()) + " bytes");
  }
  if (n > 0) std::memcpy(out, data_.data() + offset, static_cast<size_t>(n));
  return Status::OK();
}

}  // namespace sluice
