// Creating a table's first schema and applying ALTER TABLE changes to a schema, as Java's
// Schema / SchemaManager.generateTableSchema / SchemaValidation do:
//
//   - field ids: a new table numbers its columns from 0 in declaration order (a nested ROW's
//     fields after their column, each nested field after its own children, Java
//     ReassignFieldId); an added column takes highestFieldId + 1. Ids are never reused.
//   - primary-key columns become NOT NULL (unless `primary-key.nullable`); `primary-key` and
//     `partition` options turn into the key lists.
//   - options are written in java.util.HashMap order (java_hash_map.h), replaying the copies
//     Java makes, so that the schema file is the one Java would write.
//   - changes follow Java's rules: added columns must be nullable; partition keys cannot be
//     renamed, dropped or retyped; primary keys cannot be dropped, retyped or made nullable;
//     type changes only along types/cast_rules.h (DataTypeCasts + CastExecutors; explicit casts
//     allowed unless `disable-explicit-type-casting`); nullable -> NOT NULL only when
//     `alter-column-null-to-not-null.disabled = false`; once the table has snapshots, immutable
//     options (`bucket-key`, `merge-engine`, ...) cannot change, `bucket` cannot go to or from
//     -1 nor be reset; renames carry into `bucket-key`, `sequence.field`, `fields.<col>.*` and
//     sequence groups.
//   - the result is validated as Java's SchemaValidation does, including the file format's
//     validateDataFields (`file.format = avro` holds no TIMESTAMP(9), ORC no VARIANT).
//
// Errors are InvalidArgument / NotSupported / NotFound / AlreadyExists naming the column or
// option, with Java's wording where it has one.
//
// Thread safety: value types and pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sluice/base/result.h"
#include "sluice/meta/table_schema.h"
#include "sluice/types/data_type.h"

namespace sluice {

// Where a column goes (Java SchemaChange.Move).
struct ColumnMove {
  enum class Kind : unsigned char { kFirst, kAfter, kBefore, kLast };
  Kind kind = Kind::kLast;
  std::string field;      // the column moved (UpdateColumnPosition)
  std::string reference;  // kAfter / kBefore

  static ColumnMove First(std::string field = {}) { return {Kind::kFirst, std::move(field), {}}; }
  static ColumnMove Last(std::string field = {}) { return {Kind::kLast, std::move(field), {}}; }
  static ColumnMove After(std::string field, std::string reference) {
    return {Kind::kAfter, std::move(field), std::move(reference)};
  }
  static ColumnMove Before(std::string field, std::string reference) {
    return {Kind::kBefore, std::move(field), std::move(reference)};
  }
};

// One ALTER TABLE change (Java SchemaChange). Column paths (`field_names`) name a top-level
// column, or a field inside ROW columns (parent first).
struct SchemaChange {
  enum class Kind : unsigned char {
    kSetOption,
    kRemoveOption,
    kUpdateComment,
    kAddColumn,
    kRenameColumn,
    kDropColumn,
    kUpdateColumnType,
    kUpdateColumnNullability,
    kUpdateColumnComment,
    kUpdateColumnPosition,
  };

  Kind kind = Kind::kSetOption;
  std::vector<std::string> field_names;
  std::string key;                     // options
  std::string value;                   // kSetOption value; kRenameColumn new name
  DataTypePtr type;                    // kAddColumn, kUpdateColumnType
  std::optional<std::string> comment;  // table / column comment, added column's description
  std::optional<ColumnMove> move;      // kAddColumn (optional), kUpdateColumnPosition
  bool nullable = true;                // kUpdateColumnNullability
  bool keep_nullability = false;       // kUpdateColumnType

  static SchemaChange SetOption(std::string key, std::string value);
  static SchemaChange RemoveOption(std::string key);
  static SchemaChange UpdateComment(std::optional<std::string> comment);
  static SchemaChange AddColumn(std::vector<std::string> field_names, DataTypePtr type,
                                std::optional<std::string> comment = std::nullopt,
                                std::optional<ColumnMove> move = std::nullopt);
  static SchemaChange RenameColumn(std::vector<std::string> field_names, std::string new_name);
  static SchemaChange DropColumn(std::vector<std::string> field_names);
  static SchemaChange UpdateColumnType(std::vector<std::string> field_names, DataTypePtr type,
                                       bool keep_nullability = false);
  static SchemaChange UpdateColumnNullability(std::vector<std::string> field_names, bool nullable);
  static SchemaChange UpdateColumnComment(std::vector<std::string> field_names,
                                          std::optional<std::string> comment);
  static SchemaChange UpdateColumnPosition(ColumnMove move);
};

// A table to create (Java Schema): columns in order (ids are assigned, the given ones are
// ignored), keys, options in the order given, comment.
struct NewTableSpec {
  std::vector<DataField> columns;
  std::vector<std::string> partition_keys;
  std::vector<std::string> primary_keys;
  TableOptions options;
  std::optional<std::string> comment;
};

// Schema 0 of a new table, as Java's catalog createTable writes it; validated.
Result<TableSchema> MakeInitialSchema(const NewTableSpec& spec, int64_t time_millis);

// The next schema after `changes` (id + 1), validated. `has_snapshots`: the table holds data,
// which forbids some option changes.
Result<TableSchema> ApplySchemaChanges(const TableSchema& schema,
                                       const std::vector<SchemaChange>& changes, bool has_snapshots,
                                       int64_t time_millis);

// Java SchemaValidation.validateTableSchema for the rules that matter to tables Sluice writes:
// key columns of primitive types, bucket / bucket-key rules, system column names,
// sequence.field, merge engine and changelog producer names, rowkind.field.
Status ValidateTableSchema(const TableSchema& schema);

}  // namespace sluice
