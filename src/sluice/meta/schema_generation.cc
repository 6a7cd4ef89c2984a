#include "sluice/meta/schema_generation.h"

#include <algorithm>
#include <functional>
#include <initializer_list>
#include <set>

#include "sluice/base/string_util.h"
#include "sluice/meta/java_hash_map.h"
#include "sluice/meta/nested_column_path.h"
#include "sluice/meta/schema_text.h"
#include "sluice/meta/schema_validation.h"
#include "sluice/types/cast_rules.h"

namespace sluice {

namespace {

// Option keys (Java CoreOptions).
constexpr std::string_view kPrimaryKeyOption = "primary-key";
constexpr std::string_view kPartitionOption = "partition";
constexpr std::string_view kPrimaryKeyNullable = "primary-key.nullable";
constexpr std::string_view kBucketOption = "bucket";
constexpr std::string_view kBucketKeyOption = "bucket-key";
constexpr std::string_view kSequenceFieldOption = "sequence.field";
constexpr std::string_view kTypeOption = "type";
constexpr std::string_view kFieldsPrefix = "fields";

// Options Java marks @Immutable: they cannot change once a table holds data.
constexpr std::string_view kImmutableOptions[] = {
    "type",
    "bucket-key",
    "bucket-function.type",
    "data-file.path-directory",
    "merge-engine",
    "sequence.snapshot-ordering",
    "aggregation.remove-record-on-delete",
    "partial-update.remove-record-on-delete",
    "partial-update.remove-record-on-sequence-group",
    "rowkind.field",
    "primary-key",
    "primary-key.nullable",
    "partition",
    "dynamic-bucket.initial-buckets",
    "force-lookup",
    "row-tracking.enabled",
    "data-evolution.enabled",
    "index-file-in-data-file-dir",
    "blob-field",
    "blob-descriptor-field",
    "blob-view-field",
    "pk-clustering-override",
};

// `fields.<col>.<suffix>` keys whose column name moves with a rename
// (SchemaManager.applyRenameColumnsToOptions, case 2).
constexpr std::string_view kRenamedFieldOptionSuffixes[] = {
    "aggregate-function",
    "ignore-retract",
    "distinct",
    "list-agg-delimiter",
    "map.storage-layout",
    "map.shared-shredding.max-columns",
    "map.shared-shredding.column-placement-policy",
};

bool Contains(const std::vector<std::string>& list, std::string_view s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

std::string ColumnPath(const std::vector<std::string>& names) { return JavaJoin(names, "."); }

// ---- Field ids -------------------------------------------------------------------------------

// Java ReassignFieldId: every ROW field (at any depth) gets ++*highest, its children first.
DataTypePtr ReassignFieldIds(const DataTypePtr& type, int32_t* highest) {
  switch (type->root()) {
    case TypeRoot::kArray:
      return DataType::Array(ReassignFieldIds(type->element(), highest), type->nullable());
    case TypeRoot::kMultiset:
      return DataType::Multiset(ReassignFieldIds(type->element(), highest), type->nullable());
    case TypeRoot::kVector:
      return DataType::Vector(ReassignFieldIds(type->element(), highest), type->length(),
                              type->nullable());
    case TypeRoot::kMap: {
      // Key before value: argument evaluation order is unspecified.
      DataTypePtr key = ReassignFieldIds(type->key(), highest);
      DataTypePtr value = ReassignFieldIds(type->value(), highest);
      return DataType::Map(std::move(key), std::move(value), type->nullable());
    }
    case TypeRoot::kRow: {
      std::vector<DataField> fields;
      for (const DataField& f : type->fields()) {
        DataTypePtr child = ReassignFieldIds(f.type, highest);
        fields.push_back(
            DataField{++*highest, f.name, std::move(child), f.description, f.default_value});
      }
      return DataType::Row(std::move(fields), type->nullable());
    }
    default:
      return type;
  }
}

DataField* FindField(std::vector<DataField>* fields, std::string_view name) {
  for (DataField& f : *fields) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

// Runs `update` on the field `path` names, with its depth in `path` (UpdateFieldList).
Status UpdateField(std::vector<DataField>* fields, const std::vector<std::string>& path,
                   const std::function<Status(DataField*, size_t depth)>& update) {
  return UpdateFieldList(
      fields, path, 0,
      [&](std::vector<DataField>* list, const std::string& name, size_t depth) -> Status {
        DataField* field = FindField(list, name);
        if (field == nullptr) {
          return Status::NotFound("column '" + ColumnPath(path) + "' does not exist");
        }
        return update(field, depth);
      });
}

Status CheckNullabilityChange(bool old_nullable, bool new_nullable, const std::string& column,
                              bool disable_null_to_not_null) {
  if (disable_null_to_not_null && old_nullable && !new_nullable) {
    return Status::NotSupported(
        "Cannot update column type from nullable to non nullable for " + column +
        ". You can set table configuration option 'alter-column-null-to-not-null.disabled' = "
        "'false' to allow converting null columns to not null");
  }
  return Status::OK();
}

// SchemaManager.applyMove.
Status ApplyMove(std::vector<DataField>* fields, const ColumnMove& move) {
  auto index_of = [&](std::string_view name) -> int {
    for (size_t i = 0; i < fields->size(); ++i) {
      if ((*fields)[i].name == name) return static_cast<int>(i);
    }
    return -1;
  };
  const int from = index_of(move.field);
  if (from < 0) return Status::NotFound("Field name not found: " + move.field);
  auto move_to = [&](int to) {
    DataField f = std::move((*fields)[static_cast<size_t>(from)]);
    fields->erase(fields->begin() + from);
    fields->insert(fields->begin() + to, std::move(f));
  };
  auto same = [&](int ref) -> Status {
    if (ref == from) return Status::NotSupported("Cannot move itself for column " + move.field);
    return Status::OK();
  };
  const int last = static_cast<int>(fields->size()) - 1;
  switch (move.kind) {
    case ColumnMove::Kind::kFirst:
      SLUICE_RETURN_NOT_OK(same(0));
      move_to(0);
      return Status::OK();
    case ColumnMove::Kind::kLast:
      SLUICE_RETURN_NOT_OK(same(last));
      move_to(last);
      return Status::OK();
    default:
      break;
  }
  const int ref = index_of(move.reference);
  if (ref < 0) return Status::NotFound("Reference field name not found: " + move.reference);
  SLUICE_RETURN_NOT_OK(same(ref));
  int target = ref;
  if (move.kind == ColumnMove::Kind::kAfter && from > ref) ++target;
  if (move.kind == ColumnMove::Kind::kBefore && from < ref) --target;
  target = std::min(target, last);
  move_to(target);
  return Status::OK();
}

// SchemaManager.checkAlterTableOption.
Status CheckAlterTableOption(const JavaHashMap& options, const std::string& key,
                             const std::string* old_value, const std::string& new_value) {
  for (std::string_view immutable : kImmutableOptions) {
    if (key == immutable) return Status::NotSupported("Change '" + key + "' is not supported yet.");
  }
  if (key == kBucketOption) {
    const bool old_dynamic = old_value == nullptr || TrimSpacesAndTabs(*old_value) == "-1";
    if (old_dynamic) return Status::NotSupported("Cannot change bucket when it is -1.");
    if (TrimSpacesAndTabs(new_value) == "-1") {
      return Status::NotSupported("Cannot change bucket to -1.");
    }
  }
  if (key == "deletion-vectors.enabled" &&
      !BooleanOptionOr(options.Get("deletion-vectors.modifiable"), false)) {
    const bool old_dv = BooleanOptionOr(old_value, false);
    const bool new_dv = AsciiToLower(new_value) == "true";
    if (old_dv != new_dv) {
      return Status::NotSupported(
          std::string("Cannot change deletion vectors mode from ") + (old_dv ? "true" : "false") +
          " to " + (new_dv ? "true" : "false") +
          ". If you are confident, set table option 'deletion-vectors.modifiable' = 'true' to "
          "allow deletion vectors modification.");
    }
  }
  for (std::string_view sticky : {"ignore-delete", "ignore-update-before"}) {
    if (key == sticky && BooleanOptionOr(old_value, false) && AsciiToLower(new_value) != "true") {
      return Status::NotSupported("Cannot change " + key + " from true to false.");
    }
  }
  return Status::OK();
}

// SchemaManager.checkResetTableOption.
Status CheckResetTableOption(const JavaHashMap& options, const std::string& key) {
  for (std::string_view immutable : kImmutableOptions) {
    if (key == immutable) return Status::NotSupported("Change '" + key + "' is not supported yet.");
  }
  if (key == kBucketOption) return Status::NotSupported("Cannot reset " + key + ".");
  if (key == "deletion-vectors.enabled") {
    return CheckAlterTableOption(options, key, options.Get(key), "false");
  }
  return Status::OK();
}

std::vector<std::string> RenameColumns(const std::vector<std::string>& columns,
                                       const std::vector<std::pair<std::string, std::string>>& m) {
  std::vector<std::string> out;
  for (const std::string& c : columns) {
    std::string renamed = c;
    for (const auto& [from, to] : m) {
      if (c == from) renamed = to;
    }
    out.push_back(std::move(renamed));
  }
  return out;
}

// SchemaManager.applyRenameColumnsToOptions: a copy of the map with column names carried over,
// or the map itself when nothing is renamed.
JavaHashMap RenameColumnsInOptions(const JavaHashMap& options,
                                   const std::vector<SchemaChange>& changes) {
  std::vector<std::pair<std::string, std::string>> renames;
  for (const SchemaChange& c : changes) {
    if (c.kind == SchemaChange::Kind::kRenameColumn && c.field_names.size() == 1) {
      renames.emplace_back(c.field_names[0], c.value);
    }
  }
  bool any_rename = std::any_of(changes.begin(), changes.end(), [](const SchemaChange& c) {
    return c.kind == SchemaChange::Kind::kRenameColumn;
  });
  if (!any_rename) return options;
  JavaHashMap out = JavaHashMap::CopyOf(options);
  for (std::string_view key : {kBucketKeyOption, kSequenceFieldOption}) {
    const std::string* value = options.Get(key);
    if (value != nullptr && !TrimSpacesAndTabs(*value).empty()) {
      out.Put(std::string(key), JavaJoin(RenameColumns(JavaSplit(*value), renames)));
    }
  }
  for (const auto& [from, to] : renames) {
    for (std::string_view suffix : kRenamedFieldOptionSuffixes) {
      const std::string key = std::string(kFieldsPrefix) + "." + from + "." + std::string(suffix);
      if (const std::string* value = out.Get(key)) {
        std::string v = *value;
        out.Remove(key);
        out.Put(std::string(kFieldsPrefix) + "." + to + "." + std::string(suffix), std::move(v));
      }
    }
  }
  for (const auto& [key, unused] : options.IterationOrder()) {
    if (!key.starts_with(std::string(kFieldsPrefix) + ".")) continue;
    std::string suffix;
    if (key.ends_with("sequence-group")) {
      suffix = "sequence-group";
    } else if (key.ends_with("nested-key")) {
      suffix = "nested-key";
    } else {
      continue;
    }
    const size_t begin = kFieldsPrefix.size() + 1;
    if (key.size() < begin + suffix.size() + 1) continue;
    const std::string key_fields = key.substr(begin, key.size() - suffix.size() - 1 - begin);
    const std::string* value = out.Get(key);
    if (value == nullptr) continue;
    std::string new_value = JavaJoin(RenameColumns(JavaSplit(*value), renames));
    out.Remove(key);
    out.Put(std::string(kFieldsPrefix) + "." +
                JavaJoin(RenameColumns(JavaSplit(key_fields), renames)) + "." + suffix,
            std::move(new_value));
  }
  return out;
}

// What Java's Schema constructor does with its options and fields: `partition` and
// `primary-key` options become key lists; primary-key columns get the nullability
// `primary-key.nullable` asks for (NOT NULL by default).
struct NormalizedSchema {
  std::vector<DataField> fields;
  std::vector<std::string> partition_keys;
  std::vector<std::string> primary_keys;
  JavaHashMap options;
};

Result<NormalizedSchema> NormalizeSchema(std::vector<DataField> fields,
                                         std::vector<std::string> partition_keys,
                                         std::vector<std::string> primary_keys,
                                         const JavaHashMap& options) {
  NormalizedSchema out;
  out.options = JavaHashMap::CopyOf(options);
  if (const std::string* partition = out.options.Get(kPartitionOption)) {
    if (!partition_keys.empty()) {
      return Status::InvalidArgument(
          "Cannot define partition on DDL and table options at the same time.");
    }
    partition_keys = KeyListOption(*partition);
    out.options.Remove(kPartitionOption);
  }
  if (const std::string* pk = out.options.Get(kPrimaryKeyOption)) {
    if (!primary_keys.empty()) {
      return Status::InvalidArgument(
          "Cannot define primary key on DDL and table options at the same time.");
    }
    primary_keys = KeyListOption(*pk);
    out.options.Remove(kPrimaryKeyOption);
  }
  std::vector<std::string> names;
  for (const DataField& f : fields) names.push_back(f.name);
  auto check_list = [&](const std::vector<std::string>& keys, std::string_view what) -> Status {
    std::set<std::string> seen;
    for (const std::string& k : keys) {
      if (!seen.insert(k).second) {
        return Status::InvalidArgument(std::string(what) + " constraint " + JavaListString(keys) +
                                       " must not contain duplicate columns. Found: [" + k + "]");
      }
      if (!Contains(names, k)) {
        return Status::InvalidArgument("Table column " + JavaListString(names) +
                                       " should include all " + std::string(what) + " fields " +
                                       JavaListString(keys) + " ('" + k + "' is not a column)");
      }
    }
    return Status::OK();
  };
  SLUICE_RETURN_NOT_OK(check_list(partition_keys, "Partition key"));
  SLUICE_RETURN_NOT_OK(check_list(primary_keys, "Primary key"));
  const bool pk_nullable = BooleanOptionOr(out.options.Get(kPrimaryKeyNullable), false);
  for (DataField& f : fields) {
    if (Contains(primary_keys, f.name) && f.type->nullable() != pk_nullable) {
      f.type = f.type->WithNullable(pk_nullable);
    }
  }
  out.fields = std::move(fields);
  out.partition_keys = std::move(partition_keys);
  out.primary_keys = std::move(primary_keys);
  return out;
}

}  // namespace

// ---- SchemaChange factories ------------------------------------------------------------------

SchemaChange SchemaChange::SetOption(std::string key, std::string value) {
  SchemaChange c;
  c.kind = Kind::kSetOption;
  c.key = std::move(key);
  c.value = std::move(value);
  return c;
}

SchemaChange SchemaChange::RemoveOption(std::string key) {
  SchemaChange c;
  c.kind = Kind::kRemoveOption;
  c.key = std::move(key);
  return c;
}

SchemaChange SchemaChange::UpdateComment(std::optional<std::string> comment) {
  SchemaChange c;
  c.kind = Kind::kUpdateComment;
  c.comment = std::move(comment);
  return c;
}

SchemaChange SchemaChange::AddColumn(std::vector<std::string> field_names, DataTypePtr type,
                                     std::optional<std::string> comment,
                                     std::optional<ColumnMove> move) {
  SchemaChange c;
  c.kind = Kind::kAddColumn;
  c.field_names = std::move(field_names);
  c.type = std::move(type);
  c.comment = std::move(comment);
  c.move = std::move(move);
  return c;
}

SchemaChange SchemaChange::RenameColumn(std::vector<std::string> field_names,
                                        std::string new_name) {
  SchemaChange c;
  c.kind = Kind::kRenameColumn;
  c.field_names = std::move(field_names);
  c.value = std::move(new_name);
  return c;
}

SchemaChange SchemaChange::DropColumn(std::vector<std::string> field_names) {
  SchemaChange c;
  c.kind = Kind::kDropColumn;
  c.field_names = std::move(field_names);
  return c;
}

SchemaChange SchemaChange::UpdateColumnType(std::vector<std::string> field_names, DataTypePtr type,
                                            bool keep_nullability) {
  SchemaChange c;
  c.kind = Kind::kUpdateColumnType;
  c.field_names = std::move(field_names);
  c.type = std::move(type);
  c.keep_nullability = keep_nullability;
  return c;
}

SchemaChange SchemaChange::UpdateColumnNullability(std::vector<std::string> field_names,
                                                   bool nullable) {
  SchemaChange c;
  c.kind = Kind::kUpdateColumnNullability;
  c.field_names = std::move(field_names);
  c.nullable = nullable;
  return c;
}

SchemaChange SchemaChange::UpdateColumnComment(std::vector<std::string> field_names,
                                               std::optional<std::string> comment) {
  SchemaChange c;
  c.kind = Kind::kUpdateColumnComment;
  c.field_names = std::move(field_names);
  c.comment = std::move(comment);
  return c;
}

SchemaChange SchemaChange::UpdateColumnPosition(ColumnMove move) {
  SchemaChange c;
  c.kind = Kind::kUpdateColumnPosition;
  c.move = std::move(move);
  return c;
}

// ---- Creating --------------------------------------------------------------------------------

Result<TableSchema> MakeInitialSchema(const NewTableSpec& spec, int64_t time_millis) {
  // Schema.Builder: columns numbered in order, nested fields after their column.
  int32_t highest = -1;
  std::vector<DataField> fields;
  for (const DataField& column : spec.columns) {
    const int32_t id = ++highest;
    DataTypePtr type = ReassignFieldIds(column.type, &highest);
    fields.push_back(
        DataField{id, column.name, std::move(type), column.description, column.default_value});
  }
  // The builder's HashMap (puts in the order given), copied by the Schema constructor.
  JavaHashMap builder_options = JavaHashMap::FromPuts(spec.options);
  SLUICE_ASSIGN_OR_RETURN(
      NormalizedSchema normalized,
      NormalizeSchema(std::move(fields), spec.partition_keys, spec.primary_keys, builder_options));
  SLUICE_ASSIGN_OR_RETURN(
      TableSchema schema,
      TableSchema::Make(TableSchema::kCurrentVersion, 0, std::move(normalized.fields), highest,
                        std::move(normalized.partition_keys), std::move(normalized.primary_keys),
                        normalized.options.IterationOrder(), spec.comment, time_millis));
  SLUICE_RETURN_NOT_OK(ValidateTableSchema(schema));
  return schema;
}

// ---- Altering --------------------------------------------------------------------------------

Result<TableSchema> ApplySchemaChanges(const TableSchema& schema,
                                       const std::vector<SchemaChange>& changes, bool has_snapshots,
                                       int64_t time_millis) {
  // The options as Java read them from the file, and the copy the changes go into.
  const JavaHashMap old_options = JavaHashMap::FromPuts(schema.options());
  JavaHashMap options = JavaHashMap::CopyOf(old_options);
  const bool disable_null_to_not_null =
      BooleanOptionOr(old_options.Get("alter-column-null-to-not-null.disabled"), true);
  const bool disable_explicit_casts =
      BooleanOptionOr(old_options.Get("disable-explicit-type-casting"), false);
  const bool add_before_partition =
      BooleanOptionOr(old_options.Get("add-column-before-partition"), false);
  const std::vector<std::string>& partition_keys = schema.partition_keys();

  std::vector<DataField> fields = schema.fields();
  int32_t highest = schema.highest_field_id();
  std::optional<std::string> comment = schema.comment();

  for (const SchemaChange& change : changes) {
    const std::string column = ColumnPath(change.field_names);
    const bool top_level = change.field_names.size() == 1;
    if (change.kind != SchemaChange::Kind::kSetOption &&
        change.kind != SchemaChange::Kind::kRemoveOption &&
        change.kind != SchemaChange::Kind::kUpdateComment &&
        change.kind != SchemaChange::Kind::kUpdateColumnPosition && change.field_names.empty()) {
      return Status::InvalidArgument("schema change without a column name");
    }
    switch (change.kind) {
      case SchemaChange::Kind::kSetOption: {
        const std::string* old_value = old_options.Get(change.key);
        bool unchanged = old_value != nullptr && *old_value == change.value;
        if (old_value == nullptr && change.key == kPrimaryKeyOption) {
          unchanged = KeyListOption(change.value) == schema.primary_keys();
        } else if (old_value == nullptr && change.key == kPartitionOption) {
          unchanged = KeyListOption(change.value) == schema.partition_keys();
        } else if (change.key == kTypeOption) {
          unchanged = AsciiToLower(change.value) == AsciiToLower(old_value ? *old_value : "table");
        }
        if (!unchanged && change.key == kTypeOption) {
          return Status::NotSupported("Change 'type' is not supported yet.");
        }
        if (has_snapshots && !unchanged) {
          SLUICE_RETURN_NOT_OK(
              CheckAlterTableOption(old_options, change.key, old_value, change.value));
        }
        if (!unchanged) options.Put(change.key, change.value);
        break;
      }
      case SchemaChange::Kind::kRemoveOption:
        if (change.key == kTypeOption) {
          return Status::NotSupported("Change 'type' is not supported yet.");
        }
        if (has_snapshots) SLUICE_RETURN_NOT_OK(CheckResetTableOption(old_options, change.key));
        options.Remove(change.key);
        break;
      case SchemaChange::Kind::kUpdateComment:
        comment = change.comment;
        break;
      case SchemaChange::Kind::kAddColumn: {
        if (change.type == nullptr)
          return Status::InvalidArgument("column " + column + ": no type");
        if (!change.type->nullable()) {
          return Status::InvalidArgument("Column " + column +
                                         " cannot specify NOT NULL in the table.");
        }
        const int32_t id = ++highest;
        DataTypePtr type = ReassignFieldIds(change.type, &highest);
        SLUICE_RETURN_NOT_OK(UpdateFieldList(
            &fields, change.field_names, 0,
            [&](std::vector<DataField>* list, const std::string& name, size_t) -> Status {
              if (FindField(list, name) != nullptr) {
                return Status::AlreadyExists("column '" + column + "' already exists");
              }
              DataField field{id, name, type, change.comment, std::nullopt};
              auto index_of = [&](const std::string& ref) -> int {
                for (size_t i = 0; i < list->size(); ++i) {
                  if ((*list)[i].name == ref) return static_cast<int>(i);
                }
                return -1;
              };
              size_t at = list->size();
              if (change.move) {
                switch (change.move->kind) {
                  case ColumnMove::Kind::kFirst:
                    at = 0;
                    break;
                  case ColumnMove::Kind::kLast:
                    break;
                  case ColumnMove::Kind::kAfter:
                  case ColumnMove::Kind::kBefore: {
                    int ref = index_of(change.move->reference);
                    if (ref < 0) {
                      return Status::NotFound("column '" + change.move->reference +
                                              "' does not exist");
                    }
                    at = static_cast<size_t>(ref) +
                         (change.move->kind == ColumnMove::Kind::kAfter ? 1 : 0);
                    break;
                  }
                }
              } else if (add_before_partition && !partition_keys.empty() && top_level) {
                for (size_t i = 0; i < list->size(); ++i) {
                  if (Contains(partition_keys, (*list)[i].name)) {
                    at = i;
                    break;
                  }
                }
              }
              list->insert(list->begin() + static_cast<std::ptrdiff_t>(at), std::move(field));
              return Status::OK();
            }));
        break;
      }
      case SchemaChange::Kind::kRenameColumn:
        if (top_level && Contains(partition_keys, change.field_names[0])) {
          return Status::NotSupported("Cannot rename partition column: [" + column + "]");
        }
        SLUICE_RETURN_NOT_OK(UpdateFieldList(
            &fields, change.field_names, 0,
            [&](std::vector<DataField>* list, const std::string& name, size_t) -> Status {
              DataField* field = FindField(list, name);
              if (field == nullptr) {
                return Status::NotFound("column '" + column + "' does not exist");
              }
              if (FindField(list, change.value) != nullptr) {
                return Status::AlreadyExists("column '" + change.value + "' already exists");
              }
              field->name = change.value;
              return Status::OK();
            }));
        break;
      case SchemaChange::Kind::kDropColumn:
        if (top_level && (Contains(partition_keys, change.field_names[0]) ||
                          Contains(schema.primary_keys(), change.field_names[0]))) {
          return Status::NotSupported("Cannot drop partition key or primary key: [" + column + "]");
        }
        SLUICE_RETURN_NOT_OK(UpdateFieldList(
            &fields, change.field_names, 0,
            [&](std::vector<DataField>* list, const std::string& name, size_t) -> Status {
              if (FindField(list, name) == nullptr) {
                return Status::NotFound("column '" + column + "' does not exist");
              }
              list->erase(std::remove_if(list->begin(), list->end(),
                                         [&](const DataField& f) { return f.name == name; }),
                          list->end());
              if (list->empty()) return Status::InvalidArgument("Cannot drop all fields in table");
              return Status::OK();
            }));
        break;
      case SchemaChange::Kind::kUpdateColumnType:
        if (change.type == nullptr)
          return Status::InvalidArgument("column " + column + ": no type");
        if (top_level && Contains(partition_keys, change.field_names[0])) {
          return Status::NotSupported("Cannot update partition column: [" + column + "]");
        }
        if (top_level && Contains(schema.primary_keys(), change.field_names[0])) {
          return Status::NotSupported("Cannot update primary key");
        }
        SLUICE_RETURN_NOT_OK(
            UpdateField(&fields, change.field_names, [&](DataField* f, size_t depth) -> Status {
              // The type the change is about: the column's, or its ARRAY element / MAP value
              // the path's "element" / "value" markers reach.
              const size_t path_size = change.field_names.size();
              const DataTypePtr source = TypeInside(f->type, depth, path_size);
              DataTypePtr target = change.type;
              if (change.keep_nullability) {
                target = target->WithNullable(source->nullable());
              } else {
                SLUICE_RETURN_NOT_OK(CheckNullabilityChange(source->nullable(), target->nullable(),
                                                            column, disable_null_to_not_null));
              }
              if (!SupportsSchemaTypeChange(*source, *target, !disable_explicit_casts)) {
                return Status::InvalidArgument("Column type " + f->name + "[" + source->ToString() +
                                               "] cannot be converted to " + target->ToString() +
                                               " without losing information.");
              }
              // A ROW keeps the ids of its fields (and new ones would need ids): only atomic
              // types; a nested column changes through paths to its atomic parts.
              if (target->IsNested() && !target->EqualsIgnoreNullable(*source)) {
                return Status::NotSupported("column '" + column +
                                            "': changing to the nested type " + target->ToString() +
                                            " is not supported");
              }
              f->type = WithTypeInside(f->type, std::move(target), depth, path_size);
              return Status::OK();
            }));
        break;
      case SchemaChange::Kind::kUpdateColumnNullability:
        if (change.nullable && top_level &&
            Contains(schema.primary_keys(), change.field_names[0])) {
          return Status::NotSupported("Cannot change nullability of primary key");
        }
        SLUICE_RETURN_NOT_OK(
            UpdateField(&fields, change.field_names, [&](DataField* f, size_t depth) -> Status {
              const size_t path_size = change.field_names.size();
              const DataTypePtr source = TypeInside(f->type, depth, path_size);
              SLUICE_RETURN_NOT_OK(CheckNullabilityChange(source->nullable(), change.nullable,
                                                          column, disable_null_to_not_null));
              f->type =
                  WithTypeInside(f->type, source->WithNullable(change.nullable), depth, path_size);
              return Status::OK();
            }));
        break;
      case SchemaChange::Kind::kUpdateColumnComment:
        SLUICE_RETURN_NOT_OK(
            UpdateField(&fields, change.field_names, [&](DataField* f, size_t) -> Status {
              f->description = change.comment;
              return Status::OK();
            }));
        break;
      case SchemaChange::Kind::kUpdateColumnPosition:
        if (!change.move) return Status::InvalidArgument("column move without a position");
        SLUICE_RETURN_NOT_OK(ApplyMove(&fields, *change.move));
        break;
    }
  }

  std::vector<std::pair<std::string, std::string>> renames;
  for (const SchemaChange& c : changes) {
    if (c.kind == SchemaChange::Kind::kRenameColumn && c.field_names.size() == 1) {
      renames.emplace_back(c.field_names[0], c.value);
    }
  }
  std::vector<std::string> primary_keys = RenameColumns(schema.primary_keys(), renames);
  JavaHashMap renamed_options = RenameColumnsInOptions(options, changes);
  SLUICE_ASSIGN_OR_RETURN(
      NormalizedSchema normalized,
      NormalizeSchema(std::move(fields), partition_keys, std::move(primary_keys), renamed_options));
  Result<TableSchema> next = TableSchema::Make(
      TableSchema::kCurrentVersion, schema.id() + 1, std::move(normalized.fields), highest,
      std::move(normalized.partition_keys), std::move(normalized.primary_keys),
      normalized.options.IterationOrder(), std::move(comment), time_millis);
  if (!next.ok()) return next.status();
  SLUICE_RETURN_NOT_OK(ValidateTableSchema(*next));
  return next;
}

}  // namespace sluice
