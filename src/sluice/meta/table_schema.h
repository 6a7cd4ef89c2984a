// TableSchema: one version of a table's schema, the content of `schema/schema-<id>`
// (Java TableSchema / SchemaSerializer).
//
// Reading accepts every schema version Java writes (1 = Paimon <= 0.7, 2 = 0.8, 3 = 0.9+) and
// applies Java's compatibility defaults for old versions: `bucket = 1` when a version-1 file
// has no `bucket` option, `file.format = orc` when a version <= 2 file has no `file.format`
// (appended to the options, as Java adds them to its map). Writing produces Java's bytes:
// a version-3 file written by Java reads and writes back byte-identical. Unknown keys are
// ignored, as in Java.
//
// Thread safety: immutable after construction; safe to share across threads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sluice/base/json_fwd.h"
#include "sluice/data_type.h"
#include "sluice/result.h"

namespace sluice {

// Table options in file order. Keys are unique.
using TableOptions = std::vector<std::pair<std::string, std::string>>;

class TableSchema {
 public:
  static constexpr int32_t kPaimon07Version = 1;
  static constexpr int32_t kPaimon08Version = 2;
  static constexpr int32_t kCurrentVersion = 3;

  // Validates the schema as Java's constructor does: field names unique and non-blank, primary
  // keys not all partition keys, `bucket-key` columns exist, are not partition keys and are
  // primary keys (when there are primary keys), `bucket` is an integer. InvalidArgument
  // otherwise.
  static Result<TableSchema> Make(int32_t version, int64_t id, std::vector<DataField> fields,
                                  int32_t highest_field_id, std::vector<std::string> partition_keys,
                                  std::vector<std::string> primary_keys, TableOptions options,
                                  std::optional<std::string> comment, int64_t time_millis);

  // Parses the JSON text of a schema file. Errors (Corruption) name the field; callers add the
  // file path.
  static Result<TableSchema> FromJson(std::string_view json_text);
  static Result<TableSchema> FromJsonValue(const Json& json);
  // The file content Java writes for this schema (Jackson pretty printer, no final newline).
  std::string ToJson() const;

  int32_t version() const { return version_; }
  int64_t id() const { return id_; }
  const std::vector<DataField>& fields() const { return fields_; }
  int32_t highest_field_id() const { return highest_field_id_; }
  const std::vector<std::string>& partition_keys() const { return partition_keys_; }
  const std::vector<std::string>& primary_keys() const { return primary_keys_; }
  const TableOptions& options() const { return options_; }
  const std::optional<std::string>& comment() const { return comment_; }
  int64_t time_millis() const { return time_millis_; }

  // The value of option `key`, or nullptr.
  const std::string* FindOption(std::string_view key) const;
  // The value of option `key`, or `fallback`.
  std::string OptionOr(std::string_view key, std::string_view fallback) const;

  // The field named `name` / with id `id`, or nullptr.
  const DataField* FieldByName(std::string_view name) const;
  const DataField* FieldById(int32_t id) const;
  // Index in fields() of the field named `name`, or -1.
  int FieldIndex(std::string_view name) const;
  std::vector<std::string> FieldNames() const;

  // Primary keys without the partition keys (Java trimmedPrimaryKeys); empty for append tables.
  const std::vector<std::string>& trimmed_primary_keys() const { return trimmed_primary_keys_; }
  // `bucket-key` split on ',' when set, else the trimmed primary keys (Java bucketKeys()).
  const std::vector<std::string>& bucket_keys() const { return bucket_keys_; }
  bool is_primary_key_table() const { return !primary_keys_.empty(); }
  // Primary keys and partition keys overlap only partly (Java crossPartitionUpdate()).
  bool CrossPartitionUpdate() const;

  // ROW of all fields (nullable, as Java's logicalRowType()).
  DataTypePtr LogicalRowType() const;
  // ROW of the named fields in the given order; names not in the schema are skipped.
  DataTypePtr ProjectedRowType(const std::vector<std::string>& names) const;
  DataTypePtr LogicalPartitionType() const { return ProjectedRowType(partition_keys_); }
  DataTypePtr LogicalPrimaryKeysType() const { return ProjectedRowType(primary_keys_); }
  DataTypePtr LogicalTrimmedPrimaryKeysType() const {
    return ProjectedRowType(trimmed_primary_keys_);
  }
  DataTypePtr LogicalBucketKeyType() const { return ProjectedRowType(bucket_keys_); }

 private:
  TableSchema() = default;

  int32_t version_ = kCurrentVersion;
  int64_t id_ = 0;
  std::vector<DataField> fields_;
  int32_t highest_field_id_ = 0;
  std::vector<std::string> partition_keys_;
  std::vector<std::string> primary_keys_;
  TableOptions options_;
  std::optional<std::string> comment_;
  int64_t time_millis_ = 0;
  // Derived.
  std::vector<std::string> trimmed_primary_keys_;
  std::vector<std::string> bucket_keys_;
};

}  // namespace sluice
