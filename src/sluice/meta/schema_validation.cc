#include "sluice/meta/schema_validation.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "sluice/base/string_util.h"
#include "sluice/format/file_format_registry.h"
#include "sluice/meta/core_options.h"
#include "sluice/meta/expire_config.h"
#include "sluice/meta/option_value.h"
#include "sluice/meta/schema_text.h"

namespace sluice {
Status ValidateDynamicBucketOptions(const CoreOptions& options) {
  if (options.dynamic_bucket_target_row_num() <= 0) {
    return Status::InvalidArgument("'dynamic-bucket.target-row-num' must be greater than 0, got " +
                                   std::to_string(options.dynamic_bucket_target_row_num()));
  }
  const int32_t max_buckets = options.dynamic_bucket_max_buckets();
  if (max_buckets != -1 && max_buckets <= 0) {
    return Status::InvalidArgument(
        "'dynamic-bucket.max-buckets' should either be equal to -1 (unlimited), or it must be "
        "greater than 0 (fixed upper bound), got " +
        std::to_string(max_buckets));
  }
  for (const auto& [key, value] :
       {std::pair{"dynamic-bucket.initial-buckets", options.dynamic_bucket_initial_buckets()},
        std::pair{"dynamic-bucket.assigner-parallelism",
                  options.dynamic_bucket_assigner_parallelism()}}) {
    if (value && *value <= 0) {
      return Status::InvalidArgument("'" + std::string(key) + "' must be greater than 0, got " +
                                     std::to_string(*value));
    }
  }
  return Status::OK();
}

namespace {

// Option keys (Java CoreOptions).
constexpr std::string_view kPrimaryKeyNullable = "primary-key.nullable";
constexpr std::string_view kBucketKeyOption = "bucket-key";
constexpr std::string_view kSequenceFieldOption = "sequence.field";

// Column names the file layouts reserve (Java SpecialFields.SYSTEM_FIELD_NAMES / KEY prefix).
constexpr std::string_view kSystemFieldNames[] = {"_SEQUENCE_NUMBER", "_VALUE_KIND", "_LEVEL",
                                                  "rowkind", "_ROW_ID"};
constexpr std::string_view kKeyFieldPrefix = "_KEY_";

bool IsPrimitive(const DataType& type) {
  return !type.IsNested() && type.root() != TypeRoot::kVariant;
}

// SchemaValidation.validateOnlyContainPrimitiveType for the primary keys and the partition keys.
Status ValidateKeysArePrimitive(const TableSchema& schema) {
  for (const auto& [keys, what] : {std::pair{&schema.primary_keys(), "primary key"},
                                   std::pair{&schema.partition_keys(), "partition"}}) {
    for (const std::string& key : *keys) {
      const DataField* f = schema.FieldByName(key);
      if (f != nullptr && !IsPrimitive(*f->type)) {
        return Status::InvalidArgument("The type " + f->type->ToString() + " in " + what +
                                       " field " + key + " is unsupported");
      }
    }
  }
  return Status::OK();
}

// SchemaValidation.validateBucket.
Status ValidateBucket(const TableSchema& schema, const CoreOptions& core_options) {
  const int32_t bucket = core_options.bucket();
  if (bucket == -1) {
    if (schema.FindOption(kBucketKeyOption) != nullptr) {
      return Status::InvalidArgument(
          "Cannot define 'bucket-key' with bucket = -1, please remove the 'bucket-key' setting "
          "or specify a bucket number.");
    }
    if (schema.primary_keys().empty() &&
        schema.FindOption("full-compaction.delta-commits") != nullptr) {
      return Status::InvalidArgument(
          "AppendOnlyTable of unaware or dynamic bucket does not support "
          "'full-compaction.delta-commits'");
    }
    if (!schema.primary_keys().empty()) {
      SLUICE_RETURN_NOT_OK(ValidateDynamicBucketOptions(core_options));
    }
  } else if (bucket < 1 && !(bucket == -2 && !schema.primary_keys().empty())) {
    return Status::InvalidArgument("The number of buckets needs to be greater than 0.");
  } else {
    if (schema.primary_keys().empty() && schema.bucket_keys().empty()) {
      return Status::InvalidArgument("You should define a 'bucket-key' for bucketed append mode.");
    }
    for (const std::string& key : schema.bucket_keys()) {
      const DataField* f = schema.FieldByName(key);
      if (f != nullptr &&
          (f->type->root() == TypeRoot::kArray || f->type->root() == TypeRoot::kMultiset ||
           f->type->root() == TypeRoot::kMap || f->type->root() == TypeRoot::kRow)) {
        return Status::InvalidArgument(
            "nested type can not in bucket-key, in your table these "
            "key are [" +
            key + "]");
      }
    }
  }
  return Status::OK();
}

// SchemaValidation.validateSequenceField.
Status ValidateSequenceField(const TableSchema& schema) {
  const std::string* seq = schema.FindOption(kSequenceFieldOption);
  if (seq == nullptr) return Status::OK();
  std::vector<std::string> fields = KeyListOption(*seq);
  std::set<std::string> seen;
  for (const std::string& f : fields) {
    if (schema.FieldByName(f) == nullptr) {
      return Status::InvalidArgument("Sequence field: '" + f +
                                     "' can not be found in table schema.");
    }
    if (schema.FindOption("fields." + f + ".aggregate-function") != nullptr) {
      return Status::InvalidArgument("Should not define aggregation on sequence field: '" + f +
                                     "'.");
    }
    if (!seen.insert(f).second) {
      return Status::InvalidArgument("Sequence field '" + f + "' is defined repeatedly.");
    }
  }
  if (!fields.empty() && AsciiToLower(schema.OptionOr("merge-engine", "")) == "first-row") {
    return Status::InvalidArgument("Do not support use sequence field on FIRST_ROW merge engine.");
  }
  if (!fields.empty() && schema.CrossPartitionUpdate()) {
    return Status::InvalidArgument(
        "You can not use sequence.field in cross partition update case (Primary key "
        "constraint '" +
        JavaListString(schema.primary_keys()) +
        "' not include all partition "
        "fields '" +
        JavaListString(schema.partition_keys()) + "').");
  }
  return Status::OK();
}

// The `merge-engine` and `changelog-producer` names, and which producers a table may have.
Status ValidateMergeEngineAndChangelogProducer(const TableSchema& schema) {
  const std::string merge_engine = AsciiToLower(schema.OptionOr("merge-engine", "deduplicate"));
  if (merge_engine != "deduplicate" && merge_engine != "partial-update" &&
      merge_engine != "aggregation" && merge_engine != "first-row") {
    return Status::InvalidArgument("Could not parse value '" + schema.OptionOr("merge-engine", "") +
                                   "' for key 'merge-engine' (deduplicate, partial-update, "
                                   "aggregation, first-row)");
  }
  const std::string producer = AsciiToLower(schema.OptionOr("changelog-producer", "none"));
  if (producer != "none" && producer != "input" && producer != "full-compaction" &&
      producer != "lookup") {
    return Status::InvalidArgument("Could not parse value '" +
                                   schema.OptionOr("changelog-producer", "") +
                                   "' for key 'changelog-producer' (none, input, "
                                   "full-compaction, lookup)");
  }
  if (schema.primary_keys().empty() && producer != "none") {
    return Status::InvalidArgument(
        "Can not set changelog-producer on table without primary keys, please define primary "
        "keys.");
  }
  if (merge_engine == "first-row" && producer != "none" && producer != "lookup") {
    return Status::InvalidArgument(
        "Only support 'none' and 'lookup' changelog-producer on FIRST_ROW merge engine");
  }
  return Status::OK();
}

// Column names the file layouts reserve.
Status ValidateFieldNames(const TableSchema& schema) {
  for (const DataField& f : schema.fields()) {
    for (std::string_view reserved : kSystemFieldNames) {
      if (f.name == reserved) {
        return Status::InvalidArgument("Field name[" + f.name +
                                       "] in schema cannot be exist in [_SEQUENCE_NUMBER, "
                                       "_VALUE_KIND, _LEVEL, rowkind, _ROW_ID]");
      }
    }
    if (f.name.starts_with(kKeyFieldPrefix)) {
      return Status::InvalidArgument("Field name[" + f.name + "] in schema cannot start with [" +
                                     std::string(kKeyFieldPrefix) + "]");
    }
  }
  return Status::OK();
}

Status ValidateRowkindField(const TableSchema& schema) {
  if (const std::string* rowkind = schema.FindOption("rowkind.field");
      rowkind != nullptr && schema.FieldByName(*rowkind) == nullptr) {
    return Status::InvalidArgument("Rowkind field: '" + *rowkind +
                                   "' can not be found in table schema.");
  }
  return Status::OK();
}

// SchemaValidation.validateForDeletionVectors: deletion vectors work with the changelog
// producers none / input / lookup, and not on first-row (which deletes no old data) unless
// `pk-clustering-override`.
Status ValidateForDeletionVectors(const TableSchema& schema, const CoreOptions& core_options) {
  if (!core_options.deletion_vectors_enabled()) return Status::OK();
  if (core_options.changelog_producer() == ChangelogProducer::kFullCompaction) {
    return Status::InvalidArgument(
        "Deletion vectors mode is only supported for NONE/INPUT/LOOKUP changelog producer now.");
  }
  if (!BooleanOptionOr(schema.FindOption("pk-clustering-override"), false) &&
      core_options.merge_engine() == MergeEngine::kFirstRow) {
    return Status::InvalidArgument(
        "First row merge engine does not need deletion vectors because there is no deletion of "
        "old data in this merge engine.");
  }
  return Status::OK();
}

// The data file format must hold every column (FileFormat.validateDataFields), and no level
// `file.format.per.level` writes as Avro may hold a timestamp above precision 6. Formats Sluice
// has no codec for are left to the engines that have one.
Status ValidateFileFormats(const TableSchema& schema) {
  const std::string format = AsciiToLower(schema.OptionOr("file.format", "parquet"));
  if (Result<std::shared_ptr<const FileFormat>> file_format = FileFormatByName(format);
      file_format.ok()) {
    SLUICE_RETURN_NOT_OK((*file_format)->ValidateDataFields(*schema.LogicalRowType()));
  }
  const std::string* per_level = schema.FindOption("file.format.per.level");
  if (per_level == nullptr) return Status::OK();
  for (const std::string& entry : JavaSplit(*per_level)) {
    const size_t colon = entry.find(':');
    if (colon == std::string::npos) continue;
    const std::string level = TrimSpacesAndTabs(entry.substr(0, colon));
    if (AsciiToLower(TrimSpacesAndTabs(entry.substr(colon + 1))) != "avro") continue;
    for (const DataField& f : schema.fields()) {
      const TypeRoot root = f.type->root();
      if ((root != TypeRoot::kTimestamp && root != TypeRoot::kTimestampLtz) ||
          f.type->precision() <= 6) {
        continue;
      }
      return Status::InvalidArgument(
          "'file.format.per.level' entry '" + level + ":avro' is incompatible with column '" +
          f.name + "' of type " + f.type->ToString() +
          ": Avro supports timestamp precision up to 6, got " +
          std::to_string(f.type->precision()) +
          ". Either lower the column precision, drop the per-level mapping for level " + level +
          ", or use a different format (parquet or orc) for that level.");
    }
  }
  return Status::OK();
}

// A boolean option as Java's ConfigOption<Boolean> reads it: `fallback` when unset, an error
// naming the key for text that is not a boolean.
Result<bool> BoolOption(const TableSchema& schema, std::string_view key, bool fallback) {
  const std::string* v = schema.FindOption(key);
  if (v == nullptr) return fallback;
  return ParseBooleanOption(key, *v);
}

// Java `s.split(",")` then trimmed, blanks dropped, as CoreOptions.parseCommaSeparatedSet;
// empty when unset.
std::vector<std::string> CommaSeparatedSet(const std::string* value) {
  std::vector<std::string> out;
  if (value == nullptr) return out;
  for (const std::string& part : JavaSplit(*value)) {
    std::string trimmed = TrimSpacesAndTabs(part);
    if (!trimmed.empty() && std::find(out.begin(), out.end(), trimmed) == out.end()) {
      out.push_back(std::move(trimmed));
    }
  }
  return out;
}

bool Contains(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// SchemaValidation.validateOnlyContainPrimitiveType for `upsert-key`, and no upsert key beside
// a primary key (validateTableSchema).
Status ValidateUpsertKey(const TableSchema& schema) {
  const std::string* value = schema.FindOption("upsert-key");
  if (value == nullptr || value->empty()) return Status::OK();
  const std::vector<std::string> upsert_key = JavaSplit(*value);
  for (const std::string& key : upsert_key) {
    const DataField* f = schema.FieldByName(key);
    if (f == nullptr) return Status::InvalidArgument("Cannot find field: " + key);
    if (!IsPrimitive(*f->type)) {
      return Status::InvalidArgument("The type " + f->type->ToString() + " in upsert key field " +
                                     key + " is unsupported");
    }
  }
  if (!upsert_key.empty() && !schema.primary_keys().empty()) {
    return Status::InvalidArgument("Cannot define 'upsert-key' " + JavaListString(upsert_key) +
                                   " with 'primary-key' " + JavaListString(schema.primary_keys()) +
                                   ".");
  }
  return Status::OK();
}

// SchemaValidation.validateStartupMode: each `scan.mode` takes exactly the options that say
// where it starts, and none of the other modes' options.
Status ValidateStartupMode(const TableSchema& schema, const CoreOptions& options) {
  // Java ConfigOption.contains: the key or one of its fallback keys.
  auto has = [&schema](std::string_view key) {
    if (schema.FindOption(key) != nullptr) return true;
    return key == "scan.timestamp-millis" &&
           schema.FindOption("log.scan.timestamp-millis") != nullptr;
  };
  const StartupMode mode = options.startup_mode();
  const std::string mode_name(StartupModeName(mode));
  auto join = [](const std::vector<std::string_view>& keys) {
    std::string out;
    for (std::string_view k : keys) out += (out.empty() ? "" : ",") + std::string(k);
    return out;
  };
  auto exactly_one = [&](const std::vector<std::string_view>& keys) -> Status {
    int count = 0;
    for (std::string_view k : keys) count += has(k) ? 1 : 0;
    if (count == 1) return Status::OK();
    return Status::InvalidArgument("must set only one key in [" + join(keys) + "] when you use " +
                                   mode_name + " for scan.mode");
  };
  auto must_exist = [&](std::string_view key) -> Status {
    if (has(key)) return Status::OK();
    return Status::InvalidArgument(std::string(key) + " can not be null when you use " + mode_name +
                                   " for scan.mode");
  };
  auto conflict = [&](const std::vector<std::string_view>& illegal,
                      const std::vector<std::string_view>& legal) -> Status {
    for (std::string_view k : illegal) {
      if (has(k)) {
        return Status::InvalidArgument("[" + std::string(k) + "] must be null when you set [" +
                                       join(legal) + "]");
      }
    }
    return Status::OK();
  };
  constexpr std::string_view kTimestampMillis = "scan.timestamp-millis";
  constexpr std::string_view kTimestamp = "scan.timestamp";
  constexpr std::string_view kSnapshotId = "scan.snapshot-id";
  constexpr std::string_view kTagName = "scan.tag-name";
  constexpr std::string_view kWatermark = "scan.watermark";
  constexpr std::string_view kFileCreation = "scan.file-creation-time-millis";
  constexpr std::string_view kBetween = "incremental-between";
  constexpr std::string_view kBetweenTimestamp = "incremental-between-timestamp";
  constexpr std::string_view kToAutoTag = "incremental-to-auto-tag";
  switch (mode) {
    case StartupMode::kFromTimestamp:
      SLUICE_RETURN_NOT_OK(exactly_one({kTimestampMillis, kTimestamp}));
      return conflict(
          {kSnapshotId, kFileCreation, kTagName, kBetweenTimestamp, kBetween, kToAutoTag},
          {kTimestampMillis, kTimestamp});
    case StartupMode::kFromSnapshot:
      SLUICE_RETURN_NOT_OK(exactly_one({kSnapshotId, kTagName, kWatermark}));
      return conflict(
          {kTimestampMillis, kTimestamp, kFileCreation, kBetweenTimestamp, kBetween, kToAutoTag},
          {kSnapshotId, kTagName});
    case StartupMode::kIncremental:
      SLUICE_RETURN_NOT_OK(exactly_one({kBetween, kBetweenTimestamp, kToAutoTag}));
      return conflict({kSnapshotId, kTimestampMillis, kFileCreation, kTimestamp, kTagName},
                      {kBetween, kBetweenTimestamp, kToAutoTag});
    case StartupMode::kFromSnapshotFull:
      SLUICE_RETURN_NOT_OK(must_exist(kSnapshotId));
      return conflict({kTimestampMillis, kTimestamp, kFileCreation, kTagName, kBetweenTimestamp,
                       kBetween, kToAutoTag},
                      {kSnapshotId});
    case StartupMode::kFromFileCreationTime:
      SLUICE_RETURN_NOT_OK(must_exist(kFileCreation));
      return conflict(
          {kSnapshotId, kTimestampMillis, kTagName, kBetweenTimestamp, kBetween, kToAutoTag},
          {kFileCreation});
    default:
      for (std::string_view k : {kTimestampMillis, kFileCreation, kTimestamp, kSnapshotId, kTagName,
                                 kBetweenTimestamp, kBetween, kToAutoTag}) {
        if (has(k)) {
          return Status::InvalidArgument(std::string(k) + " must be null when you use " +
                                         mode_name + " for scan.mode");
        }
      }
      return Status::OK();
  }
}

// SchemaValidation.validateFieldsPrefix: every `fields.<names>.<anything>` option names columns
// of the table (or `fields.default-aggregate-function`). As Java, the names are the text between
// the first and the second dot, split on ','.
Status ValidateFieldsPrefix(const TableSchema& schema) {
  for (const auto& [key, value] : schema.options()) {
    if (!key.starts_with("fields.")) continue;
    const std::vector<std::string> parts = JavaSplit(key, '.');
    if (parts.size() < 2) continue;
    for (const std::string& field : JavaSplit(parts[1])) {
      if (field != "default-aggregate-function" && schema.FieldByName(field) == nullptr) {
        return Status::InvalidArgument("Field " + field +
                                       " can not be found in table schema (option '" + key + "').");
      }
    }
  }
  return Status::OK();
}

// validateTableSchema: `streaming-read-overwrite` with a changelog producer that would read
// the overwritten changes twice, or without primary keys.
Status ValidateStreamingReadOverwrite(const TableSchema& schema, const CoreOptions& options) {
  if (!options.streaming_read_overwrite()) return Status::OK();
  const ChangelogProducer producer = options.changelog_producer();
  if (!schema.primary_keys().empty() &&
      (producer == ChangelogProducer::kFullCompaction || producer == ChangelogProducer::kLookup)) {
    return Status::InvalidArgument(
        "Cannot set streaming-read-overwrite to true when changelog producer is full-compaction "
        "or lookup because it will read duplicated changes.");
  }
  if (schema.primary_keys().empty()) {
    return Status::InvalidArgument(
        "Doesn't support streaming read the changes from overwrite when the primary keys are not "
        "defined. Please use streaming-read-append-overwrite to enable the streaming read "
        "overwrite commit for append table.");
  }
  return Status::OK();
}

// validateTableSchema: `snapshot.num-retained.min` at least 1 and not above the max, the same
// for `changelog.num-retained.*` (which default to the snapshot values).
Status ValidateNumRetained(const CoreOptions& options) {
  SLUICE_ASSIGN_OR_RETURN(const ExpireConfig counts, ExpireConfig::RetainedCounts(options));
  for (const auto& [prefix, min, max] :
       {std::tuple{std::string("snapshot"), counts.snapshot_retain_min, counts.snapshot_retain_max},
        std::tuple{std::string("changelog"), counts.changelog_retain_min,
                   counts.changelog_retain_max}}) {
    if (min <= 0) {
      return Status::InvalidArgument(prefix + ".num-retained.min should be at least 1, got " +
                                     std::to_string(min));
    }
    if (min > max) {
      return Status::InvalidArgument(prefix + ".num-retained.min should not be larger than " +
                                     prefix + ".num-retained.max (" + std::to_string(min) + " > " +
                                     std::to_string(max) + ")");
    }
  }
  return Status::OK();
}

// validateBlobDescriptorFields / validateBlobExternalStorageFields: the BLOB columns stored as
// descriptors or externally are BLOB columns, and external ones have a storage path.
Status ValidateBlobFields(const TableSchema& schema) {
  auto is_blob = [&schema](const std::string& name) {
    const DataField* f = schema.FieldByName(name);
    return f != nullptr && f->type->root() == TypeRoot::kBlob;
  };
  const std::vector<std::string> descriptor =
      CommaSeparatedSet(schema.FindOption("blob-descriptor-field"));
  for (const std::string& field : descriptor) {
    if (!is_blob(field)) {
      return Status::InvalidArgument("Field '" + field +
                                     "' in 'blob-descriptor-field' must be a BLOB field in table "
                                     "schema.");
    }
  }
  const std::vector<std::string> external =
      CommaSeparatedSet(schema.FindOption("blob-external-storage-field"));
  for (const std::string& field : external) {
    if (!is_blob(field)) {
      return Status::InvalidArgument("Field '" + field +
                                     "' in 'blob-external-storage-field' must be a BLOB field in "
                                     "table schema.");
    }
    if (!Contains(descriptor, field)) {
      return Status::InvalidArgument("Field '" + field +
                                     "' in 'blob-external-storage-field' must also be in "
                                     "'blob-descriptor-field'.");
    }
  }
  const std::string* path = schema.FindOption("blob-external-storage-path");
  if (!external.empty() && (path == nullptr || path->empty())) {
    return Status::InvalidArgument(
        "'blob-external-storage-path' must be set when 'blob-external-storage-field' is "
        "configured.");
  }
  return Status::OK();
}

// validateTableSchema: `partition.expiration-time` only on a partitioned table.
Status ValidatePartitionExpiration(const TableSchema& schema) {
  if (schema.FindOption("partition.expiration-time") != nullptr &&
      schema.partition_keys().empty()) {
    return Status::InvalidArgument(
        "Can not set 'partition.expiration-time' for non-partitioned table.");
  }
  return Status::OK();
}

// validateTableSchema: `record-level.time-field` names an INT, BIGINT or timestamp column.
Status ValidateRecordLevelTimeField(const TableSchema& schema) {
  const std::string* name = schema.FindOption("record-level.time-field");
  if (name == nullptr) return Status::OK();
  const DataField* f = schema.FieldByName(*name);
  if (f == nullptr) {
    return Status::InvalidArgument("Can not find time field " + *name +
                                   " for record level expire.");
  }
  const TypeRoot root = f->type->root();
  if (root != TypeRoot::kInt && root != TypeRoot::kBigInt && root != TypeRoot::kTimestamp &&
      root != TypeRoot::kTimestampLtz) {
    return Status::InvalidArgument(
        "The record level time field type should be one of INT, BIGINT, or TIMESTAMP, but field "
        "type is " +
        f->type->ToString() + " (record-level.time-field = " + *name + ").");
  }
  return Status::OK();
}

// validateTableSchema: every `vector-field` column exists and is a VECTOR.
Status ValidateVectorFields(const TableSchema& schema) {
  const std::string* value = schema.FindOption("vector-field");
  if (value == nullptr || TrimSpacesAndTabs(*value).empty()) return Status::OK();
  const std::vector<std::string> names = JavaSplit(TrimSpacesAndTabs(*value));
  for (const DataField& f : schema.fields()) {
    if (Contains(names, f.name) && f.type->root() != TypeRoot::kVector) {
      return Status::InvalidArgument("Field name[" + f.name +
                                     "] is configured as vector-field so the type must be "
                                     "vector, but it is " +
                                     f.type->ToString());
    }
  }
  for (const std::string& name : names) {
    if (schema.FieldByName(name) == nullptr) {
      return Status::InvalidArgument("Some of the columns specified as vector-field are unknown: " +
                                     name);
    }
  }
  return Status::OK();
}

// SchemaValidation.validateRowTracking: row tracking only on unaware-bucket append tables;
// data evolution needs row tracking and neither deletion vectors nor incremental clustering; a
// BLOB column needs data evolution, other columns, and is no partition key.
Status ValidateRowTracking(const TableSchema& schema, const CoreOptions& options) {
  SLUICE_ASSIGN_OR_RETURN(bool incremental_clustering,
                          BoolOption(schema, "clustering.incremental", false));
  if (options.row_tracking_enabled()) {
    if (options.bucket() != -1) {
      return Status::InvalidArgument(
          "Cannot define bucket for row tracking table, it only support bucket = -1");
    }
    if (!schema.primary_keys().empty()) {
      return Status::InvalidArgument("Cannot define primary-key for row tracking table.");
    }
  }
  if (options.data_evolution_enabled()) {
    if (!options.row_tracking_enabled()) {
      return Status::InvalidArgument(
          "Data evolution config must enabled with row-tracking.enabled");
    }
    if (options.deletion_vectors_enabled()) {
      return Status::InvalidArgument(
          "Data evolution config must disabled with deletion-vectors.enabled");
    }
    if (incremental_clustering) {
      return Status::InvalidArgument(
          "Data evolution config must disabled with clustering.incremental");
    }
  }
  std::vector<std::string> blobs;
  for (const DataField& f : schema.fields()) {
    if (f.type->root() == TypeRoot::kBlob) blobs.push_back(f.name);
  }
  if (blobs.empty()) return Status::OK();
  if (!options.data_evolution_enabled()) {
    return Status::InvalidArgument(
        "Data evolution config must enabled for table with BLOB type column.");
  }
  if (schema.fields().size() <= blobs.size()) {
    return Status::InvalidArgument("Table with BLOB type column must have other normal columns.");
  }
  for (const std::string& blob : blobs) {
    if (Contains(schema.partition_keys(), blob)) {
      return Status::InvalidArgument("The BLOB type column can not be part of partition keys.");
    }
  }
  return Status::OK();
}

// SchemaValidation.validateIncrementalClustering.
Status ValidateIncrementalClustering(const TableSchema& schema, const CoreOptions& options) {
  SLUICE_ASSIGN_OR_RETURN(bool enabled, BoolOption(schema, "clustering.incremental", false));
  if (!enabled) return Status::OK();
  if (!schema.primary_keys().empty()) {
    return Status::InvalidArgument("Cannot define primary-key for incremental clustering table.");
  }
  if (options.bucket() != -1) {
    SLUICE_ASSIGN_OR_RETURN(bool ordered, BoolOption(schema, "bucket-append-ordered", true));
    if (ordered) {
      return Status::InvalidArgument(
          "bucket-append-ordered must be false for incremental clustering table.");
    }
    if (options.deletion_vectors_enabled()) {
      return Status::InvalidArgument(
          "Cannot enable deletion-vectors for incremental clustering table which bucket is not "
          "-1.");
    }
  }
  return Status::OK();
}

// SchemaValidation.validateChainTable: a chain table is a partitioned, bucketed primary-key
// table with a sequence field, partition timestamps, no deletion vectors and a changelog
// producer none / input; its chain partition keys are a suffix of the partition keys.
Status ValidateChainTable(const TableSchema& schema, const CoreOptions& options) {
  SLUICE_ASSIGN_OR_RETURN(bool chain, BoolOption(schema, "chain-table.enabled", false));
  if (!chain) return Status::OK();
  auto check = [](bool ok, std::string message) {
    return ok ? Status::OK() : Status::InvalidArgument(std::move(message));
  };
  const ChangelogProducer producer = options.changelog_producer();
  SLUICE_RETURN_NOT_OK(check(AsciiToLower(schema.OptionOr("type", "table")) == "table",
                             "Chain table must be table type."));
  SLUICE_RETURN_NOT_OK(
      check(!schema.primary_keys().empty(), "Primary key is required for chain table."));
  SLUICE_RETURN_NOT_OK(
      check(!schema.partition_keys().empty(), "Chain table must be partition table."));
  SLUICE_RETURN_NOT_OK(
      check(options.bucket() > 0, "Bucket number must be greater than 0 for chain table."));
  // Java checks `sequenceField() != null`, a list that is never null: no sequence field passes.
  SLUICE_RETURN_NOT_OK(
      check(producer == ChangelogProducer::kNone || producer == ChangelogProducer::kInput,
            "Changelog producer must be none or input for chain table."));
  SLUICE_RETURN_NOT_OK(check(!options.deletion_vectors_enabled(),
                             "Chain table do not support enable deletion vector"));
  SLUICE_RETURN_NOT_OK(check(schema.FindOption("partition.timestamp-pattern") != nullptr,
                             "Partition timestamp pattern is required for chain table."));
  SLUICE_RETURN_NOT_OK(check(schema.FindOption("partition.timestamp-formatter") != nullptr,
                             "Partition timestamp formatter is required for chain table."));
  const std::string* chain_keys_text = schema.FindOption("chain-table.chain-partition-keys");
  if (chain_keys_text == nullptr || TrimSpacesAndTabs(*chain_keys_text).empty()) {
    return Status::OK();
  }
  std::vector<std::string> chain_keys;
  for (const std::string& part : JavaSplit(*chain_keys_text)) {
    chain_keys.push_back(TrimSpacesAndTabs(part));
  }
  const std::vector<std::string>& partition_keys = schema.partition_keys();
  const bool suffix =
      chain_keys.size() <= partition_keys.size() &&
      std::equal(chain_keys.begin(), chain_keys.end(),
                 partition_keys.end() - static_cast<std::ptrdiff_t>(chain_keys.size()));
  return check(suffix,
               "chain-table.chain-partition-keys must be a contiguous suffix of the table's "
               "partition keys. Partition keys: " +
                   JavaListString(partition_keys) +
                   ", chain partition keys: " + JavaListString(chain_keys) + ".");
}

// SchemaValidation.validateChangelogReadSequenceNumber.
Status ValidateReadSequenceNumber(const TableSchema& schema) {
  SLUICE_ASSIGN_OR_RETURN(bool enabled,
                          BoolOption(schema, "table-read.sequence-number.enabled", false));
  if (enabled && schema.primary_keys().empty()) {
    return Status::InvalidArgument(
        "Cannot enable 'table-read.sequence-number.enabled' for non-primary-key table. Sequence "
        "number is only available for primary key tables.");
  }
  return Status::OK();
}

// SchemaValidation.validatePkClusteringOverride.
Status ValidatePkClusteringOverride(const TableSchema& schema, const CoreOptions& options) {
  SLUICE_ASSIGN_OR_RETURN(bool enabled, BoolOption(schema, "pk-clustering-override", false));
  if (!enabled) return Status::OK();
  const std::string* columns = schema.FindOption("clustering.columns");
  if (columns == nullptr) columns = schema.FindOption("sink.clustering.by-columns");
  if (columns == nullptr || columns->empty()) {
    return Status::InvalidArgument(
        "Cannot support 'pk-clustering-override' mode without 'clustering.columns'.");
  }
  if (!options.deletion_vectors_enabled()) {
    return Status::InvalidArgument(
        "Cannot support deletion-vectors disabled in 'pk-clustering-override' mode.");
  }
  if (schema.FindOption("record-level.expire-time") != nullptr) {
    return Status::InvalidArgument(
        "Cannot support record level expire time enabled in 'pk-clustering-override' mode.");
  }
  const MergeEngine engine = options.merge_engine();
  if (engine != MergeEngine::kDeduplicate && engine != MergeEngine::kFirstRow) {
    return Status::InvalidArgument(
        "Cannot support merge engine: " + std::string(MergeEngineName(engine)) +
        " in 'pk-clustering-override' mode.");
  }
  if (!options.sequence_field().empty()) {
    return Status::InvalidArgument(
        "Cannot support sequence field: " + JavaListString(options.sequence_field()) +
        " in 'pk-clustering-override' mode.");
  }
  const ChangelogProducer producer = options.changelog_producer();
  if (producer != ChangelogProducer::kNone && producer != ChangelogProducer::kInput) {
    return Status::InvalidArgument(
        "Cannot support changelog producer: " + std::string(ChangelogProducerName(producer)) +
        " in 'pk-clustering-override' mode.");
  }
  return Status::OK();
}

}  // namespace

Status ValidateTableSchema(const TableSchema& schema) {
  // In the order of Java's validateTableSchema; the merge function (validateMergeFunction,
  // validateMergeFunctionFactory) is built by the catalog (lsm/merge_function_factory.h).
  SLUICE_RETURN_NOT_OK(ValidateKeysArePrimitive(schema));
  SLUICE_RETURN_NOT_OK(ValidateUpsertKey(schema));
  if (BooleanOptionOr(schema.FindOption(kPrimaryKeyNullable), false) &&
      schema.primary_keys().empty()) {
    return Status::InvalidArgument(
        "Option 'primary-key.nullable' can only be enabled for a table with primary keys.");
  }
  SLUICE_ASSIGN_OR_RETURN(const CoreOptions core_options, CoreOptions::FromSchema(schema));
  SLUICE_RETURN_NOT_OK(ValidateBucket(schema, core_options));
  SLUICE_RETURN_NOT_OK(ValidateStartupMode(schema, core_options));
  SLUICE_RETURN_NOT_OK(ValidateFieldsPrefix(schema));
  SLUICE_RETURN_NOT_OK(ValidateSequenceField(schema));
  SLUICE_RETURN_NOT_OK(ValidateMergeEngineAndChangelogProducer(schema));
  SLUICE_RETURN_NOT_OK(ValidateStreamingReadOverwrite(schema, core_options));
  SLUICE_RETURN_NOT_OK(ValidateNumRetained(core_options));
  SLUICE_RETURN_NOT_OK(ValidateBlobFields(schema));
  SLUICE_RETURN_NOT_OK(ValidateFileFormats(schema));
  SLUICE_RETURN_NOT_OK(ValidateFieldNames(schema));
  SLUICE_RETURN_NOT_OK(ValidatePartitionExpiration(schema));
  SLUICE_RETURN_NOT_OK(ValidateRecordLevelTimeField(schema));
  SLUICE_RETURN_NOT_OK(ValidateRowkindField(schema));
  SLUICE_RETURN_NOT_OK(ValidateForDeletionVectors(schema, core_options));
  SLUICE_RETURN_NOT_OK(ValidateVectorFields(schema));
  SLUICE_RETURN_NOT_OK(ValidateRowTracking(schema, core_options));
  SLUICE_RETURN_NOT_OK(ValidateIncrementalClustering(schema, core_options));
  SLUICE_RETURN_NOT_OK(ValidateChainTable(schema, core_options));
  SLUICE_RETURN_NOT_OK(ValidateReadSequenceNumber(schema));
  return ValidatePkClusteringOverride(schema, core_options);
}

}  // namespace sluice
