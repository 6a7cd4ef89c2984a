#include "sluice/cdc/format/debezium_json_record_parser.h"

#include <string>
#include <utility>

#include "sluice/base/json_reader.h"
#include "sluice/cdc/format/cdc_json.h"

namespace sluice {

namespace {

// The field names of the message key, the row's primary key; empty when the key is absent or
// not a JSON object (Java ignores such keys too).
std::vector<std::string> KeyFieldNames(const SourceMessage& message) {
  std::vector<std::string> names;
  if (!message.key || message.key->empty()) return names;
  Result<Json> key = ParseCdcJson(*message.key);
  if (!key.ok() || !key->is_object()) return names;
  const Json* fields = &*key;
  if (const Json* payload = FindMember(*key, "payload");
      payload != nullptr && FindMember(*key, "schema") != nullptr) {
    fields = payload;
  }
  if (!fields->is_object()) return names;
  for (const auto& [name, value] : fields->items()) names.push_back(name);
  return names;
}

}  // namespace

DebeziumJsonRecordParser::DebeziumJsonRecordParser(const TypeMapping& type_mapping)
    : AbstractJsonRecordParser("debezium-json", type_mapping) {}

Status DebeziumJsonRecordParser::ExtractRecords(const SourceMessage& message, const Json& value,
                                                std::vector<RichCdcMultiplexRecord>* out) {
  schema_.reset();
  const Json* root = &value;
  if (const Json* schema = FindMember(value, "schema"); schema != nullptr) {
    // The envelope; `"schema": null` is an envelope without types.
    SLUICE_ASSIGN_OR_RETURN(root, Required(value, "payload", "payload"));
    SLUICE_RETURN_NOT_OK(ExpectObject(*root, "payload"));
    if (!schema->is_null()) {
      SLUICE_ASSIGN_OR_RETURN(DebeziumSchema parsed, DebeziumSchema::Parse(*schema));
      schema_ = std::move(parsed);
    }
  }
  SLUICE_ASSIGN_OR_RETURN(const std::string op, RequiredText(*root, "op", "op"));
  if (op == "t" || op == "m") return Status::OK();
  if (op != "c" && op != "r" && op != "u" && op != "d") {
    return Status::Corruption("field 'op': unknown record operation '" + op + "'");
  }

  Target target;
  if (const Json* source = FindMember(*root, "source"); source != nullptr && !source->is_null()) {
    SLUICE_RETURN_NOT_OK(ExpectObject(*source, "source"));
    SLUICE_ASSIGN_OR_RETURN(target.database, OptionalText(*source, "db", "source.db"));
    SLUICE_ASSIGN_OR_RETURN(target.table, OptionalText(*source, "table", "source.table"));
  }
  SLUICE_ASSIGN_OR_RETURN(target.primary_keys, OptionalNames(*root, "pkNames", "pkNames"));
  if (target.primary_keys.empty()) target.primary_keys = KeyFieldNames(message);

  const std::string condition = "when 'op' is '" + op + "'";
  if (op == "c" || op == "r") {
    SLUICE_ASSIGN_OR_RETURN(const Json* after, Required(*root, "after", "after"));
    return AddRecord(*after, "after", RowKind::kInsert, target, out);
  }
  SLUICE_ASSIGN_OR_RETURN(const Json* before, Required(*root, "before", "before", condition));
  if (op == "d") return AddRecord(*before, "before", RowKind::kDelete, target, out);
  SLUICE_ASSIGN_OR_RETURN(const Json* after, Required(*root, "after", "after"));
  SLUICE_RETURN_NOT_OK(ExpectObject(*after, "after"));
  SLUICE_RETURN_NOT_OK(ExpectObject(*before, "before"));
  SLUICE_RETURN_NOT_OK(
      AddRecord(MergeOldRecord(*after, *before), "before", RowKind::kDelete, target, out));
  return AddRecord(*after, "after", RowKind::kInsert, target, out);
}

Status DebeziumJsonRecordParser::ExtractRowData(const Json& row, std::string_view path,
                                                CdcSchema* schema, CdcRecord* record) {
  if (!schema_) return AbstractJsonRecordParser::ExtractRowData(row, path, schema, record);
  for (const auto& [name, value] : row.items()) {
    const DebeziumSchema::Field* field = schema_->Find(name);
    DataTypePtr type = DataType::String();
    std::optional<std::string> text;
    if (field == nullptr) {
      // A column the schema does not describe: STRING, as in a message without schema.
      text = CdcJsonValueText(value);
    } else {
      const std::string field_path = JsonFieldPath(path, name);
      Result<DataTypePtr> field_type = DebeziumSchema::ToDataType(*field, type_mapping());
      if (!field_type.ok()) {
        return field_type.status().WithContext("schema of field '" + field_path + "'");
      }
      type = std::move(*field_type);
      if (!value.is_null()) {
        SLUICE_ASSIGN_OR_RETURN(text,
                                DebeziumSchema::ToText(*field, value, field_path, type_mapping()));
      }
    }
    schema->fields.push_back(DataField{0, name, std::move(type), std::nullopt, std::nullopt});
    record->fields.emplace_back(name, std::move(text));
  }
  return Status::OK();
}

}  // namespace sluice
