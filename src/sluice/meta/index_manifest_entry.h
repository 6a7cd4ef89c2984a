// IndexManifestEntry: one index file (deletion vectors, hash index, global index) in the index
// manifest (manifest/IndexManifestEntry.java, index/IndexFileMeta.java).
//
// Thread safety: a value type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sluice/meta/manifest_entry.h"

namespace sluice {

// Where one data file's deletion vector lies inside a deletion-vector index file.
struct DeletionVectorMeta {
  std::string data_file_name;
  int32_t offset = 0;
  int32_t length = 0;
  std::optional<int64_t> cardinality;

  bool operator==(const DeletionVectorMeta&) const = default;
};

struct GlobalIndexMeta {
  int64_t row_range_start = 0;
  int64_t row_range_end = 0;
  int32_t index_field_id = 0;
  std::optional<std::vector<int32_t>> extra_field_ids;
  std::optional<std::string> index_meta;
  std::optional<std::string> source_meta;

  bool operator==(const GlobalIndexMeta&) const = default;
};

struct IndexManifestEntry {
  FileKind kind = FileKind::kAdd;
  std::string partition;
  int32_t bucket = 0;
  std::string index_type;
  std::string file_name;
  int64_t file_size = 0;
  int64_t row_count = 0;
  std::optional<std::vector<DeletionVectorMeta>> deletion_vectors;
  std::optional<std::string> external_path;
  std::optional<GlobalIndexMeta> global_index;

  bool operator==(const IndexManifestEntry&) const = default;
};

}  // namespace sluice
