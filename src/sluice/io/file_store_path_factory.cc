#include "sluice/io/file_store_path_factory.h"

#include <optional>
#include <utility>
#include <vector>

#include "sluice/base/string_util.h"
#include "sluice/fs/file_io.h"
#include "sluice/meta/file_paths.h"
#include "sluice/row/binary_row.h"

namespace sluice {

FileStorePathFactory::FileStorePathFactory(std::string table_path, const TableSchema& schema,
                                           const CoreOptions& options)
    : table_path_(std::move(table_path)),
      partition_keys_(schema.partition_keys()),
      partition_type_(schema.LogicalPartitionType()),
      default_partition_name_(options.partition_default_name()),
      data_directory_(options.data_file_path_directory().value_or(std::string())),
      index_in_data_dir_(options.Find("index-file-in-data-file-dir") != nullptr &&
                         AsciiToLower(*options.Find("index-file-in-data-file-dir")) == "true") {}

Result<std::string> FileStorePathFactory::IndexFilePathOfSerialized(
    const std::string& partition, int32_t bucket, const std::string& file_name) const {
  if (!index_in_data_dir_) return IndexFilePath(table_path_, file_name);
  SLUICE_ASSIGN_OR_RETURN(std::string bucket_path, BucketPathOfSerialized(partition, bucket));
  return JoinPath(bucket_path, file_name);
}

Result<std::string> FileStorePathFactory::BucketPath(const ValueList& partition_values,
                                                     int32_t bucket) const {
  if (partition_values.size() != partition_keys_.size()) {
    return Status::InvalidArgument("a partition of table " + table_path_ + " has " +
                                   std::to_string(partition_values.size()) + " values, expected " +
                                   std::to_string(partition_keys_.size()));
  }
  SLUICE_ASSIGN_OR_RETURN(auto spec, PartitionTexts(partition_values));
  return sluice::BucketPath(table_path_, PartitionPath(spec, default_partition_name_), bucket,
                            data_directory_);
}

Result<std::vector<std::pair<std::string, std::optional<std::string>>>>
FileStorePathFactory::PartitionTexts(const ValueList& partition_values) const {
  std::vector<std::pair<std::string, std::optional<std::string>>> spec;
  for (size_t i = 0; i < partition_keys_.size(); ++i) {
    SLUICE_ASSIGN_OR_RETURN(
        std::optional<std::string> text,
        LegacyPartitionValueText(partition_values[i], *partition_type_->fields()[i].type));
    spec.emplace_back(partition_keys_[i], std::move(text));
  }
  return spec;
}

Result<std::vector<std::pair<std::string, std::string>>>
FileStorePathFactory::PartitionSpecOfSerialized(const std::string& partition) const {
  std::vector<std::pair<std::string, std::string>> spec;
  if (partition_keys_.empty()) return spec;
  SLUICE_ASSIGN_OR_RETURN(ValueList values, DecodeSerializedBinaryRow(partition, *partition_type_));
  SLUICE_ASSIGN_OR_RETURN(auto texts, PartitionTexts(values));
  for (auto& [key, text] : texts) {
    spec.emplace_back(key, PartitionValueText(text, default_partition_name_));
  }
  return spec;
}

Result<std::string> FileStorePathFactory::BucketPathOfSerialized(const std::string& partition,
                                                                 int32_t bucket) const {
  if (partition_keys_.empty()) return BucketPath(ValueList{}, bucket);
  SLUICE_ASSIGN_OR_RETURN(ValueList values, DecodeSerializedBinaryRow(partition, *partition_type_));
  return BucketPath(values, bucket);
}

}  // namespace sluice
