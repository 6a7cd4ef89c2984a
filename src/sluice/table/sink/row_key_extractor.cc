#include "sluice/table/sink/row_key_extractor.h"

#include <cstring>

#include "sluice/base/murmur_hash.h"
#include "sluice/meta/file_paths.h"
#include "sluice/row/binary_row.h"
#include "sluice/row/bucket.h"

namespace sluice {

Result<RowProjectionEncoder> ProjectionEncoderOf(const TableSchema& schema,
                                                 const std::vector<std::string>& names) {
  std::vector<int> columns;
  std::vector<DataTypePtr> types;
  for (const std::string& name : names) {
    const int index = schema.FieldIndex(name);
    if (index < 0) return Status::InvalidArgument("column '" + name + "' is not in the schema");
    columns.push_back(index);
    types.push_back(schema.fields()[static_cast<size_t>(index)].type);
  }
  return RowProjectionEncoder(std::move(columns), std::move(types));
}

Result<RowKeyExtractor> RowKeyExtractor::Make(const TableSchema& schema,
                                              const CoreOptions& options) {
  SLUICE_ASSIGN_OR_RETURN(RowProjectionEncoder partition,
                          ProjectionEncoderOf(schema, schema.partition_keys()));
  const int32_t num_buckets = options.bucket();
  // HASH_DYNAMIC; a primary key lacking a partition key makes it KEY_DYNAMIC (cross-partition
  // upsert), whose buckets the GlobalIndexAssigner picks.
  const bool cross_partition =
      num_buckets == -1 && schema.is_primary_key_table() && schema.CrossPartitionUpdate();
  const bool dynamic = num_buckets == -1 && schema.is_primary_key_table() && !cross_partition;
  const bool postpone = num_buckets == kPostponeBucket && schema.is_primary_key_table();
  if (num_buckets == 0 || (num_buckets < -1 && !postpone)) {
    return Status::NotSupported("writing tables with bucket = " + std::to_string(num_buckets) +
                                " is not supported");
  }
  bool mod = false;
  if (const std::string* function = options.Find("bucket-function.type")) {
    if (*function == "mod") {
      mod = true;
    } else if (*function != "default") {
      return Status::NotSupported("bucket-function.type '" + *function + "' is not supported");
    }
  }
  // Dynamic buckets hash the trimmed primary key (the bucket key: `bucket-key` is refused
  // with bucket = -1).
  std::vector<std::string> bucket_keys =
      num_buckets > 0 || dynamic ? schema.bucket_keys() : std::vector<std::string>{};
  if (num_buckets > 0 && bucket_keys.empty()) {
    return Status::InvalidArgument("a table with bucket = " + std::to_string(num_buckets) +
                                   " needs a bucket-key or a primary key");
  }
  SLUICE_ASSIGN_OR_RETURN(RowProjectionEncoder bucket_key,
                          ProjectionEncoderOf(schema, bucket_keys));
  if (mod) {
    const DataField* f = schema.FieldByName(bucket_keys.front());
    if (bucket_keys.size() != 1 ||
        (f->type->root() != TypeRoot::kInt && f->type->root() != TypeRoot::kBigInt)) {
      return Status::InvalidArgument(
          "bucket-function.type 'mod' needs a single INT or BIGINT bucket key");
    }
  }
  RowKeyExtractor extractor(std::move(partition), std::move(bucket_key), num_buckets, mod);
  extractor.dynamic_ = dynamic;
  extractor.cross_partition_ = cross_partition;
  extractor.postpone_ = postpone;
  extractor.mod_key_is_int_ =
      mod && schema.FieldByName(bucket_keys.front())->type->root() == TypeRoot::kInt;
  return extractor;
}

Result<int32_t> RowKeyExtractor::KeyHash(const ColumnBatch& batch, int64_t row) {
  SLUICE_ASSIGN_OR_RETURN(std::string_view bytes, bucket_key_.Encode(batch, row));
  SLUICE_ASSIGN_OR_RETURN(BinaryRowView view, BinaryRowView::Make(bytes, bucket_key_.arity()));
  return view.HashCode();
}

Status RowKeyExtractor::KeyHashes(const ColumnBatch& batch, std::vector<int32_t>* out) {
  const int64_t n = batch.num_rows();
  out->resize(static_cast<size_t>(n));
  const ColumnVector* key =
      bucket_key_.arity() == 1 ? batch.column(bucket_key_.columns().front()) : nullptr;
  if (key != nullptr && !key->has_nulls() &&
      (key->kind() == PhysicalKind::kInt64 || key->kind() == PhysicalKind::kInt32)) {
    // The BinaryRow of one non-null fixed-width field: 8 bytes of header and null bits (all
    // zero), then the value in an 8-byte slot (an INT in its low 4 bytes, the rest zero).
    uint8_t row[16] = {};
    const bool wide = key->kind() == PhysicalKind::kInt64;
    for (int64_t i = 0; i < n; ++i) {
      if (wide) {
        std::memcpy(row + 8, key->data<int64_t>() + i, sizeof(int64_t));
      } else {
        std::memcpy(row + 8, key->data<int32_t>() + i, sizeof(int32_t));
      }
      (*out)[static_cast<size_t>(i)] = MurmurHashWords(row, sizeof(row));
    }
    return Status::OK();
  }
  for (int64_t i = 0; i < n; ++i) {
    SLUICE_ASSIGN_OR_RETURN((*out)[static_cast<size_t>(i)], KeyHash(batch, i));
  }
  return Status::OK();
}

Result<int32_t> RowKeyExtractor::Bucket(const ColumnBatch& batch, int64_t row) {
  // Java PostponeBucketRowKeyExtractor: every row waits in the postpone bucket.
  if (postpone_) return kPostponeBucket;
  // One bucket (or none): every hash lands in bucket 0.
  if (num_buckets_ <= 1) return 0;
  SLUICE_ASSIGN_OR_RETURN(std::string_view bytes, bucket_key_.Encode(batch, row));
  if (mod_function_) {
    SLUICE_ASSIGN_OR_RETURN(BinaryRowView view, BinaryRowView::Make(bytes, 1));
    if (view.IsNullAt(0)) return Status::InvalidArgument("bucket key is null under 'mod'");
    const int64_t key = mod_key_is_int_ ? view.GetInt(0) : view.GetLong(0);
    return ModBucket(key, num_buckets_);
  }
  SLUICE_ASSIGN_OR_RETURN(BinaryRowView view, BinaryRowView::Make(bytes, bucket_key_.arity()));
  return DefaultBucket(view, num_buckets_);
}

}  // namespace sluice
