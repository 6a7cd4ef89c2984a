#include "sluice/cdc/format/canal_record_parser.h"

#include <charconv>
#include <string>
#include <utility>

#include "sluice/base/json_reader.h"
#include "sluice/cdc/format/cdc_json.h"
#include "sluice/cdc/mysql_type_utils.h"

namespace sluice {

namespace {

// Whether `text` is all digits, and its value.
bool ParseIndex(std::string_view text, uint64_t* value) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *value);
  return !text.empty() && ec == std::errc() && end == text.data() + text.size();
}

// Canal sends an ENUM value as its 1-based index among the members and a SET value as the bit
// set of its members; Paimon stores the member and "[m1,m2]" (Java CanalFieldParser). A value
// already given as text stays as it is.
Result<std::string> MemberText(const MySqlType& type, std::string value, std::string_view path) {
  uint64_t index = 0;
  if (!ParseIndex(value, &index)) return value;
  if (IsMySqlEnumType(type.name)) {
    if (index == 0 || index > type.members.size()) {
      return Status::Corruption("field '" + std::string(path) + "': ENUM index " + value +
                                " outside the " + std::to_string(type.members.size()) + " members");
    }
    return type.members[index - 1];
  }
  std::string text = "[";
  bool first = true;
  for (size_t bit = 0; index != 0; ++bit, index >>= 1) {
    if ((index & 1) == 0) continue;
    if (bit >= type.members.size()) {
      return Status::Corruption("field '" + std::string(path) + "': SET bits " + value +
                                " beyond the " + std::to_string(type.members.size()) + " members");
    }
    if (!first) text.push_back(',');
    first = false;
    text += type.members[bit];
  }
  text.push_back(']');
  return text;
}

}  // namespace

CanalRecordParser::CanalRecordParser(const TypeMapping& type_mapping)
    : AbstractJsonRecordParser("canal-json", type_mapping) {}

Status CanalRecordParser::ExtractRecords(const SourceMessage& /*message*/, const Json& root,
                                         std::vector<RichCdcMultiplexRecord>* out) {
  if (const Json* is_ddl = FindMember(root, "isDdl"); is_ddl != nullptr) {
    // Java's asBoolean: true, or the text "true".
    if ((is_ddl->is_boolean() && is_ddl->get<bool>()) ||
        (is_ddl->is_string() && is_ddl->get<std::string>() == "true")) {
      return Status::OK();
    }
  }
  SLUICE_ASSIGN_OR_RETURN(const Json* data, Required(root, "data", "data"));
  SLUICE_RETURN_NOT_OK(ExpectArray(*data, "data"));
  SLUICE_ASSIGN_OR_RETURN(const std::string type, RequiredText(root, "type", "type"));

  Target target;
  SLUICE_ASSIGN_OR_RETURN(target.database, OptionalText(root, "database", "database"));
  SLUICE_ASSIGN_OR_RETURN(target.table, OptionalText(root, "table", "table"));
  SLUICE_ASSIGN_OR_RETURN(target.primary_keys, OptionalNames(root, "pkNames", "pkNames"));

  mysql_types_ = FindMember(root, "mysqlType");
  if (mysql_types_ != nullptr && mysql_types_->is_null()) mysql_types_ = nullptr;
  if (mysql_types_ != nullptr) SLUICE_RETURN_NOT_OK(ExpectObject(*mysql_types_, "mysqlType"));

  const Json* old = nullptr;
  if (type == "UPDATE") {
    SLUICE_ASSIGN_OR_RETURN(old, Required(root, "old", "old", "when 'type' is 'UPDATE'"));
    SLUICE_RETURN_NOT_OK(ExpectArray(*old, "old"));
    if (old->size() != data->size()) {
      return Status::Corruption("field 'old' has " + std::to_string(old->size()) +
                                " rows, field 'data' has " + std::to_string(data->size()));
    }
  } else if (type != "INSERT" && type != "ROW" && type != "DELETE") {
    return Status::Corruption("field 'type': unknown record operation '" + type + "'");
  }

  for (size_t i = 0; i < data->size(); ++i) {
    const Json& row = (*data)[i];
    const std::string path = JsonIndexPath("data", i);
    if (type == "UPDATE") {
      const Json& old_row = (*old)[i];
      const std::string old_path = JsonIndexPath("old", i);
      SLUICE_RETURN_NOT_OK(ExpectObject(row, path));
      SLUICE_RETURN_NOT_OK(ExpectObject(old_row, old_path));
      SLUICE_RETURN_NOT_OK(
          AddRecord(MergeOldRecord(row, old_row), old_path, RowKind::kDelete, target, out));
      SLUICE_RETURN_NOT_OK(AddRecord(row, path, RowKind::kInsert, target, out));
    } else {
      SLUICE_RETURN_NOT_OK(AddRecord(
          row, path, type == "DELETE" ? RowKind::kDelete : RowKind::kInsert, target, out));
    }
  }
  return Status::OK();
}

Status CanalRecordParser::ExtractRowData(const Json& row, std::string_view path, CdcSchema* schema,
                                         CdcRecord* record) {
  if (mysql_types_ == nullptr) {
    return AbstractJsonRecordParser::ExtractRowData(row, path, schema, record);
  }
  // The columns are those `mysqlType` names, in its order; a column the row lacks is NULL.
  for (const auto& [name, type_json] : mysql_types_->items()) {
    const std::string type_path = JsonFieldPath("mysqlType", name);
    SLUICE_ASSIGN_OR_RETURN(const std::string type_text, JsonToString(type_json, type_path));
    Result<MySqlType> type = ParseMySqlType(type_text);
    if (!type.ok()) return type.status().WithContext("field '" + type_path + "'");
    Result<DataTypePtr> data_type = MySqlTypeToDataType(*type, type_mapping());
    if (!data_type.ok()) return data_type.status().WithContext("field '" + type_path + "'");
    schema->fields.push_back(DataField{0, name, *data_type, std::nullopt, std::nullopt});

    const Json* value = FindMember(row, name);
    std::optional<std::string> text = value == nullptr ? std::nullopt : CdcJsonValueText(*value);
    if (text && (IsMySqlEnumType(type->name) || IsMySqlSetType(type->name))) {
      SLUICE_ASSIGN_OR_RETURN(text, MemberText(*type, std::move(*text), JsonFieldPath(path, name)));
    }
    record->fields.emplace_back(name, std::move(text));
  }
  return Status::OK();
}

}  // namespace sluice
