// FileStorePathFactory: the folder of a partition and bucket of one table (Java
// FileStorePathFactory.bucketPath):
// `<table>/[<data-file.path-directory>/]<k1>=<v1>/.../bucket-<b>`, partition values in Java's
// legacy text form, `partition.default-name` for nulls. The one place the scan, the writers,
// compaction and the checker get a bucket's folder from.
//
// Thread safety: immutable; safe to share across threads.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sluice/meta/core_options.h"
#include "sluice/meta/table_schema.h"
#include "sluice/result.h"
#include "sluice/value.h"

namespace sluice {

class FileStorePathFactory {
 public:
  FileStorePathFactory(std::string table_path, const TableSchema& schema,
                       const CoreOptions& options);

  // The bucket folder for a partition's values, in partition-key order.
  Result<std::string> BucketPath(const ValueList& partition_values, int32_t bucket) const;
  // The bucket folder for a partition as manifests serialise it (a BinaryRow).
  Result<std::string> BucketPathOfSerialized(const std::string& partition, int32_t bucket) const;
  // The partition as a spec: each key with its value as the folder name has it (before
  // escaping), `partition.default-name` for null.
  // (The pairs of a PartitionSpec, which is a type of the public API above this layer.)
  Result<std::vector<std::pair<std::string, std::string>>> PartitionSpecOfSerialized(
      const std::string& partition) const;
  // Where an index file of a bucket lives when it has no external path: the bucket folder with
  // `index-file-in-data-file-dir`, else the table's index/ folder (Java IndexPathFactory).
  Result<std::string> IndexFilePathOfSerialized(const std::string& partition, int32_t bucket,
                                                const std::string& file_name) const;

 private:
  // Each key with its legacy value text (nullopt for null).
  Result<std::vector<std::pair<std::string, std::optional<std::string>>>> PartitionTexts(
      const ValueList& partition_values) const;

  std::string table_path_;
  std::vector<std::string> partition_keys_;
  DataTypePtr partition_type_;
  std::string default_partition_name_;
  std::string data_directory_;
  bool index_in_data_dir_;
};

}  // namespace sluice
