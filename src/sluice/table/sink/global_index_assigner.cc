#include "sluice/table/sink/global_index_assigner.h"

#include <chrono>
#include <cstdlib>

#include "sluice/base/uuid.h"
#include "sluice/batch/column_take.h"
#include "sluice/row/binary_row.h"
#include "sluice/table/sink/conflict_detection.h"
#include "sluice/table/sink/index_bootstrap.h"

namespace sluice {

namespace {

uint64_t RouteKey(int32_t partition_id, int32_t bucket) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(partition_id)) << 32) |
         static_cast<uint32_t>(bucket);
}

int64_t SystemMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

int32_t CrossPartitionAssignerOf(int32_t key_hash, int32_t num_assigners) {
  return std::abs(key_hash % num_assigners);
}

GlobalIndexAssigner::GlobalIndexAssigner(std::shared_ptr<const FileStoreTable> table,
                                         GlobalIndexAssignerOptions options,
                                         RowProjectionEncoder partition, RowProjectionEncoder key)
    : table_(std::move(table)),
      options_(std::move(options)),
      partition_encoder_(std::move(partition)),
      key_encoder_(std::move(key)) {}

GlobalIndexAssigner::~GlobalIndexAssigner() = default;

Result<std::unique_ptr<GlobalIndexAssigner>> GlobalIndexAssigner::Open(
    std::shared_ptr<const FileStoreTable> table, GlobalIndexAssignerOptions options) {
  const TableSchema& schema = table->schema();
  if (!schema.is_primary_key_table() || table->options().bucket() != -1 ||
      !schema.CrossPartitionUpdate()) {
    return Status::InvalidArgument("table " + table->path() +
                                   " is not a cross-partition upsert table (bucket = -1, a "
                                   "primary key without every partition key)");
  }
  if (options.num_assigners < 1 || options.assign_id < 0 ||
      options.assign_id >= options.num_assigners) {
    return Status::InvalidArgument("cross-partition assigner " + std::to_string(options.assign_id) +
                                   " of " + std::to_string(options.num_assigners) +
                                   " does not exist");
  }
  SLUICE_ASSIGN_OR_RETURN(RowProjectionEncoder partition,
                          ProjectionEncoderOf(schema, schema.partition_keys()));
  SLUICE_ASSIGN_OR_RETURN(RowProjectionEncoder key,
                          ProjectionEncoderOf(schema, schema.primary_keys()));
  std::unique_ptr<GlobalIndexAssigner> assigner(new GlobalIndexAssigner(
      std::move(table), std::move(options), std::move(partition), std::move(key)));
  const CoreOptions& core = assigner->table_->options();
  switch (core.merge_engine()) {
    case MergeEngine::kDeduplicate:
      assigner->processor_ = ExistingProcessor::kDeleteExisting;
      break;
    case MergeEngine::kPartialUpdate:
    case MergeEngine::kAggregation:
      assigner->processor_ = ExistingProcessor::kUseOld;
      break;
    case MergeEngine::kFirstRow:
      assigner->processor_ = ExistingProcessor::kSkipNew;
      break;
  }
  assigner->ignore_delete_ = core.ignore_delete();
  assigner->ignore_update_before_ = core.ignore_update_before();
  assigner->partition_position_.assign(assigner->table_->schema().fields().size(), -1);
  const std::vector<std::string>& keys = assigner->table_->schema().partition_keys();
  for (size_t i = 0; i < keys.size(); ++i) {
    assigner
        ->partition_position_[static_cast<size_t>(assigner->table_->schema().FieldIndex(keys[i]))] =
        static_cast<int>(i);
  }
  // Java uses `dynamic-bucket.target-row-num` as the keys a bucket of a partition takes.
  assigner->buckets_ = std::make_unique<CrossPartitionBucketAssigner>(
      core.dynamic_bucket_target_row_num(), assigner->options_.num_assigners,
      assigner->options_.assign_id);
  if (!assigner->options_.clock_millis) assigner->options_.clock_millis = SystemMillis;
  KeyIndexOptions index;
  index.directory = assigner->options_.tmp_dir + "/sluice-key-index-" + NewUuidV4();
  index.memory_bytes = assigner->options_.memory_bytes;
  index.ttl_millis = core.cross_partition_upsert_index_ttl_millis();
  index.clock_millis = assigner->options_.clock_millis;
  SLUICE_ASSIGN_OR_RETURN(assigner->index_, KeyIndex::Open(std::move(index)));
  SLUICE_RETURN_NOT_OK(assigner->Bootstrap());
  return assigner;
}

Status GlobalIndexAssigner::Bootstrap() {
  IndexBootstrapOptions bootstrap;
  bootstrap.num_assigners = options_.num_assigners;
  bootstrap.assign_id = options_.assign_id;
  bootstrap.ttl_millis = table_->options().cross_partition_upsert_index_ttl_millis();
  bootstrap.now_millis = options_.clock_millis();
  const DataTypePtr key_type = table_->schema().LogicalPrimaryKeysType();
  const DataTypePtr partition_type = table_->schema().LogicalPartitionType();
  return BootstrapKeys(
      *table_, bootstrap,
      [&](const std::string& partition, int32_t bucket, std::string_view key) -> Status {
        SLUICE_ASSIGN_OR_RETURN(const int32_t id,
                                PartitionId(std::string_view(partition).substr(4)));
        SLUICE_ASSIGN_OR_RETURN(std::optional<KeyLocation> existing, index_->Get(key));
        if (existing) {
          // Java's bulk load fails the same way ("your data contains duplicates").
          Result<ValueList> values = DecodeBinaryRow(key, *key_type);
          return Status::Corruption(
              "table " + table_->path() + " holds primary key " +
              (values.ok() ? Value::Row(*values).DebugString() : std::string("(undecodable)")) +
              " in bucket " + std::to_string(existing->bucket) + " of partition {" +
              DescribePartition(serialized_partitions_[static_cast<size_t>(existing->partition_id)],
                                *partition_type) +
              "} and in bucket " + std::to_string(bucket) + " of partition {" +
              DescribePartition(partition, *partition_type) +
              "}: a cross-partition upsert table holds each key once");
        }
        buckets_->BootstrapBucket(id, bucket);
        return index_->Put(key, KeyLocation{id, bucket});
      });
}

Result<int32_t> GlobalIndexAssigner::PartitionId(std::string_view row_bytes) {
  if (last_partition_id_ >= 0 &&
      partitions_[static_cast<size_t>(last_partition_id_)] == row_bytes) {
    return last_partition_id_;
  }
  auto found = partition_ids_.find(row_bytes);
  if (found != partition_ids_.end()) {
    last_partition_id_ = found->second;
    return found->second;
  }
  const int32_t id = static_cast<int32_t>(partitions_.size());
  partitions_.emplace_back(row_bytes);
  serialized_partitions_.push_back(
      SerializeBinaryRow(row_bytes, static_cast<int>(table_->schema().partition_keys().size())));
  partition_values_.emplace_back();
  partition_ids_.emplace(std::string(row_bytes), id);
  last_partition_id_ = id;
  return id;
}

bool GlobalIndexAssigner::Dropped(RowKind kind) const {
  return (kind == RowKind::kDelete && ignore_delete_) ||
         (kind == RowKind::kUpdateBefore && (ignore_delete_ || ignore_update_before_));
}

void GlobalIndexAssigner::AddRoute(int32_t partition_id, int32_t bucket, int64_t row, RowKind kind,
                                   AssignedRows* out) {
  if (Dropped(kind)) return;
  auto [it, fresh] = route_of_.try_emplace(RouteKey(partition_id, bucket), out->routes.size());
  if (fresh) {
    out->routes.push_back(AssignedRows::Route{
        &serialized_partitions_[static_cast<size_t>(partition_id)], bucket, {}});
  }
  out->routes[it->second].rows.push_back(row);
}

Status GlobalIndexAssigner::AddDerived(const ColumnBatch& batch, int64_t row, int32_t partition_id,
                                       RowKind kind, AssignedRows* out) {
  std::unique_ptr<ColumnBatch>& values = partition_values_[static_cast<size_t>(partition_id)];
  if (values == nullptr) {
    const DataTypePtr type = table_->schema().LogicalPartitionType();
    SLUICE_ASSIGN_OR_RETURN(ValueList decoded,
                            DecodeBinaryRow(partitions_[static_cast<size_t>(partition_id)], *type));
    values = std::make_unique<ColumnBatch>(type);
    SLUICE_RETURN_NOT_OK(values->AppendRow(decoded));
  }
  const int64_t zero = 0;
  for (int c = 0; c < batch.num_columns(); ++c) {
    const int position = partition_position_[static_cast<size_t>(c)];
    if (position >= 0) {
      TakeRows(*values->column(position), &zero, 1, out->derived.column(c));
    } else {
      TakeRows(*batch.column(c), &row, 1, out->derived.column(c));
    }
  }
  const int64_t derived_row = out->derived.num_rows();
  out->derived.set_num_rows(derived_row + 1);
  out->derived_kinds.push_back(kind);
  return Status::OK();
}

Status GlobalIndexAssigner::Assign(const ColumnBatch& batch, const RowKind* kinds,
                                   AssignedRows* out) {
  out->derived.Clear();
  out->derived_kinds.clear();
  out->routes.clear();
  route_of_.clear();
  const int64_t n = batch.num_rows();
  for (int64_t i = 0; i < n; ++i) {
    const RowKind kind = kinds == nullptr ? RowKind::kInsert : kinds[i];
    SLUICE_ASSIGN_OR_RETURN(std::string_view partition, partition_encoder_.Encode(batch, i));
    SLUICE_ASSIGN_OR_RETURN(const int32_t partition_id, PartitionId(partition));
    SLUICE_ASSIGN_OR_RETURN(std::string_view key, key_encoder_.Encode(batch, i));
    SLUICE_ASSIGN_OR_RETURN(std::optional<KeyLocation> existing, index_->Get(key));
    if (existing) {
      if (existing->partition_id == partition_id) {
        AddRoute(partition_id, existing->bucket, i, kind, out);
        continue;
      }
      switch (processor_) {
        case ExistingProcessor::kDeleteExisting: {
          const int64_t derived = out->derived.num_rows();
          SLUICE_RETURN_NOT_OK(AddDerived(batch, i, existing->partition_id, RowKind::kDelete, out));
          AddRoute(existing->partition_id, existing->bucket, ~derived, RowKind::kDelete, out);
          buckets_->Decrement(existing->partition_id, existing->bucket);
          break;  // then as a new key
        }
        case ExistingProcessor::kUseOld: {
          const int64_t derived = out->derived.num_rows();
          SLUICE_RETURN_NOT_OK(AddDerived(batch, i, existing->partition_id, kind, out));
          AddRoute(existing->partition_id, existing->bucket, ~derived, kind, out);
          continue;
        }
        case ExistingProcessor::kSkipNew:
          continue;
      }
    }
    const int32_t bucket = buckets_->AssignBucket(partition_id);
    SLUICE_RETURN_NOT_OK(index_->Put(key, KeyLocation{partition_id, bucket}));
    AddRoute(partition_id, bucket, i, kind, out);
  }
  return Status::OK();
}

}  // namespace sluice
