// ManifestEntry: one ADD or DELETE of a data file in a manifest (manifest/ManifestEntry.java).
//
// Thread safety: a value type.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sluice/meta/data_file_meta.h"

namespace sluice {

enum class FileKind : int8_t { kAdd = 0, kDelete = 1 };

std::string_view FileKindName(FileKind kind);

struct ManifestEntry {
  FileKind kind = FileKind::kAdd;
  // Serialized BinaryRow of the partition values.
  std::string partition;
  int32_t bucket = 0;
  int32_t total_buckets = 0;
  DataFileMeta file;

  bool operator==(const ManifestEntry&) const = default;
};

}  // namespace sluice
