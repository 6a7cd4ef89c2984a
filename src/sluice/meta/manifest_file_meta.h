// ManifestFileMeta: one manifest list record, describing one manifest file
// (manifest/ManifestFileMeta.java).
//
// Thread safety: a value type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "sluice/meta/simple_stats.h"

namespace sluice {

struct ManifestFileMeta {
  std::string file_name;
  int64_t file_size = 0;
  int64_t num_added_files = 0;
  int64_t num_deleted_files = 0;
  // Stats of the partition columns over the manifest's entries.
  SimpleStats partition_stats;
  int64_t schema_id = 0;
  // Pruning hints (1.1+ / 1.4+ writers); absent = unknown.
  std::optional<int32_t> min_bucket;
  std::optional<int32_t> max_bucket;
  std::optional<int32_t> min_level;
  std::optional<int32_t> max_level;
  std::optional<int64_t> min_row_id;
  std::optional<int64_t> max_row_id;

  bool operator==(const ManifestFileMeta&) const = default;
};

}  // namespace sluice
