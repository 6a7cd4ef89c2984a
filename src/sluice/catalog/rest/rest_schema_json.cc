#include "sluice/catalog/rest/rest_schema_json.h"

#include <string>
#include <utility>

#include "sluice/base/json_reader.h"
#include "sluice/base/json_writer.h"
#include "sluice/types/data_type_json.h"

namespace sluice::rest {
namespace {

// JSON readers report Corruption (a damaged file); in a request it is the caller's mistake.
Status AsInvalid(const Status& status) {
  if (status.ok() || status.code() == StatusCode::kInvalidArgument ||
      status.code() == StatusCode::kNotSupported) {
    return status;
  }
  return Status::InvalidArgument(status.message());
}

template <typename T>
Result<T> AsInvalid(Result<T> result) {
  if (result.ok()) return result;
  return AsInvalid(result.status());
}

Json ParseWritten(const std::string& text) {
  // The writer's own output always parses.
  Result<Json> json = ParseJson(text);
  return json.ok() ? std::move(*json) : Json();
}

Json FieldsJson(const std::vector<DataField>& fields) {
  JsonWriter writer;
  writer.BeginArray();
  for (const DataField& field : fields) WriteDataFieldJson(field, &writer);
  writer.EndArray();
  return ParseWritten(std::move(writer).Finish());
}

Json TypeJson(const DataType& type) { return ParseWritten(DataTypeToJson(type)); }

Json Strings(const std::vector<std::string>& values) {
  Json array = Json::array();
  for (const std::string& value : values) array.push_back(value);
  return array;
}

Json Options(const std::vector<std::pair<std::string, std::string>>& options) {
  Json object = Json::object();
  for (const auto& [key, value] : options) object[key] = value;
  return object;
}

Json Comment(const std::optional<std::string>& comment) {
  return comment ? Json(*comment) : Json(nullptr);
}

// An optional member: absent and null read as nullptr.
const Json* Optional(const Json& object, std::string_view key) {
  const Json* value = FindMember(object, key);
  return value == nullptr || value->is_null() ? nullptr : value;
}

Result<std::vector<std::string>> ReadStrings(const Json& object, std::string_view key,
                                             std::string_view parent) {
  std::vector<std::string> values;
  const std::string field = JsonFieldPath(parent, key);
  const Json* array = Optional(object, key);
  if (array == nullptr) return values;
  SLUICE_RETURN_NOT_OK(AsInvalid(ExpectArray(*array, field)));
  for (size_t i = 0; i < array->size(); ++i) {
    SLUICE_ASSIGN_OR_RETURN(std::string value,
                            AsInvalid(JsonToString((*array)[i], JsonIndexPath(field, i))));
    values.push_back(std::move(value));
  }
  return values;
}

Result<std::optional<std::string>> ReadOptionalString(const Json& object, std::string_view key,
                                                      std::string_view parent) {
  const Json* value = Optional(object, key);
  if (value == nullptr) return std::optional<std::string>();
  SLUICE_ASSIGN_OR_RETURN(std::string text,
                          AsInvalid(JsonToString(*value, JsonFieldPath(parent, key))));
  return std::optional<std::string>(std::move(text));
}

Result<std::string> ReadString(const Json& object, std::string_view key, std::string_view parent) {
  const std::string field = JsonFieldPath(parent, key);
  SLUICE_ASSIGN_OR_RETURN(const Json* value, AsInvalid(GetMember(object, key, field)));
  return AsInvalid(JsonToString(*value, field));
}

Result<bool> ReadBool(const Json& object, std::string_view key, std::string_view parent) {
  const std::string field = JsonFieldPath(parent, key);
  SLUICE_ASSIGN_OR_RETURN(const Json* value, AsInvalid(GetMember(object, key, field)));
  if (!value->is_boolean()) {
    return Status::InvalidArgument("field '" + field + "': expected boolean, got " +
                                   std::string(JsonTypeName(*value)));
  }
  return value->get<bool>();
}

Result<DataTypePtr> ReadType(const Json& object, std::string_view key, std::string_view parent) {
  const std::string field = JsonFieldPath(parent, key);
  SLUICE_ASSIGN_OR_RETURN(const Json* value, AsInvalid(GetMember(object, key, field)));
  return AsInvalid(DataTypeFromJson(*value, field));
}

Result<std::vector<std::string>> ReadFieldNames(const Json& object, std::string_view parent) {
  SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> names,
                          ReadStrings(object, "fieldNames", parent));
  if (names.empty()) {
    return Status::InvalidArgument("field '" + JsonFieldPath(parent, "fieldNames") +
                                   "': expected at least one name");
  }
  return names;
}

constexpr std::pair<ColumnMove::Kind, std::string_view> kMoveTypes[] = {
    {ColumnMove::Kind::kFirst, "FIRST"},
    {ColumnMove::Kind::kAfter, "AFTER"},
    {ColumnMove::Kind::kBefore, "BEFORE"},
    {ColumnMove::Kind::kLast, "LAST"},
};

Json MoveJson(const ColumnMove& move) {
  Json json = Json::object();
  json["fieldName"] = move.field;
  json["referenceFieldName"] = move.reference.empty() ? Json(nullptr) : Json(move.reference);
  for (const auto& [kind, name] : kMoveTypes) {
    if (kind == move.kind) json["type"] = name;
  }
  return json;
}

Result<std::optional<ColumnMove>> ReadMove(const Json& object, std::string_view parent) {
  const Json* value = Optional(object, "move");
  if (value == nullptr) return std::optional<ColumnMove>();
  const std::string field = JsonFieldPath(parent, "move");
  SLUICE_RETURN_NOT_OK(AsInvalid(ExpectObject(*value, field)));
  ColumnMove move;
  SLUICE_ASSIGN_OR_RETURN(std::optional<std::string> name,
                          ReadOptionalString(*value, "fieldName", field));
  SLUICE_ASSIGN_OR_RETURN(std::optional<std::string> reference,
                          ReadOptionalString(*value, "referenceFieldName", field));
  SLUICE_ASSIGN_OR_RETURN(std::string type, ReadString(*value, "type", field));
  bool known = false;
  for (const auto& [kind, text] : kMoveTypes) {
    if (text == type) {
      move.kind = kind;
      known = true;
    }
  }
  if (!known) {
    return Status::InvalidArgument("field '" + JsonFieldPath(field, "type") +
                                   "': expected FIRST, AFTER, BEFORE or LAST, got '" + type + "'");
  }
  move.field = name.value_or("");
  move.reference = reference.value_or("");
  if ((move.kind == ColumnMove::Kind::kAfter || move.kind == ColumnMove::Kind::kBefore) &&
      move.reference.empty()) {
    return Status::InvalidArgument("field '" + JsonFieldPath(field, "referenceFieldName") +
                                   "': required for " + type);
  }
  return std::optional<ColumnMove>(std::move(move));
}

}  // namespace

Json TableSchemaToRestJson(const TableSchema& schema) {
  Json json = Json::object();
  json["fields"] = FieldsJson(schema.fields());
  json["partitionKeys"] = Strings(schema.partition_keys());
  json["primaryKeys"] = Strings(schema.primary_keys());
  json["options"] = Options(schema.options());
  json["comment"] = Comment(schema.comment());
  return json;
}

Json NewTableToRestJson(const std::vector<DataField>& fields, const NewTableSpec& spec) {
  Json json = Json::object();
  json["fields"] = FieldsJson(fields);
  json["partitionKeys"] = Strings(spec.partition_keys);
  json["primaryKeys"] = Strings(spec.primary_keys);
  json["options"] = Options(spec.options);
  json["comment"] = Comment(spec.comment);
  return json;
}

Result<NewTableSpec> NewTableFromRestJson(const Json& json, std::string_view field) {
  SLUICE_RETURN_NOT_OK(AsInvalid(ExpectObject(json, field)));
  NewTableSpec spec;
  const std::string fields_path = JsonFieldPath(field, "fields");
  SLUICE_ASSIGN_OR_RETURN(const Json* fields, AsInvalid(GetMember(json, "fields", fields_path)));
  SLUICE_RETURN_NOT_OK(AsInvalid(ExpectArray(*fields, fields_path)));
  if (fields->empty()) {
    return Status::InvalidArgument("field '" + fields_path + "': a table needs a column");
  }
  // Read as the fields of a ROW, which takes them with ids (Java's) or without (numbered).
  Json row = Json::object();
  row["type"] = "ROW";
  row["fields"] = *fields;
  SLUICE_ASSIGN_OR_RETURN(DataTypePtr row_type, AsInvalid(DataTypeFromJson(row, field)));
  spec.columns = row_type->fields();
  SLUICE_ASSIGN_OR_RETURN(spec.partition_keys, ReadStrings(json, "partitionKeys", field));
  SLUICE_ASSIGN_OR_RETURN(spec.primary_keys, ReadStrings(json, "primaryKeys", field));
  if (const Json* options = Optional(json, "options")) {
    const std::string options_path = JsonFieldPath(field, "options");
    SLUICE_RETURN_NOT_OK(AsInvalid(ExpectObject(*options, options_path)));
    for (const auto& [key, value] : options->items()) {
      SLUICE_ASSIGN_OR_RETURN(std::string text,
                              AsInvalid(JsonToString(value, JsonFieldPath(options_path, key))));
      spec.options.emplace_back(key, std::move(text));
    }
  }
  SLUICE_ASSIGN_OR_RETURN(spec.comment, ReadOptionalString(json, "comment", field));
  return spec;
}

Json SchemaChangeToRestJson(const SchemaChange& change) {
  Json json = Json::object();
  switch (change.kind) {
    case SchemaChange::Kind::kSetOption:
      json["action"] = "setOption";
      json["key"] = change.key;
      json["value"] = change.value;
      break;
    case SchemaChange::Kind::kRemoveOption:
      json["action"] = "removeOption";
      json["key"] = change.key;
      break;
    case SchemaChange::Kind::kUpdateComment:
      json["action"] = "updateComment";
      json["comment"] = Comment(change.comment);
      break;
    case SchemaChange::Kind::kAddColumn:
      json["action"] = "addColumn";
      json["fieldNames"] = Strings(change.field_names);
      json["dataType"] = TypeJson(*change.type);
      json["comment"] = Comment(change.comment);
      json["move"] = change.move ? MoveJson(*change.move) : Json(nullptr);
      break;
    case SchemaChange::Kind::kRenameColumn:
      json["action"] = "renameColumn";
      json["fieldNames"] = Strings(change.field_names);
      json["newName"] = change.value;
      break;
    case SchemaChange::Kind::kDropColumn:
      json["action"] = "dropColumn";
      json["fieldNames"] = Strings(change.field_names);
      break;
    case SchemaChange::Kind::kUpdateColumnType:
      json["action"] = "updateColumnType";
      json["fieldNames"] = Strings(change.field_names);
      json["newDataType"] = TypeJson(*change.type);
      json["keepNullability"] = change.keep_nullability;
      break;
    case SchemaChange::Kind::kUpdateColumnNullability:
      json["action"] = "updateColumnNullability";
      json["fieldNames"] = Strings(change.field_names);
      json["newNullability"] = change.nullable;
      break;
    case SchemaChange::Kind::kUpdateColumnComment:
      json["action"] = "updateColumnComment";
      json["fieldNames"] = Strings(change.field_names);
      json["newComment"] = Comment(change.comment);
      break;
    case SchemaChange::Kind::kUpdateColumnPosition:
      json["action"] = "updateColumnPosition";
      json["move"] = change.move ? MoveJson(*change.move) : Json(nullptr);
      break;
  }
  return json;
}

Result<SchemaChange> SchemaChangeFromRestJson(const Json& json, std::string_view field) {
  SLUICE_RETURN_NOT_OK(AsInvalid(ExpectObject(json, field)));
  SLUICE_ASSIGN_OR_RETURN(std::string action, ReadString(json, "action", field));
  if (action == "setOption") {
    SLUICE_ASSIGN_OR_RETURN(std::string key, ReadString(json, "key", field));
    SLUICE_ASSIGN_OR_RETURN(std::string value, ReadString(json, "value", field));
    return SchemaChange::SetOption(std::move(key), std::move(value));
  }
  if (action == "removeOption") {
    SLUICE_ASSIGN_OR_RETURN(std::string key, ReadString(json, "key", field));
    return SchemaChange::RemoveOption(std::move(key));
  }
  if (action == "updateComment") {
    SLUICE_ASSIGN_OR_RETURN(auto comment, ReadOptionalString(json, "comment", field));
    return SchemaChange::UpdateComment(std::move(comment));
  }
  if (action == "addColumn") {
    SLUICE_ASSIGN_OR_RETURN(auto names, ReadFieldNames(json, field));
    SLUICE_ASSIGN_OR_RETURN(DataTypePtr type, ReadType(json, "dataType", field));
    SLUICE_ASSIGN_OR_RETURN(auto comment, ReadOptionalString(json, "comment", field));
    SLUICE_ASSIGN_OR_RETURN(auto move, ReadMove(json, field));
    return SchemaChange::AddColumn(std::move(names), std::move(type), std::move(comment),
                                   std::move(move));
  }
  if (action == "renameColumn") {
    SLUICE_ASSIGN_OR_RETURN(auto names, ReadFieldNames(json, field));
    SLUICE_ASSIGN_OR_RETURN(std::string new_name, ReadString(json, "newName", field));
    return SchemaChange::RenameColumn(std::move(names), std::move(new_name));
  }
  if (action == "dropColumn") {
    SLUICE_ASSIGN_OR_RETURN(auto names, ReadFieldNames(json, field));
    return SchemaChange::DropColumn(std::move(names));
  }
  if (action == "updateColumnType") {
    SLUICE_ASSIGN_OR_RETURN(auto names, ReadFieldNames(json, field));
    SLUICE_ASSIGN_OR_RETURN(DataTypePtr type, ReadType(json, "newDataType", field));
    bool keep = false;
    if (Optional(json, "keepNullability") != nullptr) {
      SLUICE_ASSIGN_OR_RETURN(keep, ReadBool(json, "keepNullability", field));
    }
    return SchemaChange::UpdateColumnType(std::move(names), std::move(type), keep);
  }
  if (action == "updateColumnNullability") {
    SLUICE_ASSIGN_OR_RETURN(auto names, ReadFieldNames(json, field));
    SLUICE_ASSIGN_OR_RETURN(bool nullable, ReadBool(json, "newNullability", field));
    return SchemaChange::UpdateColumnNullability(std::move(names), nullable);
  }
  if (action == "updateColumnComment") {
    SLUICE_ASSIGN_OR_RETURN(auto names, ReadFieldNames(json, field));
    SLUICE_ASSIGN_OR_RETURN(auto comment, ReadOptionalString(json, "newComment", field));
    return SchemaChange::UpdateColumnComment(std::move(names), std::move(comment));
  }
  if (action == "updateColumnPosition") {
    SLUICE_ASSIGN_OR_RETURN(auto move, ReadMove(json, field));
    if (!move) {
      return Status::InvalidArgument("field '" + JsonFieldPath(field, "move") + "': missing");
    }
    return SchemaChange::UpdateColumnPosition(std::move(*move));
  }
  if (action == "updateColumnDefaultValue" || action == "dropPrimaryKey") {
    return Status::NotSupported("field '" + JsonFieldPath(field, "action") + "': '" + action +
                                "' is not supported by this catalog");
  }
  return Status::InvalidArgument("field '" + JsonFieldPath(field, "action") +
                                 "': unknown schema change '" + action + "'");
}

}  // namespace sluice::rest
