#include "sluice/meta/manifest_schemas.h"

#include <utility>
#include <vector>

namespace sluice {

namespace {

// Java numbers the fields of each record from 0 in declaration order.
DataTypePtr RecordOf(std::vector<std::pair<std::string, DataTypePtr>> fields,
                     bool nullable = false) {
  std::vector<DataField> out;
  int32_t id = 0;
  for (auto& [name, type] : fields) {
    out.push_back(DataField{id++, std::move(name), std::move(type), std::nullopt, std::nullopt});
  }
  return DataType::Row(std::move(out), nullable);
}

// Prepends `_VERSION INT NOT NULL` with field id -1, the other fields keeping theirs
// (VersionedObjectSerializer.versionType). ORC manifests record these ids.
DataTypePtr WithVersion(const DataTypePtr& row) {
  std::vector<DataField> fields;
  fields.push_back(DataField{-1, "_VERSION", DataType::Int(false), std::nullopt, std::nullopt});
  for (const DataField& f : row->fields()) fields.push_back(f);
  return DataType::Row(std::move(fields), false);
}

}  // namespace

const DataTypePtr& SimpleStatsRowType() {
  static const DataTypePtr type = RecordOf({
      {"_MIN_VALUES", DataType::Bytes(false)},
      {"_MAX_VALUES", DataType::Bytes(false)},
      {"_NULL_COUNTS", DataType::Array(DataType::BigInt(true), true)},
  });
  return type;
}

const DataTypePtr& DataFileMetaRowType() {
  static const DataTypePtr type = RecordOf({
      {"_FILE_NAME", DataType::String(false)},
      {"_FILE_SIZE", DataType::BigInt(false)},
      {"_ROW_COUNT", DataType::BigInt(false)},
      {"_MIN_KEY", DataType::Bytes(false)},
      {"_MAX_KEY", DataType::Bytes(false)},
      {"_KEY_STATS", SimpleStatsRowType()},
      {"_VALUE_STATS", SimpleStatsRowType()},
      {"_MIN_SEQUENCE_NUMBER", DataType::BigInt(false)},
      {"_MAX_SEQUENCE_NUMBER", DataType::BigInt(false)},
      {"_SCHEMA_ID", DataType::BigInt(false)},
      {"_LEVEL", DataType::Int(false)},
      {"_EXTRA_FILES", DataType::Array(DataType::String(false), false)},
      {"_CREATION_TIME", DataType::Timestamp(3, true)},
      {"_DELETE_ROW_COUNT", DataType::BigInt(true)},
      {"_EMBEDDED_FILE_INDEX", DataType::Bytes(true)},
      {"_FILE_SOURCE", DataType::TinyInt(true)},
      {"_VALUE_STATS_COLS", DataType::Array(DataType::String(false), true)},
      {"_EXTERNAL_PATH", DataType::String(true)},
      {"_FIRST_ROW_ID", DataType::BigInt(true)},
      {"_WRITE_COLS", DataType::Array(DataType::String(false), true)},
      {"_WRITE_COLS_SEQUENCES", DataType::Array(DataType::BigInt(false), true)},
  });
  return type;
}

const DataTypePtr& ManifestEntryRowType() {
  static const DataTypePtr type = WithVersion(RecordOf({
      {"_KIND", DataType::TinyInt(false)},
      {"_PARTITION", DataType::Bytes(false)},
      {"_BUCKET", DataType::Int(false)},
      {"_TOTAL_BUCKETS", DataType::Int(false)},
      {"_FILE", DataFileMetaRowType()},
  }));
  return type;
}

const DataTypePtr& ManifestFileMetaRowType() {
  static const DataTypePtr type = WithVersion(RecordOf({
      {"_FILE_NAME", DataType::String(false)},
      {"_FILE_SIZE", DataType::BigInt(false)},
      {"_NUM_ADDED_FILES", DataType::BigInt(false)},
      {"_NUM_DELETED_FILES", DataType::BigInt(false)},
      {"_PARTITION_STATS", SimpleStatsRowType()},
      {"_SCHEMA_ID", DataType::BigInt(false)},
      {"_MIN_BUCKET", DataType::Int(true)},
      {"_MAX_BUCKET", DataType::Int(true)},
      {"_MIN_LEVEL", DataType::Int(true)},
      {"_MAX_LEVEL", DataType::Int(true)},
      {"_MIN_ROW_ID", DataType::BigInt(true)},
      {"_MAX_ROW_ID", DataType::BigInt(true)},
  }));
  return type;
}

const DataTypePtr& IndexManifestEntryRowType() {
  static const DataTypePtr dv_range = RecordOf(
      {
          {"f0", DataType::String(false)},
          {"f1", DataType::Int(false)},
          {"f2", DataType::Int(false)},
          {"_CARDINALITY", DataType::BigInt(true)},
      },
      true);
  static const DataTypePtr global_index = RecordOf(
      {
          {"_ROW_RANGE_START", DataType::BigInt(false)},
          {"_ROW_RANGE_END", DataType::BigInt(false)},
          {"_INDEX_FIELD_ID", DataType::Int(false)},
          {"_EXTRA_FIELD_IDS", DataType::Array(DataType::Int(false), true)},
          {"_INDEX_META", DataType::Bytes(true)},
          {"_SOURCE_META", DataType::Bytes(true)},
      },
      true);
  static const DataTypePtr type = WithVersion(RecordOf({
      {"_KIND", DataType::TinyInt(false)},
      {"_PARTITION", DataType::Bytes(false)},
      {"_BUCKET", DataType::Int(false)},
      {"_INDEX_TYPE", DataType::String(false)},
      {"_FILE_NAME", DataType::String(false)},
      {"_FILE_SIZE", DataType::BigInt(false)},
      {"_ROW_COUNT", DataType::BigInt(false)},
      {"_DELETIONS_VECTORS_RANGES", DataType::Array(dv_range, true)},
      {"_EXTERNAL_PATH", DataType::String(true)},
      {"_GLOBAL_INDEX", global_index},
  }));
  return type;
}

}  // namespace sluice
