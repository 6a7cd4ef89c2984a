// RowKeyExtractor: the partition and bucket of each input row, exactly as Java computes them
// (FixedBucketRowKeyExtractor, UnawareBucketRowKeyExtractor, RowPartitionKeyExtractor):
//
//   partition  a BinaryRow of the partition columns (header 0), as manifests store it;
//   key hash   `bucket = -1` primary-key tables (dynamic bucket): the BinaryRow hash of the
//              trimmed primary key (KeyAndBucketExtractor.bucketKeyHashCode), which the bucket
//              assigner maps to a bucket; cross-partition upsert tables (the primary key lacks
//              a partition key) have their buckets from the GlobalIndexAssigner instead;
//   bucket     `bucket = -1` append tables: 0; `bucket = -2` primary-key tables (postpone
//              bucket): -2, every row; `bucket = N`: the bucket function
//              (`bucket-function.type` default: Math.abs(hash % N) of the bucket-key BinaryRow;
//              mod: floorMod of a single INT / BIGINT key) over the bucket key (`bucket-key`,
//              else the trimmed primary key).
//
// Rows are encoded by RowProjectionEncoder (batch/row_projection_encoder.h).
//
// Thread safety: not thread-safe (reuses its row writers).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/batch/row_projection_encoder.h"
#include "sluice/column_batch.h"
#include "sluice/meta/core_options.h"
#include "sluice/meta/table_schema.h"
#include "sluice/result.h"

namespace sluice {

// The encoder of the columns `names` of rows of `schema`'s columns; InvalidArgument naming a
// missing one.
Result<RowProjectionEncoder> ProjectionEncoderOf(const TableSchema& schema,
                                                 const std::vector<std::string>& names);

class RowKeyExtractor {
 public:
  static Result<RowKeyExtractor> Make(const TableSchema& schema, const CoreOptions& options);

  // The partition row bytes (not serialized) of batch row `row`.
  Result<std::string_view> Partition(const ColumnBatch& batch, int64_t row) {
    return partition_.Encode(batch, row);
  }
  Result<int32_t> Bucket(const ColumnBatch& batch, int64_t row);
  // Dynamic-bucket tables: the hash of the row's trimmed primary key.
  Result<int32_t> KeyHash(const ColumnBatch& batch, int64_t row);
  // KeyHash of every row of `batch` into `out`, column at a time: a single non-null INT or
  // BIGINT key (the common case) is hashed from its column without encoding a row.
  Status KeyHashes(const ColumnBatch& batch, std::vector<int32_t>* out);
  bool dynamic_bucket() const { return dynamic_; }
  // `bucket = -1` with a primary key lacking a partition key (Java KEY_DYNAMIC).
  bool cross_partition() const { return cross_partition_; }
  // `bucket = -2` primary-key tables (Java BucketMode.POSTPONE_MODE).
  bool postpone_bucket() const { return postpone_; }

  int partition_arity() const { return partition_.arity(); }
  // The table's `bucket` option (the `_TOTAL_BUCKETS` of new files).
  int32_t num_buckets() const { return num_buckets_; }

 private:
  RowKeyExtractor(RowProjectionEncoder partition, RowProjectionEncoder bucket_key,
                  int32_t num_buckets, bool mod_function)
      : partition_(std::move(partition)),
        bucket_key_(std::move(bucket_key)),
        num_buckets_(num_buckets),
        mod_function_(mod_function) {}

  RowProjectionEncoder partition_;
  RowProjectionEncoder bucket_key_;
  int32_t num_buckets_;
  bool mod_function_;
  bool mod_key_is_int_ = false;
  bool dynamic_ = false;
  bool cross_partition_ = false;
  bool postpone_ = false;
};

}  // namespace sluice
