// DeletionFile: where one data file's deletion vector lies (an index file, the entry's offset
// and length, and the deleted-row count when the writer recorded it), as the scan planner
// attaches it to a split from the index manifest.
//
// Thread safety: a value type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace sluice {

struct DeletionFile {
  std::string path;  // the index file
  int64_t offset = 0;
  int64_t length = 0;
  std::optional<int64_t> cardinality;  // deleted rows; absent in files of older writers

  bool operator==(const DeletionFile&) const = default;
};

}  // namespace sluice
