#include "sluice/index/deletion_vector_index_file.h"

#include <cstdint>

#include "sluice/index/deletion_vector_reader.h"

namespace sluice {

Result<DeletionVectorIndexFile> BuildDeletionVectorIndexFile(
    const std::vector<std::pair<std::string, DeletionVector*>>& vectors) {
  DeletionVectorIndexFile file;
  file.content.push_back(static_cast<char>(kDeletionVectorIndexVersion));
  for (const auto& [data_file, dv] : vectors) {
    const std::string entry = dv->Serialize();
    const auto offset = static_cast<int64_t>(file.content.size());
    if (offset + static_cast<int64_t>(entry.size()) > INT32_MAX) {
      return Status::InvalidArgument("deletion-vector index file would exceed 2 GiB at " +
                                     data_file);
    }
    file.ranges.push_back(DeletionVectorMeta{
        data_file, static_cast<int32_t>(offset),
        static_cast<int32_t>(dv->ManifestLength(static_cast<int64_t>(entry.size()))),
        dv->Cardinality()});
    file.content += entry;
  }
  return file;
}

}  // namespace sluice
