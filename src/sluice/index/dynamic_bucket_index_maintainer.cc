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

void DynamicBucketIndexMaintainer::NotifyNewRecords(const int32_t* key_hashes, const int64_t* rows,
                                                    int64_t n) {
  // A few rows ahead: enough to cover a miss to memory (IntHashMap::Prefetch).
  constexpr int64_t kPrefetchDistance = 8;
  for (int64_t i = 0; i < n; ++i) {
    if (i + kPrefetchDistance < n) set_.Prefetch(key_hashes[rows[i + kPrefetchDistance]]);
    NotifyNewRecord(key_hashes[rows[i]]);
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
