// CrossPartitionBucketAssigner: the bucket a new key of a cross-partition upsert table takes in
// its partition (Java crosspartition.BucketAssigner): per partition, how many keys each bucket
// holds; a new key goes to the smallest owned bucket holding fewer than `target_row_num` keys,
// else to the smallest owned bucket id not used yet. A bucket is owned by this writer when
// Math.abs(bucket % num_assigners) == assign_id (Java GlobalIndexAssigner.isAssignBucket).
// Counts come from the bootstrapped keys and grow with each new key; a key moved out of a
// bucket by a retraction gives its place back (Decrement). There is no bucket bound
// (`dynamic-bucket.max-buckets` is for HASH_DYNAMIC tables only).
//
// Thread safety: not thread-safe; one writer thread.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

namespace sluice {

class CrossPartitionBucketAssigner {
 public:
  CrossPartitionBucketAssigner(int64_t target_row_num, int32_t num_assigners, int32_t assign_id)
      : target_row_num_(target_row_num), num_assigners_(num_assigners), assign_id_(assign_id) {}

  // A bootstrapped key of partition `partition_id` lives in `bucket`.
  void BootstrapBucket(int32_t partition_id, int32_t bucket);
  // The bucket of a new key of partition `partition_id` (counted in).
  int32_t AssignBucket(int32_t partition_id);
  // A key left `bucket` of partition `partition_id`.
  void Decrement(int32_t partition_id, int32_t bucket);

 private:
  bool IsMine(int32_t bucket) const;
  std::map<int32_t, int64_t>& CountsOf(int32_t partition_id);

  int64_t target_row_num_;
  int32_t num_assigners_;
  int32_t assign_id_;
  // By partition id: bucket -> keys it holds, in bucket order (Java's TreeMap).
  std::vector<std::map<int32_t, int64_t>> counts_;
};

}  // namespace sluice
