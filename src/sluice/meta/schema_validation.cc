#include "sluice/meta/schema_validation.h"

#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sluice/base/string_util.h"
#include "sluice/format/file_format_registry.h"
#include "sluice/meta/core_options.h"
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

}  // namespace

Status ValidateTableSchema(const TableSchema& schema) {
  SLUICE_RETURN_NOT_OK(ValidateKeysArePrimitive(schema));
  if (BooleanOptionOr(schema.FindOption(kPrimaryKeyNullable), false) &&
      schema.primary_keys().empty()) {
    return Status::InvalidArgument(
        "Option 'primary-key.nullable' can only be enabled for a table with primary keys.");
  }
  SLUICE_ASSIGN_OR_RETURN(const CoreOptions core_options, CoreOptions::FromSchema(schema));
  SLUICE_RETURN_NOT_OK(ValidateBucket(schema, core_options));
  SLUICE_RETURN_NOT_OK(ValidateSequenceField(schema));
  SLUICE_RETURN_NOT_OK(ValidateMergeEngineAndChangelogProducer(schema));
  SLUICE_RETURN_NOT_OK(ValidateFieldNames(schema));
  SLUICE_RETURN_NOT_OK(ValidateRowkindField(schema));
  SLUICE_RETURN_NOT_OK(ValidateForDeletionVectors(schema, core_options));
  return ValidateFileFormats(schema);
}

}  // namespace sluice
