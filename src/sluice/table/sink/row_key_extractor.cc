#include "sluice/table/sink/row_key_extractor.h"

#include "sluice/meta/file_paths.h"

#include "sluice/row/binary_row.h"
#include "sluice/row/bucket.h"

namespace sluice {

namespace {

std::vector<DataField> FieldsOf(const std::vector<int>& columns,
                                const std::vector<DataTypePtr>& types) {
  std::vector<DataField> fields;
  for (size_t i = 0; i < columns.size(); ++i) {
    fields.push_back(DataField{static_cast<int32_t>(i), "f" + std::to_string(i), types[i],
                               std::nullopt, std::nullopt});
  }
  return fields;
}

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

RowProjectionEncoder::RowProjectionEncoder(std::vector<int> columns, std::vector<DataTypePtr> types)
    : columns_(std::move(columns)),
      types_(std::move(types)),
      row_type_(DataType::Row(FieldsOf(columns_, types_))),
      writer_(BinaryWriter::ForRow(static_cast<int>(columns_.size()))) {
  for (const DataTypePtr& t : types_) nested_ = nested_ || t->IsNested();
}

Result<std::string_view> RowProjectionEncoder::Encode(const ColumnBatch& batch, int64_t row) {
  if (nested_) {
    ValueList values;
    for (int c : columns_) values.push_back(batch.column(c)->GetValue(row));
    SLUICE_ASSIGN_OR_RETURN(slow_bytes_, EncodeBinaryRow(values, *row_type_));
    return std::string_view(slow_bytes_);
  }
  writer_.Reset();
  for (int pos = 0; pos < static_cast<int>(columns_.size()); ++pos) {
    const ColumnVector& v = *batch.column(columns_[static_cast<size_t>(pos)]);
    const DataType& type = *types_[static_cast<size_t>(pos)];
    const bool is_null = v.IsNull(row);
    switch (type.root()) {
      case TypeRoot::kDecimal: {
        if (is_null) {
          writer_.WriteDecimal(pos, nullptr, type.precision());
        } else {
          Decimal d;
          d.precision = type.precision();
          d.scale = type.scale();
          d.unscaled = type.IsCompactDecimal() ? v.data<int64_t>()[row] : v.data<int128_t>()[row];
          writer_.WriteDecimal(pos, &d, type.precision());
        }
        continue;
      }
      case TypeRoot::kTimestamp:
      case TypeRoot::kTimestampLtz:
        writer_.WriteTimestamp(pos, is_null ? nullptr : &v.data<Timestamp>()[row],
                               type.precision());
        continue;
      default:
        break;
    }
    if (is_null) {
      writer_.SetNullAt(pos);
      continue;
    }
    switch (v.kind()) {
      case PhysicalKind::kUInt8:
        writer_.WriteBoolean(pos, v.data<uint8_t>()[row] != 0);
        break;
      case PhysicalKind::kInt8:
        writer_.WriteByte(pos, v.data<int8_t>()[row]);
        break;
      case PhysicalKind::kInt16:
        writer_.WriteShort(pos, v.data<int16_t>()[row]);
        break;
      case PhysicalKind::kInt32:
        writer_.WriteInt(pos, v.data<int32_t>()[row]);
        break;
      case PhysicalKind::kInt64:
        writer_.WriteLong(pos, v.data<int64_t>()[row]);
        break;
      case PhysicalKind::kFloat:
        writer_.WriteFloat(pos, v.data<float>()[row]);
        break;
      case PhysicalKind::kDouble:
        writer_.WriteDouble(pos, v.data<double>()[row]);
        break;
      case PhysicalKind::kBytes:
        writer_.WriteBytes(pos, v.GetBytes(row));
        break;
      default:
        return Status::NotSupported("cannot encode a column of type " + type.ToString() +
                                    " as a key");
    }
  }
  return writer_.bytes();
}

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
