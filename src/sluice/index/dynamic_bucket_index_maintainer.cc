#include "sluice/index/dynamic_bucket_index_maintainer.h"

namespace sluice {

DynamicBucketIndexMaintainer::DynamicBucketIndexMaintainer(
    std::optional<IndexManifestEntry> restored, const std::vector<int32_t>& hashes)
    : current_(std::move(restored)) {
  set_.Reserve(hashes.size());
  for (int32_t h : hashes) {
    if (set_.Add(h)) hashes_.push_back(h);
  }
}

Result<DynamicBucketIndexMaintainer::Increment> DynamicBucketIndexMaintainer::PrepareCommit(
    const FileWriter& write) {
  Increment increment;
  if (!modified_) return increment;
  SLUICE_ASSIGN_OR_RETURN(IndexManifestEntry written, write(hashes_));
  if (current_) {
    IndexManifestEntry replaced = *current_;
    replaced.kind = FileKind::kDelete;
    increment.deleted_files.push_back(std::move(replaced));
  }
  increment.new_files.push_back(written);
  current_ = std::move(written);
  modified_ = false;
  return increment;
}

}  // namespace sluice
