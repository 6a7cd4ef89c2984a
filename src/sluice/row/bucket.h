// Bucket functions of fixed-bucket tables (`bucket` = N > 0): which bucket-<b> directory a row
// belongs to, computed from the BinaryRow of its bucket key exactly as Java does.
//
//   default (DefaultBucketFunction): Math.abs(row.hashCode() % N), hashCode = MurmurHash3 words
//     over the bucket-key BinaryRow (header byte 0), seed 42.
//   mod (ModBucketFunction, 1.3+): Math.floorMod(key, N) of a single INT or BIGINT key.
//
// The bucket key is the `bucket-key` option, else the trimmed primary key (primary key minus
// partition columns), in that order, with the table's column types.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <string_view>

#include "sluice/data_type.h"
#include "sluice/result.h"
#include "sluice/row/binary_row.h"
#include "sluice/value.h"

namespace sluice {

// Java's `Math.abs(hash % num_buckets)`: `%` truncates toward zero, then the absolute value.
// REQUIRES: num_buckets > 0.
inline int32_t BucketOfHash(int32_t hash, int32_t num_buckets) {
  const int32_t r = hash % num_buckets;
  return r < 0 ? -r : r;
}

// DefaultBucketFunction.bucket of a bucket-key row. REQUIRES: num_buckets > 0.
inline int32_t DefaultBucket(const BinaryRowView& bucket_key, int32_t num_buckets) {
  return BucketOfHash(bucket_key.HashCode(), num_buckets);
}

// ModBucketFunction.bucket: Math.floorMod(key, num_buckets), never negative.
// REQUIRES: num_buckets > 0.
inline int32_t ModBucket(int64_t key, int32_t num_buckets) {
  const int64_t r = key % num_buckets;
  return static_cast<int32_t>(r < 0 ? r + num_buckets : r);
}

// Encodes `key` (one Value per field of `key_type`, a ROW type) as a BinaryRow and returns its
// default bucket. num_buckets <= 0 is InvalidArgument. Allocates; a per-row hot path should keep
// a BinaryWriter and call DefaultBucket on its bytes instead.
Result<int32_t> DefaultBucketOfKey(const ValueList& key, const DataType& key_type,
                                   int32_t num_buckets);

}  // namespace sluice
