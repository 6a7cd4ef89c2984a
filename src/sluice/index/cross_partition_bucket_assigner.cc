#include "sluice/index/cross_partition_bucket_assigner.h"

#include <cstdlib>

namespace sluice {

std::map<int32_t, int64_t>& CrossPartitionBucketAssigner::CountsOf(int32_t partition_id) {
  if (static_cast<size_t>(partition_id) >= counts_.size()) {
    counts_.resize(static_cast<size_t>(partition_id) + 1);
  }
  return counts_[static_cast<size_t>(partition_id)];
}

bool CrossPartitionBucketAssigner::IsMine(int32_t bucket) const {
  return std::abs(bucket % num_assigners_) == assign_id_;
}

void CrossPartitionBucketAssigner::BootstrapBucket(int32_t partition_id, int32_t bucket) {
  ++CountsOf(partition_id)[bucket];
}

int32_t CrossPartitionBucketAssigner::AssignBucket(int32_t partition_id) {
  std::map<int32_t, int64_t>& counts = CountsOf(partition_id);
  for (auto& [bucket, count] : counts) {
    if (IsMine(bucket) && count < target_row_num_) {
      ++count;
      return bucket;
    }
  }
  for (int32_t bucket = 0;; ++bucket) {
    if (IsMine(bucket) && counts.find(bucket) == counts.end()) {
      counts[bucket] = 1;
      return bucket;
    }
  }
}

void CrossPartitionBucketAssigner::Decrement(int32_t partition_id, int32_t bucket) {
  std::map<int32_t, int64_t>& counts = CountsOf(partition_id);
  auto it = counts.find(bucket);
  // Java: compute(bucket, v == null ? 0 : v - 1).
  if (it == counts.end()) {
    counts[bucket] = 0;
  } else {
    --it->second;
  }
}

}  // namespace sluice
