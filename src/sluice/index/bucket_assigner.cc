#include "sluice/index/bucket_assigner.h"

#include <algorithm>

namespace sluice {

namespace {

// How many keys ahead AssignAll prefetches: enough to cover a miss to memory, few enough that
// the prefetched lines stay in the cache.
constexpr int64_t kPrefetchDistance = 8;

// Bucket ids are stored as Java shorts: at most Short.MAX_VALUE of them.
constexpr int32_t kMaxBucketIds = 32767;

int32_t JavaAbsRemainder(int32_t value, int32_t divisor) {
  const int32_t r = value % divisor;
  return r < 0 ? -r : r;
}

}  // namespace

int32_t ComputeAssigner(int32_t partition_hash, int32_t key_hash, int32_t num_channels,
                        int32_t num_assigners) {
  return (JavaAbsRemainder(partition_hash, num_channels) +
          JavaAbsRemainder(key_hash, num_assigners)) %
         num_channels;
}

PartitionIndex PartitionIndex::Load(const std::vector<BucketHashes>& files, int64_t target_row_num,
                                    const std::function<bool(int32_t)>& owns_hash,
                                    const std::function<bool(int32_t)>& owns_bucket) {
  PartitionIndex index(target_row_num);
  // Java counts every hash of an owned bucket's file (routed here or not), in a HashMap whose
  // keys are put at each file's first hash.
  std::unordered_map<int32_t, size_t> position;
  size_t total = 0;
  for (const BucketHashes& file : files) total += file.hashes.size();
  index.hash_to_bucket_.Reserve(total);
  for (const BucketHashes& file : files) {
    for (int32_t hash : file.hashes) {
      if (owns_hash(hash)) index.hash_to_bucket_.Put(hash, static_cast<int16_t>(file.bucket));
    }
    if (!owns_bucket(file.bucket) || file.hashes.empty()) continue;
    auto it = position.find(file.bucket);
    if (it != position.end()) {
      index.non_full_[it->second].count += static_cast<int64_t>(file.hashes.size());
      continue;
    }
    index.PutNonFull(file.bucket, static_cast<int64_t>(file.hashes.size()));
    position.clear();
    for (size_t i = 0; i < index.non_full_.size(); ++i) position[index.non_full_[i].bucket] = i;
  }
  // totalBucketSet: a LinkedHashSet over the map's keys in its iteration order.
  for (const NonFull& b : index.non_full_) {
    index.total_buckets_.insert(b.bucket);
    index.total_bucket_list_.push_back(b.bucket);
  }
  return index;
}

void PartitionIndex::PutNonFull(int32_t bucket, int64_t count) {
  if (capacity_ == 0) capacity_ = 16;
  non_full_.push_back(NonFull{bucket, count, next_sequence_++});
  if (++map_size_ > capacity_ / 4 * 3) capacity_ *= 2;
  const int32_t mask = capacity_ - 1;
  std::sort(non_full_.begin(), non_full_.end(), [mask](const NonFull& a, const NonFull& b) {
    const int32_t bin_a = a.bucket & mask;
    const int32_t bin_b = b.bucket & mask;
    return bin_a != bin_b ? bin_a < bin_b : a.sequence < b.sequence;
  });
}

Result<int32_t> PartitionIndex::Assign(int32_t hash,
                                       const std::function<bool(int32_t)>& owns_bucket,
                                       int32_t max_buckets, int32_t max_bucket_id,
                                       std::mt19937* random) {
  // 1. A key seen before keeps its bucket.
  if (const int16_t* bucket = hash_to_bucket_.Find(hash)) return *bucket;
  // 2. The first owned bucket that is not full; full ones leave the candidates.
  for (auto it = non_full_.begin(); it != non_full_.end();) {
    if (it->count < target_row_num_) {
      ++it->count;
      hash_to_bucket_.Put(hash, static_cast<int16_t>(it->bucket));
      return it->bucket;
    }
    it = non_full_.erase(it);
    --map_size_;
  }
  // 3. A new bucket: the smallest owned id not used yet.
  const int32_t global_max_bucket_id = (max_buckets == -1 ? kMaxBucketIds : max_buckets) - 1;
  if (total_buckets_.empty() || max_bucket_id < global_max_bucket_id) {
    for (int32_t i = 0; i <= global_max_bucket_id; ++i) {
      if (!owns_bucket(i) || total_buckets_.count(i) != 0) continue;
      PutNonFull(i, 1);
      total_buckets_.insert(i);
      total_bucket_list_.push_back(i);
      hash_to_bucket_.Put(hash, static_cast<int16_t>(i));
      return i;
    }
    if (max_buckets == -1) {
      return Status::InvalidArgument("Too more bucket " + std::to_string(max_bucket_id) +
                                     ", you should increase target bucket row number " +
                                     std::to_string(target_row_num_) +
                                     " ('dynamic-bucket.target-row-num')");
    }
  }
  // 4. At the bound: a random owned bucket.
  if (total_bucket_list_.empty()) {
    return Status::InvalidArgument("no bucket can take a new key: 'dynamic-bucket.max-buckets' = " +
                                   std::to_string(max_buckets) +
                                   " leaves this assigner no bucket of its own");
  }
  std::uniform_int_distribution<size_t> pick(0, total_bucket_list_.size() - 1);
  const int32_t bucket = total_bucket_list_[pick(*random)];
  hash_to_bucket_.Put(hash, static_cast<int16_t>(bucket));
  return bucket;
}

HashBucketAssigner::HashBucketAssigner(BucketAssignerOptions options, PartitionHashLoader loader)
    : options_(options), loader_(std::move(loader)), random_(std::random_device{}()) {}

Result<int32_t> HashBucketAssigner::Assign(const std::string& partition, int32_t partition_hash,
                                           int32_t key_hash) {
  SLUICE_ASSIGN_OR_RETURN(PartitionIndex * index, IndexOf(partition, partition_hash));
  const BucketAssignerOptions& o = options_;
  return AssignIn(index, partition_hash, key_hash, [&o](int32_t bucket) {
    return IsMyBucket(bucket, o.num_assigners, o.assign_id);
  });
}

Status HashBucketAssigner::AssignAll(const std::string& partition, int32_t partition_hash,
                                     const int32_t* key_hashes, int64_t n, int32_t* buckets) {
  SLUICE_ASSIGN_OR_RETURN(PartitionIndex * index, IndexOf(partition, partition_hash));
  const BucketAssignerOptions& o = options_;
  const std::function<bool(int32_t)> owns_bucket = [&o](int32_t bucket) {
    return IsMyBucket(bucket, o.num_assigners, o.assign_id);
  };
  for (int64_t i = 0; i < std::min(n, kPrefetchDistance); ++i) index->Prefetch(key_hashes[i]);
  for (int64_t i = 0; i < n; ++i) {
    if (i + kPrefetchDistance < n) index->Prefetch(key_hashes[i + kPrefetchDistance]);
    SLUICE_ASSIGN_OR_RETURN(buckets[i],
                            AssignIn(index, partition_hash, key_hashes[i], owns_bucket));
  }
  return Status::OK();
}

Result<int32_t> HashBucketAssigner::AssignIn(PartitionIndex* index, int32_t partition_hash,
                                             int32_t key_hash,
                                             const std::function<bool(int32_t)>& owns_bucket) {
  const BucketAssignerOptions& o = options_;
  const int32_t assigner =
      ComputeAssigner(partition_hash, key_hash, o.num_channels, o.num_assigners);
  if (assigner != o.assign_id) {
    return Status::InvalidArgument(
        "a key with hash " + std::to_string(key_hash) + " belongs to bucket assigner " +
        std::to_string(assigner) + " of " + std::to_string(o.num_channels) +
        ", not to this writer (assigner " + std::to_string(o.assign_id) + ")");
  }
  SLUICE_ASSIGN_OR_RETURN(int32_t bucket, index->Assign(key_hash, owns_bucket, o.max_buckets,
                                                        max_bucket_id_, &random_));
  max_bucket_id_ = std::max(max_bucket_id_, bucket);
  return bucket;
}

Result<PartitionIndex*> HashBucketAssigner::IndexOf(const std::string& partition,
                                                    int32_t partition_hash) {
  const BucketAssignerOptions& o = options_;
  if (last_index_ == nullptr || last_partition_ != partition) {
    auto owns_bucket = [&o](int32_t bucket) {
      return IsMyBucket(bucket, o.num_assigners, o.assign_id);
    };
    auto it = partitions_.find(partition);
    if (it == partitions_.end()) {
      SLUICE_ASSIGN_OR_RETURN(std::vector<BucketHashes> files, loader_(partition));
      auto owns_hash = [&o, partition_hash](int32_t hash) {
        return ComputeAssigner(partition_hash, hash, o.num_channels, o.num_assigners) ==
               o.assign_id;
      };
      it = partitions_
               .emplace(partition,
                        PartitionIndex::Load(files, o.target_row_num, owns_hash, owns_bucket))
               .first;
    }
    last_partition_ = partition;
    last_index_ = &it->second;
  }
  return last_index_;
}

SimpleHashBucketAssigner::SimpleHashBucketAssigner(BucketAssignerOptions options)
    : options_(options), random_(std::random_device{}()) {}

Status SimpleHashBucketAssigner::AssignAll(const std::string& partition, int32_t partition_hash,
                                           const int32_t* key_hashes, int64_t n, int32_t* buckets) {
  for (int64_t i = 0; i < n; ++i) {
    SLUICE_ASSIGN_OR_RETURN(buckets[i], Assign(partition, partition_hash, key_hashes[i]));
  }
  return Status::OK();
}

Status SimpleHashBucketAssigner::LoadNewBucket(Partition* p) const {
  for (int32_t i = 0; i < kMaxBucketIds; ++i) {
    if (!IsMyBucket(i, options_.num_assigners, options_.assign_id) || p->counts.count(i) != 0) {
      continue;
    }
    // Past the bound the current bucket stays (and takes the key), as in Java.
    if (options_.max_buckets == -1 || i <= options_.max_buckets - 1) p->current = i;
    return Status::OK();
  }
  return Status::InvalidArgument(
      "Can't find a suitable bucket to assign, all the bucket are assigned?");
}

Result<int32_t> SimpleHashBucketAssigner::Assign(const std::string& partition, int32_t,
                                                 int32_t key_hash) {
  auto it = partitions_.find(partition);
  if (it == partitions_.end()) {
    it = partitions_.emplace(partition, Partition{}).first;
    SLUICE_RETURN_NOT_OK(LoadNewBucket(&it->second));
  }
  Partition& p = it->second;
  if (const int16_t* bucket = p.hash_to_bucket.Find(key_hash)) return *bucket;
  auto [count, inserted] = p.counts.emplace(p.current, 0);
  if (inserted) p.buckets.push_back(p.current);
  if (count->second >= options_.target_row_num) {
    if (options_.max_buckets == -1 || p.counts.empty() ||
        max_bucket_id_ < options_.max_buckets - 1) {
      SLUICE_RETURN_NOT_OK(LoadNewBucket(&p));
    } else {
      std::uniform_int_distribution<size_t> pick(0, p.buckets.size() - 1);
      p.current = p.buckets[pick(random_)];
    }
  }
  // Java's compute(): a bucket opened here is counted but, unlike the first, never joins the
  // list random picks choose from.
  ++p.counts[p.current];
  p.hash_to_bucket.Put(key_hash, static_cast<int16_t>(p.current));
  max_bucket_id_ = std::max(max_bucket_id_, p.current);
  return p.current;
}

}  // namespace sluice
