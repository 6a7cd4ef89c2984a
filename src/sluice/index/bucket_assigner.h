// Bucket assignment of dynamic-bucket tables (`bucket` = -1, the primary key holding every
// partition key), as Java assigns (index/BucketAssigner, PartitionIndex, HashBucketAssigner,
// SimpleHashBucketAssigner):
//
//   - rows are routed to one of `num_channels` assigners by partition and key hash
//     (ComputeAssigner); an assigner owns the buckets b with b % num_assigners ==
//     assign_id % num_assigners (IsMyBucket), so assigners never share a bucket;
//   - HashBucketAssigner: a key hash already in the partition's hash index keeps its bucket
//     (the index is loaded from the latest snapshot at the partition's first use); a new one
//     goes to the first owned bucket holding fewer than `target_row_num` hashes (in Java's
//     HashMap order), else to the smallest owned bucket id not yet used (below `max_buckets`,
//     or 32767 when it is -1), else, at the bound, to a random owned bucket;
//   - SimpleHashBucketAssigner (overwrite writes): the same from an empty index, filling one
//     bucket at a time.
//
// Thread safety: not thread-safe; one writer thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "sluice/base/int_hash_map.h"
#include "sluice/result.h"

namespace sluice {

// BucketAssigner.isMyBucket.
inline bool IsMyBucket(int32_t bucket, int32_t num_assigners, int32_t assign_id) {
  return bucket % num_assigners == assign_id % num_assigners;
}

// BucketAssigner.computeAssigner: which of `num_channels` assigners takes a key
// (Math.abs(partitionHash % numChannels) + Math.abs(keyHash % numAssigners)) % numChannels.
int32_t ComputeAssigner(int32_t partition_hash, int32_t key_hash, int32_t num_channels,
                        int32_t num_assigners);

struct BucketAssignerOptions {
  // Parallelism of the assigners, the number of them that own buckets
  // (min(`dynamic-bucket.initial-buckets`, num_channels)) and this one's id.
  int32_t num_channels = 1;
  int32_t num_assigners = 1;
  int32_t assign_id = 0;
  int64_t target_row_num = 2000000;  // dynamic-bucket.target-row-num
  int32_t max_buckets = -1;          // dynamic-bucket.max-buckets
};

// The HASH files of one partition: each bucket with the hashes of its file.
struct BucketHashes {
  int32_t bucket = 0;
  std::vector<int32_t> hashes;
};
// Reads the HASH files of a partition (serialized BinaryRow) from the latest snapshot.
using PartitionHashLoader =
    std::function<Result<std::vector<BucketHashes>>(const std::string& partition)>;

class BucketAssigner {
 public:
  virtual ~BucketAssigner() = default;
  // The bucket of a key of `partition` (serialized BinaryRow, whose BinaryRow hash is
  // `partition_hash`) with key hash `key_hash`. InvalidArgument when the key routes to another
  // assigner; an error when no bucket can be opened.
  virtual Result<int32_t> Assign(const std::string& partition, int32_t partition_hash,
                                 int32_t key_hash) = 0;
  // Assign of keys key_hashes[0..n) of one partition, in order, into buckets[0..n): one call
  // per run of a batch's rows, not per row. Stops at the first error.
  virtual Status AssignAll(const std::string& partition, int32_t partition_hash,
                           const int32_t* key_hashes, int64_t n, int32_t* buckets) = 0;
};

// PartitionIndex: hash -> bucket of one partition and the hash counts of the owned buckets.
class PartitionIndex {
 public:
  // `owns_hash`: the hashes routed to this assigner; `owns_bucket`: its buckets.
  static PartitionIndex Load(const std::vector<BucketHashes>& files, int64_t target_row_num,
                             const std::function<bool(int32_t)>& owns_hash,
                             const std::function<bool(int32_t)>& owns_bucket);

  // `max_bucket_id`: the largest bucket the assigner has handed out (in any partition).
  Result<int32_t> Assign(int32_t hash, const std::function<bool(int32_t)>& owns_bucket,
                         int32_t max_buckets, int32_t max_bucket_id, std::mt19937* random);
  // Starts loading where `hash` would be looked up (IntHashMap::Prefetch).
  void Prefetch(int32_t hash) const { hash_to_bucket_.Prefetch(hash); }

 private:
  explicit PartitionIndex(int64_t target_row_num) : target_row_num_(target_row_num) {}
  // HashMap.put of a new key into the non-full buckets (capacity doubling at 3/4 load).
  void PutNonFull(int32_t bucket, int64_t count);

  struct NonFull {
    int32_t bucket;
    int64_t count;
    uint64_t sequence;  // insertion order, the order within a HashMap bin
  };
  int64_t target_row_num_;
  Int2ShortHashMap hash_to_bucket_;
  // Java's nonFullBucketInformation (a HashMap<Integer, Long>) in its iteration order: by bin
  // (bucket & (capacity - 1)), then insertion.
  std::vector<NonFull> non_full_;
  int32_t capacity_ = 0;
  int64_t map_size_ = 0;
  uint64_t next_sequence_ = 0;
  std::unordered_set<int32_t> total_buckets_;
  std::vector<int32_t> total_bucket_list_;
};

class HashBucketAssigner final : public BucketAssigner {
 public:
  HashBucketAssigner(BucketAssignerOptions options, PartitionHashLoader loader);
  Result<int32_t> Assign(const std::string& partition, int32_t partition_hash,
                         int32_t key_hash) override;
  Status AssignAll(const std::string& partition, int32_t partition_hash, const int32_t* key_hashes,
                   int64_t n, int32_t* buckets) override;

 private:
  // The index of `partition`, loaded at its first use.
  Result<PartitionIndex*> IndexOf(const std::string& partition, int32_t partition_hash);
  Result<int32_t> AssignIn(PartitionIndex* index, int32_t partition_hash, int32_t key_hash,
                           const std::function<bool(int32_t)>& owns_bucket);

  BucketAssignerOptions options_;
  PartitionHashLoader loader_;
  std::unordered_map<std::string, PartitionIndex> partitions_;
  // The partition of the previous call: a batch's rows mostly share one.
  std::string last_partition_;
  PartitionIndex* last_index_ = nullptr;
  int32_t max_bucket_id_ = 0;
  std::mt19937 random_;
};

class SimpleHashBucketAssigner final : public BucketAssigner {
 public:
  explicit SimpleHashBucketAssigner(BucketAssignerOptions options);
  Result<int32_t> Assign(const std::string& partition, int32_t partition_hash,
                         int32_t key_hash) override;
  Status AssignAll(const std::string& partition, int32_t partition_hash, const int32_t* key_hashes,
                   int64_t n, int32_t* buckets) override;

 private:
  struct Partition {
    Int2ShortHashMap hash_to_bucket;
    std::unordered_map<int32_t, int64_t> counts;
    std::vector<int32_t> buckets;  // Java bucketList: what random picks choose from
    int32_t current = 0;
  };
  Status LoadNewBucket(Partition* p) const;

  BucketAssignerOptions options_;
  std::unordered_map<std::string, Partition> partitions_;
  int32_t max_bucket_id_ = 0;
  std::mt19937 random_;
};

}  // namespace sluice
