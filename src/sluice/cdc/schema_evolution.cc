#include "sluice/cdc/schema_evolution.h"

#include <algorithm>
#include <map>
#include <set>

#include "sluice/base/string_util.h"
#include "sluice/cdc/computed_column.h"

namespace sluice {

namespace {

// Java's type lists of canConvert; the index orders a family.
int IndexIn(TypeRoot root, std::initializer_list<TypeRoot> family) {
  int i = 0;
  for (TypeRoot r : family) {
    if (r == root) return i;
    ++i;
  }
  return -1;
}

constexpr std::initializer_list<TypeRoot> kStringTypes = {TypeRoot::kChar, TypeRoot::kVarChar};
constexpr std::initializer_list<TypeRoot> kBinaryTypes = {TypeRoot::kBinary, TypeRoot::kVarBinary};
constexpr std::initializer_list<TypeRoot> kIntegerTypes = {TypeRoot::kTinyInt, TypeRoot::kSmallInt,
                                                           TypeRoot::kInt, TypeRoot::kBigInt};
constexpr std::initializer_list<TypeRoot> kFloatingTypes = {TypeRoot::kFloat, TypeRoot::kDouble};

// Equality ignoring nullability (everywhere) and field ids, as Java's
// copy(true).equalsIgnoreFieldId(copy(true)) on the top-level types it compares.
bool SameTypeIgnoringNullabilityAndIds(const DataType& a, const DataType& b) {
  if (a.root() != b.root() || a.precision() != b.precision() || a.scale() != b.scale()) {
    return false;
  }
  if (a.root() == TypeRoot::kRow) {
    if (a.num_fields() != b.num_fields()) return false;
    for (int i = 0; i < a.num_fields(); ++i) {
      const DataField& fa = a.fields()[i];
      const DataField& fb = b.fields()[i];
      if (fa.name != fb.name || fa.description != fb.description ||
          !SameTypeIgnoringNullabilityAndIds(*fa.type, *fb.type)) {
        return false;
      }
    }
    return true;
  }
  switch (a.root()) {
    case TypeRoot::kArray:
    case TypeRoot::kMultiset:
    case TypeRoot::kVector:
      return SameTypeIgnoringNullabilityAndIds(*a.element(), *b.element());
    case TypeRoot::kMap:
      return SameTypeIgnoringNullabilityAndIds(*a.key(), *b.key()) &&
             SameTypeIgnoringNullabilityAndIds(*a.value(), *b.value());
    default:
      return true;
  }
}

ConvertAction CanConvertRow(const DataType& old_type, const DataType& new_type,
                            const TypeMapping& type_mapping) {
  // Java: NOT NULL fields must stay, shared fields must convert, new fields must be nullable.
  for (const DataField& old_field : old_type.fields()) {
    if (!old_field.type->nullable() && new_type.FieldIndex(old_field.name) < 0) {
      return ConvertAction::kException;
    }
  }
  bool needs_conversion = false;
  for (const DataField& new_field : new_type.fields()) {
    const int old_index = old_type.FieldIndex(new_field.name);
    if (old_index < 0) {
      if (!new_field.type->nullable()) return ConvertAction::kException;
      needs_conversion = true;
      continue;
    }
    const ConvertAction action =
        CanConvert(*old_type.fields()[old_index].type, *new_field.type, type_mapping);
    if (action == ConvertAction::kException) return ConvertAction::kException;
    if (action == ConvertAction::kConvert) needs_conversion = true;
  }
  return needs_conversion ? ConvertAction::kConvert : ConvertAction::kIgnore;
}

std::string Quoted(const std::string& s) { return "'" + s + "'"; }

Status ConvertError(const std::string& identifier, const std::string& column,
                    const DataType& old_type, const DataType& new_type, std::string_view why) {
  return Status::InvalidArgument("Cannot convert field " + column + " from type " +
                                 old_type.ToString() + " to " + new_type.ToString() +
                                 " of Paimon table " + identifier + ": " + std::string(why));
}

bool Contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out = "[";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += ", ";
    out += names[i];
  }
  return out + "]";
}

std::vector<std::string> CaseConvert(const std::vector<std::string>& names, bool case_sensitive) {
  if (case_sensitive) return names;
  std::vector<std::string> out;
  out.reserve(names.size());
  for (const std::string& name : names) out.push_back(AsciiToLower(name));
  return out;
}

std::vector<std::string> Child(const std::vector<std::string>& path, std::string name) {
  std::vector<std::string> child = path;
  child.push_back(std::move(name));
  return child;
}

std::string DottedPath(const std::vector<std::string>& path) {
  std::string out;
  for (const std::string& name : path) out += (out.empty() ? "" : ".") + name;
  return out;
}

// Java NestedSchemaUtils.generateNestedColumnUpdates for a column CanConvert lets convert: a
// ROW's new fields added where the record has them (nullable, the next ids), its existing
// fields in the same order and updated in turn; the element of an ARRAY / MULTISET and the value
// of a MAP through Java's "element" / "value" path markers; an atomic type widened when
// CanConvert says CONVERT, kept when it says IGNORE. Java also emits drops of the fields the
// record's ROW lacks and nullability changes, which its own applier then refuses ("Unsupported
// schema change"); here a missing field is kept (read as null, as a missing column is) and the
// table keeps its nullability.
Status AddNestedChanges(const std::string& identifier, const std::vector<std::string>& path,
                        const DataTypePtr& old_ptr, const DataTypePtr& new_ptr,
                        const TypeMapping& type_mapping, std::vector<SchemaChange>* changes) {
  const DataType& old_type = *old_ptr;
  const DataType& new_type = *new_ptr;
  switch (old_type.root()) {
    case TypeRoot::kRow: {
      int last_index = -1;
      std::string last_name;
      for (const DataField& field : new_type.fields()) {
        const int index = old_type.FieldIndex(field.name);
        if (index < 0) continue;
        if (index <= last_index) {
          return Status::InvalidArgument("Order of existing fields in column " + DottedPath(path) +
                                         " of Paimon table " + identifier +
                                         " must be kept the same. However, field " + last_name +
                                         " and " + field.name + " have changed their orders.");
        }
        last_index = index;
        last_name = field.name;
      }
      const std::vector<DataField>& fields = new_type.fields();
      for (size_t i = 0; i < fields.size(); ++i) {
        const DataField& field = fields[i];
        const int index = old_type.FieldIndex(field.name);
        if (index < 0) {
          changes->push_back(SchemaChange::AddColumn(
              Child(path, field.name), field.type->WithNullable(true), field.description,
              i == 0 ? ColumnMove::First(field.name)
                     : ColumnMove::After(field.name, fields[i - 1].name)));
          continue;
        }
        const DataField& old_field = old_type.fields()[static_cast<size_t>(index)];
        if (field.description.has_value() && field.description != old_field.description) {
          changes->push_back(
              SchemaChange::UpdateColumnComment(Child(path, field.name), field.description));
        }
        SLUICE_RETURN_NOT_OK(AddNestedChanges(identifier, Child(path, field.name), old_field.type,
                                              field.type, type_mapping, changes));
      }
      return Status::OK();
    }
    case TypeRoot::kArray:
    case TypeRoot::kMultiset:
      return AddNestedChanges(identifier, Child(path, "element"), old_type.element(),
                              new_type.element(), type_mapping, changes);
    case TypeRoot::kMap:
      return AddNestedChanges(identifier, Child(path, "value"), old_type.value(), new_type.value(),
                              type_mapping, changes);
    default:
      if (old_type.EqualsIgnoreNullable(new_type)) return Status::OK();
      switch (CanConvert(old_type, new_type, type_mapping)) {
        case ConvertAction::kException:
          return ConvertError(identifier, DottedPath(path), old_type, new_type,
                              "incompatible types");
        case ConvertAction::kIgnore:
          return Status::OK();
        case ConvertAction::kConvert:
          changes->push_back(SchemaChange::UpdateColumnType(path, new_ptr,
                                                            /*keep_nullability=*/true));
          return Status::OK();
      }
  }
  return Status::OK();
}

}  // namespace

ConvertAction CanConvert(const DataType& old_type, const DataType& new_type,
                         const TypeMapping& type_mapping) {
  if (old_type.EqualsIgnoreNullable(new_type)) {
    return old_type.nullable() && !new_type.nullable() ? ConvertAction::kException
                                                       : ConvertAction::kConvert;
  }
  const TypeRoot old_root = old_type.root();
  const TypeRoot new_root = new_type.root();
  if (old_root == new_root && (old_root == TypeRoot::kArray || old_root == TypeRoot::kMultiset ||
                               old_root == TypeRoot::kMap)) {
    if (old_type.nullable() && !new_type.nullable()) return ConvertAction::kException;
    if (old_root == TypeRoot::kMap) {
      if (!old_type.key()->Equals(*new_type.key())) return ConvertAction::kException;
      return CanConvert(*old_type.value(), *new_type.value(), type_mapping);
    }
    return CanConvert(*old_type.element(), *new_type.element(), type_mapping);
  }
  if (old_root == TypeRoot::kRow && new_root == TypeRoot::kRow) {
    return CanConvertRow(old_type, new_type, type_mapping);
  }
  const int old_string = IndexIn(old_root, kStringTypes);
  const int new_string = IndexIn(new_root, kStringTypes);
  if (old_string >= 0 && new_string >= 0) {
    return old_type.length() <= new_type.length() ? ConvertAction::kConvert
                                                  : ConvertAction::kIgnore;
  }
  if (old_string < 0 && new_string >= 0 &&
      type_mapping.Contains(TypeMappingMode::kAllowNonStringToString)) {
    return ConvertAction::kConvert;
  }
  auto by_order = [&](std::initializer_list<TypeRoot> family) {
    const int o = IndexIn(old_root, family);
    const int n = IndexIn(new_root, family);
    if (o < 0 || n < 0) return std::optional<ConvertAction>();
    return std::optional<ConvertAction>(o <= n ? ConvertAction::kConvert : ConvertAction::kIgnore);
  };
  if (IndexIn(old_root, kBinaryTypes) >= 0 && IndexIn(new_root, kBinaryTypes) >= 0) {
    return old_type.length() <= new_type.length() ? ConvertAction::kConvert
                                                  : ConvertAction::kIgnore;
  }
  if (auto action = by_order(kIntegerTypes)) return *action;
  if (auto action = by_order(kFloatingTypes)) return *action;
  if (old_root == TypeRoot::kDecimal && new_root == TypeRoot::kDecimal) {
    return new_type.precision() <= old_type.precision() && new_type.scale() <= old_type.scale()
               ? ConvertAction::kIgnore
               : ConvertAction::kConvert;
  }
  if (old_root == TypeRoot::kTimestamp && new_root == TypeRoot::kTimestamp) {
    return old_type.precision() <= new_type.precision() ? ConvertAction::kConvert
                                                        : ConvertAction::kIgnore;
  }
  return ConvertAction::kException;
}

Result<std::vector<SchemaChange>> SchemaChangesFor(const std::string& identifier,
                                                   const TableSchema& table,
                                                   const CdcSchema& source,
                                                   const TypeMapping& type_mapping,
                                                   bool case_sensitive) {
  const bool decimal_no_change = type_mapping.Contains(TypeMappingMode::kDecimalNoChange);
  const bool to_nullable = type_mapping.Contains(TypeMappingMode::kToNullable);
  std::vector<SchemaChange> changes;
  std::set<std::string> added;
  for (const DataField& field : source.fields) {
    const std::string name = case_sensitive ? field.name : AsciiToLower(field.name);
    DataTypePtr new_type = field.type;
    if (to_nullable && !new_type->nullable()) new_type = new_type->WithNullable(true);
    const DataField* old_field = table.FieldByName(name);
    if (old_field == nullptr) {
      if (!added.insert(name).second) continue;
      changes.push_back(
          SchemaChange::AddColumn({name}, new_type->WithNullable(true), field.description));
      continue;
    }
    const DataType& old_type = *old_field->type;
    const bool has_new_comment =
        field.description.has_value() && field.description != old_field->description;
    if (SameTypeIgnoringNullabilityAndIds(old_type, *new_type)) {
      if (has_new_comment)
        changes.push_back(SchemaChange::UpdateColumnComment({name}, field.description));
      continue;
    }
    if (old_type.root() == TypeRoot::kDecimal && decimal_no_change) continue;
    switch (CanConvert(old_type, *new_type, type_mapping)) {
      case ConvertAction::kException:
        return ConvertError(identifier, name, old_type, *new_type, "incompatible types");
      case ConvertAction::kIgnore:
        break;
      case ConvertAction::kConvert:
        if (Contains(table.primary_keys(), name) || Contains(table.partition_keys(), name)) {
          return ConvertError(identifier, name, old_type, *new_type,
                              Contains(table.primary_keys(), name)
                                  ? "cannot update a primary key column"
                                  : "cannot update a partition key column");
        }
        if (old_type.IsNested()) {
          SLUICE_RETURN_NOT_OK(AddNestedChanges(identifier, {name}, old_field->type, new_type,
                                                type_mapping, &changes));
        } else {
          changes.push_back(
              SchemaChange::UpdateColumnType({name}, new_type, /*keep_nullability=*/true));
        }
        break;
    }
    if (field.description.has_value()) {
      changes.push_back(SchemaChange::UpdateColumnComment({name}, field.description));
    }
  }
  if (source.comment.has_value() && source.comment != table.comment()) {
    changes.push_back(SchemaChange::UpdateComment(source.comment));
  }
  return changes;
}

std::string DescribeSchemaChanges(const std::vector<SchemaChange>& changes) {
  std::string out;
  for (const SchemaChange& change : changes) {
    if (!out.empty()) out += ", ";
    std::string path;
    for (const std::string& part : change.field_names) {
      if (!path.empty()) path += ".";
      path += part;
    }
    switch (change.kind) {
      case SchemaChange::Kind::kAddColumn:
        out += "add column " + path + " " + change.type->ToString();
        break;
      case SchemaChange::Kind::kUpdateColumnType:
        out += "update column " + path + " type " + change.type->ToString();
        break;
      case SchemaChange::Kind::kUpdateColumnComment:
        out += "update column " + path + " comment";
        break;
      case SchemaChange::Kind::kUpdateComment:
        out += "update table comment";
        break;
      case SchemaChange::Kind::kUpdateColumnNullability:
        out += "update column " + path + (change.nullable ? " nullable" : " not null");
        break;
      default:
        out += "change " + path;
        break;
    }
  }
  return out;
}

Result<DataTypePtr> MetadataColumnType(const std::string& name) {
  if (name == "topic" || name == "timestamp_type") return DataType::String();
  if (name == "partition") return DataType::Int();
  if (name == "offset") return DataType::BigInt();
  if (name == "timestamp") return DataType::TimestampLtz(3);
  if (name == "table_name" || name == "database_name") return DataType::String(false);
  if (name == "op_ts") return DataType::TimestampLtz(3, /*nullable=*/false);
  return Status::InvalidArgument(
      "Unsupported metadata column " + Quoted(name) +
      " (supported: topic, partition, offset, timestamp, timestamp_type, table_name, "
      "database_name, op_ts)");
}

Result<NewTableSpec> BuildNewTableSpec(const std::string& identifier, const CdcSchema& source,
                                       const NewTableRequest& request) {
  const bool case_sensitive = request.case_sensitive;
  const bool to_nullable = request.type_mapping.Contains(TypeMappingMode::kToNullable);
  NewTableSpec spec;
  spec.options = request.table_conf;
  std::vector<std::string> names;
  for (const DataField& field : source.fields) {
    DataField column = field;
    column.id = 0;
    column.name = case_sensitive ? field.name : AsciiToLower(field.name);
    if (to_nullable) column.type = column.type->WithNullable(true);
    names.push_back(column.name);
    spec.columns.push_back(std::move(column));
  }
  // Computed columns see the record's columns and the computed columns before them.
  std::vector<DataField> visible = source.fields;
  for (const ComputedColumn* computed : request.computed_columns) {
    SLUICE_ASSIGN_OR_RETURN(DataTypePtr type, computed->ResultType(visible, case_sensitive));
    visible.push_back(DataField{0, computed->name(), type, std::nullopt, std::nullopt});
    const std::string name = case_sensitive ? computed->name() : AsciiToLower(computed->name());
    names.push_back(name);
    spec.columns.push_back(DataField{0, name, std::move(type), std::nullopt, std::nullopt});
  }
  for (const std::string& metadata : request.metadata_columns) {
    SLUICE_ASSIGN_OR_RETURN(DataTypePtr type, MetadataColumnType(metadata));
    const std::string column = request.metadata_column_prefix + metadata;
    const std::string name = case_sensitive ? column : AsciiToLower(column);
    names.push_back(name);
    spec.columns.push_back(DataField{0, name, std::move(type), std::nullopt, std::nullopt});
  }
  std::map<std::string, int> counts;
  std::vector<std::string> duplicates;
  for (const std::string& name : names) {
    if (++counts[name] == 2) duplicates.push_back(name);
  }
  if (!duplicates.empty()) {
    return Status::InvalidArgument(
        "Table " + identifier + " contains duplicate columns: " + JoinNames(duplicates) +
        ". Possible causes are: 1. computed columns or metadata columns contain duplicate "
        "fields; 2. the catalog is case-insensitive and the table columns duplicate after they "
        "are all converted to lower-case.");
  }
  auto all_exist = [&](const std::vector<std::string>& keys) {
    return std::all_of(keys.begin(), keys.end(),
                       [&](const std::string& k) { return Contains(names, k); });
  };

  const std::vector<std::string> primary_keys = CaseConvert(request.primary_keys, case_sensitive);
  bool primary_keys_set = false;
  if (!primary_keys.empty()) {
    if (all_exist(primary_keys)) {
      spec.primary_keys = primary_keys;
      primary_keys_set = true;
    } else if (request.strictly_check_specified) {
      return Status::InvalidArgument(
          "For sink table " + identifier + ", not all specified primary keys '" +
          JoinNames(primary_keys) + "' exist in source tables or computed columns '" +
          JoinNames(names) + "'.");
    }
  }
  if (!primary_keys_set) {
    const std::vector<std::string> source_keys = CaseConvert(source.primary_keys, case_sensitive);
    if (request.sync_primary_keys_from_source && !source_keys.empty()) {
      if (!all_exist(source_keys)) {
        return Status::InvalidArgument("For sink table " + identifier +
                                       ", the record's primary keys '" + JoinNames(source_keys) +
                                       "' are not all columns '" + JoinNames(names) + "'.");
      }
      spec.primary_keys = source_keys;
    } else if (request.require_primary_keys && request.sync_primary_keys_from_source) {
      return Status::InvalidArgument(
          "Failed to set specified primary keys for sink table " + identifier +
          ". Also, can't infer primary keys from source table schemas because source tables "
          "have no primary keys or have different primary keys.");
    }
  }

  const std::vector<std::string> partition_keys =
      CaseConvert(request.partition_keys, case_sensitive);
  if (!partition_keys.empty()) {
    if (all_exist(partition_keys)) {
      spec.partition_keys = partition_keys;
    } else if (request.strictly_check_specified) {
      return Status::InvalidArgument(
          "For sink table " + identifier + ", not all specified partition keys '" +
          JoinNames(partition_keys) + "' exist in source tables or computed columns '" +
          JoinNames(names) + "'.");
    }
  }

  // Java's Schema makes primary-key columns NOT NULL.
  for (DataField& column : spec.columns) {
    if (Contains(spec.primary_keys, column.name)) column.type = column.type->WithNullable(false);
  }
  spec.comment = source.comment;
  return spec;
}

Status CheckSchemaCompatible(const std::string& identifier, const TableSchema& table,
                             const std::vector<DataField>& source_fields) {
  const TypeMapping default_mapping;
  for (const DataField& field : source_fields) {
    const DataField* column = table.FieldByName(field.name);
    if (column == nullptr) {
      return Status::InvalidArgument(
          "Paimon schema and source table schema are not compatible: table " + identifier +
          " has no column " + Quoted(field.name));
    }
    if (CanConvert(*field.type, *column->type, default_mapping) != ConvertAction::kConvert) {
      return Status::InvalidArgument(
          "Paimon schema and source table schema are not compatible: cannot convert field " +
          Quoted(field.name) + " from source table type " + field.type->ToString() +
          " to Paimon type " + column->type->ToString() + " of table " + identifier);
    }
  }
  return Status::OK();
}

}  // namespace sluice
