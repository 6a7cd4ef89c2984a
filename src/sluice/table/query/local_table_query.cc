#include "sluice/table/query/local_table_query.h"

#include <algorithm>

#include "sluice/index/deletion_vector_reader.h"
#include "sluice/lsm/compaction_options.h"
#include "sluice/lsm/levels.h"
#include "sluice/lsm/merge_function_factory.h"
#include "sluice/row/binary_row.h"
#include "sluice/table/source/lookup_levels_factory.h"
#include "sluice/table/source/scan_planner.h"

namespace sluice {

LocalTableQuery::~LocalTableQuery() = default;

Result<std::unique_ptr<LocalTableQuery>> LocalTableQuery::Make(
    std::shared_ptr<const FileStoreTable> table, const TableVersion& version,
    std::string local_dir) {
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<const TableSchema> schema,
                          table->SchemaForVersion(version));
  if (schema->primary_keys().empty()) {
    return Status::NotSupported("table " + table->path() +
                                ": lookups need a primary key, the table has none");
  }
  SLUICE_ASSIGN_OR_RETURN(CoreOptions options,
                          CoreOptions::FromSchema(*schema, table->dynamic_options()));
  SLUICE_ASSIGN_OR_RETURN(LookupOptions lookup_options, LookupOptions::Make(options));
  std::unique_ptr<LocalTableQuery> query(new LocalTableQuery());
  SLUICE_ASSIGN_OR_RETURN(
      query->cache_, LookupFileCache::Make(LocalFileIO(), std::move(local_dir), lookup_options));
  SLUICE_ASSIGN_OR_RETURN(query->merge_function_, CreateMergeFunction(*schema, options));
  SLUICE_ASSIGN_OR_RETURN(KeyValueMergeOrder order, KeyValueMergeOrder::Make(*schema, options));
  query->merge_order_ = std::move(order);
  SLUICE_ASSIGN_OR_RETURN(RowKeyExtractor extractor, RowKeyExtractor::Make(*schema, options));
  query->key_extractor_ = std::move(extractor);
  query->need_lookup_ = CompactionOptions::From(options, /*has_primary_key=*/true).need_lookup;
  query->newest_wins_ =
      options.merge_engine() == MergeEngine::kDeduplicate && options.sequence_field().empty();
  query->fixed_bucket_ = options.bucket() > 1;
  query->num_levels_ = options.num_levels();
  query->key_type_ = schema->ProjectedRowType(schema->primary_keys());
  const std::vector<std::string>& pks = schema->primary_keys();
  for (const std::string& name : pks) query->key_columns_.push_back(schema->FieldIndex(name));
  bool partition_in_key = true;
  for (const std::string& name : schema->partition_keys()) {
    auto it = std::find(pks.begin(), pks.end(), name);
    if (it == pks.end()) {
      partition_in_key = false;
      break;
    }
    query->partition_in_key_.push_back(static_cast<int>(it - pks.begin()));
  }
  if (!partition_in_key) query->partition_in_key_.clear();
  for (const std::string& name : schema->trimmed_primary_keys()) {
    query->trimmed_in_key_.push_back(
        static_cast<int>(std::find(pks.begin(), pks.end(), name) - pks.begin()));
  }

  ScanOptions scan;
  scan.version = version;
  scan.mode = ScanMode::kStreamFull;
  SLUICE_ASSIGN_OR_RETURN(ScanPlan plan, PlanScan(*table, scan));
  for (DataSplit& split : plan.splits) {
    auto key = std::make_pair(split.partition, split.bucket);
    query->buckets_[key].split = std::move(split);
  }
  query->table_ = std::move(table);
  query->schema_ = std::move(schema);
  return query;
}

Result<LookupLevels*> LocalTableQuery::LevelsOf(Bucket* bucket) {
  if (bucket->levels != nullptr) return bucket->levels.get();
  const DataSplit& split = bucket->split;
  SLUICE_ASSIGN_OR_RETURN(Levels levels, Levels::Make(schema_->LogicalTrimmedPrimaryKeysType(),
                                                      split.data_files, std::max(num_levels_, 2)));
  SLUICE_ASSIGN_OR_RETURN(bucket->levels, MakeLookupLevels(table_, schema_, split.partition,
                                                           split.bucket_path, cache_));
  bucket->levels->SetRuns(levels.LevelSortedRuns());
  return bucket->levels.get();
}

Result<bool> LocalTableQuery::IsDeleted(Bucket* bucket, const PositionedKeyValue& hit) {
  const DataSplit& split = bucket->split;
  if (split.deletion_files.empty()) return false;
  auto loaded = bucket->deletion_vectors.find(hit.file_name);
  if (loaded == bucket->deletion_vectors.end()) {
    DeletionVector vector;
    for (size_t i = 0; i < split.data_files.size(); ++i) {
      if (split.data_files[i].file_name != hit.file_name || !split.deletion_files[i]) continue;
      SLUICE_ASSIGN_OR_RETURN(vector, ReadDeletionVector(*table_->io(), *split.deletion_files[i]));
      break;
    }
    loaded = bucket->deletion_vectors.emplace(hit.file_name, std::move(vector)).first;
  }
  return loaded->second.IsDeleted(hit.row_position);
}

Result<std::optional<ValueList>> LocalTableQuery::Lookup(const ValueList& key) {
  if (key.size() != key_columns_.size()) {
    return Status::InvalidArgument("lookup key of table " + table_->path() + " has " +
                                   std::to_string(key.size()) + " values, the primary key " +
                                   std::to_string(key_columns_.size()) + " fields");
  }
  for (size_t i = 0; i < key.size(); ++i) {
    if (key[i].is_null()) {
      return Status::InvalidArgument("lookup key field " + schema_->primary_keys()[i] +
                                     " is null; primary keys are never null");
    }
  }
  std::optional<std::string> partition;
  if (!schema_->partition_keys().empty() && !partition_in_key_.empty()) {
    ValueList values;
    for (int i : partition_in_key_) values.push_back(key[static_cast<size_t>(i)]);
    SLUICE_ASSIGN_OR_RETURN(std::string row,
                            EncodeBinaryRow(values, *schema_->LogicalPartitionType()));
    partition = SerializeBinaryRow(row, static_cast<int>(values.size()));
  }
  std::optional<int32_t> bucket;
  if (fixed_bucket_) {
    ColumnBatch batch(schema_->LogicalRowType());
    ValueList row(static_cast<size_t>(schema_->LogicalRowType()->num_fields()));
    for (size_t i = 0; i < key.size(); ++i) row[static_cast<size_t>(key_columns_[i])] = key[i];
    SLUICE_RETURN_NOT_OK(batch.AppendRow(row));
    SLUICE_ASSIGN_OR_RETURN(int32_t b, key_extractor_->Bucket(batch, 0));
    bucket = b;
  }
  ValueList trimmed;
  for (int i : trimmed_in_key_) trimmed.push_back(key[static_cast<size_t>(i)]);

  for (auto& [where, files] : buckets_) {
    if (partition && where.first != *partition) continue;
    if (bucket && where.second != *bucket) continue;
    SLUICE_ASSIGN_OR_RETURN(LookupLevels * levels, LevelsOf(&files));
    if (need_lookup_ || newest_wins_) {
      int start_level = need_lookup_ ? 1 : 0;
      std::optional<PositionedKeyValue> hit;
      while (true) {
        SLUICE_ASSIGN_OR_RETURN(hit, levels->Lookup(trimmed, start_level));
        if (!hit) break;
        SLUICE_ASSIGN_OR_RETURN(bool deleted, IsDeleted(&files, *hit));
        if (!deleted) break;
        // Above level 0 a level is one sorted run: the key's next record is further down.
        start_level = hit->key_value.level + 1;
      }
      if (!hit) continue;
      if (IsRetract(hit->key_value.kind)) return std::optional<ValueList>();
      return std::optional<ValueList>(std::move(hit->key_value.value));
    }
    SLUICE_ASSIGN_OR_RETURN(std::vector<PositionedKeyValue> hits,
                            levels->LookupAll(trimmed, /*start_level=*/0));
    if (hits.empty()) continue;
    std::sort(hits.begin(), hits.end(),
              [this](const PositionedKeyValue& a, const PositionedKeyValue& b) {
                return merge_order_->Compare(a.key_value, b.key_value) < 0;
              });
    merge_function_->Reset();
    for (PositionedKeyValue& hit : hits) {
      SLUICE_RETURN_NOT_OK(merge_function_->Add(std::move(hit.key_value)));
    }
    std::optional<KeyValue> merged = merge_function_->GetResult();
    if (!merged) return std::optional<ValueList>();
    return std::optional<ValueList>(std::move(merged->value));
  }
  return std::optional<ValueList>();
}

}  // namespace sluice
