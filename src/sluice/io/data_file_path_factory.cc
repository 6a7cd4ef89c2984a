#include "sluice/io/data_file_path_factory.h"

#include "sluice/base/uuid.h"
#include "sluice/meta/file_paths.h"

namespace sluice {

DataFilePathFactory::DataFilePathFactory(std::string bucket_path, const CoreOptions& options)
    : bucket_path_(std::move(bucket_path)),
      prefix_(options.data_file_prefix()),
      changelog_prefix_(options.changelog_file_prefix()),
      extension_(DataFileExtension(options.file_format(), options.file_compression(),
                                   options.file_suffix_include_compression())),
      uuid_(NewUuidV4()) {}

std::string DataFilePathFactory::NewDataFileName() {
  return DataFileName(prefix_, uuid_, counter_.fetch_add(1), extension_);
}

std::string DataFilePathFactory::NewChangelogFileName() {
  return DataFileName(changelog_prefix_, uuid_, counter_.fetch_add(1), extension_);
}

}  // namespace sluice
