#include "sluice/table/sink/row_key_extractor.h"

#include "sluice/row/binary_row.h"
#include "sluice/row/bucket.h"

namespace sluice {

namespace {

Result<RowProjectionEncoder> EncoderOf(const TableSchema& schema,
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

}  // namespace

Result<RowKeyExtractor> RowKeyExtractor::Make(const TableSchema& schema,
                                              const CoreOptions& options) {
  SLUICE_ASSIGN_OR_RETURN(RowProjectionEncoder partition,
                          EncoderOf(schema, schema.partition_keys()));
  const int32_t num_buckets = options.bucket();
  const bool dynamic = num_buckets == -1 && schema.is_primary_key_table();
  if (dynamic && schema.CrossPartitionUpdate()) {
    return Status::NotSupported(
        "writing a cross-partition upsert table (bucket = -1, a primary key without every "
        "partition key) is not supported; set a fixed `bucket` or put every partition key into "
        "the primary key");
  }
  if (num_buckets == 0 || num_buckets < -1) {
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
  SLUICE_ASSIGN_OR_RETURN(RowProjectionEncoder bucket_key, EncoderOf(schema, bucket_keys));
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
  extractor.mod_key_is_int_ =
      mod && schema.FieldByName(bucket_keys.front())->type->root() == TypeRoot::kInt;
  return extractor;
}

Result<int32_t> RowKeyExtractor::KeyHash(const ColumnBatch& batch, int64_t row) {
  SLUICE_ASSIGN_OR_RETURN(std::string_view bytes, bucket_key_.Encode(batch, row));
  SLUICE_ASSIGN_OR_RETURN(BinaryRowView view, BinaryRowView::Make(bytes, bucket_key_.arity()));
  return view.HashCode();
}

Result<int32_t> RowKeyExtractor::Bucket(const ColumnBatch& batch, int64_t row) {
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
