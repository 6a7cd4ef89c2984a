// DataFileMeta: what a manifest entry records about one data file (io/DataFileMeta.java).
//
// Thread safety: a value type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sluice/meta/simple_stats.h"
#include "sluice/value.h"

namespace sluice {

// Where a file came from (manifest/FileSource.java).
enum class FileSource : int8_t { kAppend = 0, kCompact = 1 };

struct DataFileMeta {
  std::string file_name;
  int64_t file_size = 0;
  int64_t row_count = 0;
  // Serialized BinaryRows of the smallest and largest trimmed primary key.
  std::string min_key;
  std::string max_key;
  SimpleStats key_stats;
  SimpleStats value_stats;
  int64_t min_sequence_number = 0;
  int64_t max_sequence_number = 0;
  int64_t schema_id = 0;
  int32_t level = 0;
  std::vector<std::string> extra_files;
  // The writer's local wall-clock time encoded as UTC millis (see format-spec 4.7).
  std::optional<Timestamp> creation_time;
  std::optional<int64_t> delete_row_count;
  std::optional<std::string> embedded_file_index;
  std::optional<FileSource> file_source;
  std::optional<std::vector<std::string>> value_stats_cols;
  std::optional<std::string> external_path;
  std::optional<int64_t> first_row_id;
  std::optional<std::vector<std::string>> write_cols;
  std::optional<std::vector<int64_t>> write_cols_sequences;

  bool operator==(const DataFileMeta&) const = default;
};

}  // namespace sluice
