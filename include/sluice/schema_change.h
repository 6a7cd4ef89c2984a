// The schema-change vocabulary of the public Catalog (Java org.apache.paimon.schema): the
// columns, keys, options and comment of a table to create (NewTableSpec), and ALTER TABLE
// changes (SchemaChange, ColumnMove). Catalog::CreateTable / AlterTable apply them with Java's
// rules (see catalog.h).
//
// Thread safety: value types.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sluice/data_type.h"

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
  std::vector<std::pair<std::string, std::string>> options;
  std::optional<std::string> comment;
};

}  // namespace sluice
