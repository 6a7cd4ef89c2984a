// DataSplit: the unit of work a scan plan hands to a reader (Java DataSplit): the data files
// of one bucket of one partition at one snapshot, with their resolved paths and, for tables
// with deletion vectors, where each file's deletion vector lies.
//
// Thread safety: a value type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sluice/index/deletion_file.h"
#include "sluice/meta/data_file_meta.h"
#include "sluice/value.h"

namespace sluice {

struct DataSplit {
  int64_t snapshot_id = 0;
  // Serialized BinaryRow (4-byte big-endian arity + row) as in manifests, and its values in
  // partition-key order.
  std::string partition;
  ValueList partition_values;
  int32_t bucket = 0;
  // The table's bucket count when the files were written (manifest `_TOTAL_BUCKETS`).
  int32_t total_buckets = 0;
  // `<table>/[<data-file.path-directory>/]<partition path>bucket-<b>`.
  std::string bucket_path;
  // Ordered: append tables by sequence number; primary-key tables by level, then sequence.
  std::vector<DataFileMeta> data_files;
  // Where each data file is (aligned with data_files): the external path when recorded, else
  // under bucket_path.
  std::vector<std::string> data_file_paths;
  // Aligned with data_files when the table has deletion vectors; empty otherwise.
  std::vector<std::optional<DeletionFile>> deletion_files;
  // The files can be read as they are, without merging (Java rawConvertible).
  bool raw_convertible = false;
  // A delta split of a streaming read: its files are read as they are, every row with its
  // row kind, never merged (Java DataSplit.isStreaming).
  bool is_streaming = false;
  // The split comes from the fallback branch (`scan.fallback-branch`).
  bool from_fallback_branch = false;
  // A diff split (Java IncrementalSplit, diff_scan.h): the bucket's files at the earlier
  // version, with their paths and deletion files; read as the difference between their merged
  // rows and those of data_files (diff_split_reader.h).
  bool is_diff = false;
  std::vector<DataFileMeta> before_files;
  std::vector<std::string> before_file_paths;
  std::vector<std::optional<DeletionFile>> before_deletion_files;

  int64_t RowCount() const;
};

}  // namespace sluice
