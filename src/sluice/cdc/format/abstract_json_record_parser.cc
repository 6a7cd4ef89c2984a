#include "sluice/cdc/format/abstract_json_record_parser.h"

#include <utility>

#include "sluice/base/json_reader.h"
#include "sluice/cdc/format/cdc_json.h"

namespace sluice {

namespace {

Status WrongType(const Json& value, std::string_view path, std::string_view expected) {
  return Status::Corruption("field '" + std::string(path) + "': expected " + std::string(expected) +
                            ", got " + std::string(CdcJsonTypeName(value)));
}

}  // namespace

AbstractJsonRecordParser::AbstractJsonRecordParser(std::string_view format,
                                                   const TypeMapping& type_mapping)
    : format_(format), type_mapping_(type_mapping) {}

Status AbstractJsonRecordParser::Parse(const SourceMessage& message,
                                       std::vector<RichCdcMultiplexRecord>* out) {
  // Java skips tombstones: Debezium sends one after each delete so that compaction drops the key.
  if (!message.value) return Status::OK();
  const std::string context = format_ + " message";
  Result<Json> root = ParseCdcJson(*message.value);
  if (!root.ok()) return root.status().WithContext(context);
  if (!root->is_object()) {
    return Status::Corruption("expected a JSON object, got " + std::string(CdcJsonTypeName(*root)))
        .WithContext(context);
  }
  // A failed message leaves nothing behind.
  const size_t size = out->size();
  Status status = ExtractRecords(message, *root, out);
  if (!status.ok()) {
    out->resize(size);
    return status.WithContext(context);
  }
  return Status::OK();
}

Status AbstractJsonRecordParser::ExtractRowData(const Json& row, std::string_view /*path*/,
                                                CdcSchema* schema, CdcRecord* record) {
  for (const auto& [name, value] : row.items()) {
    schema->fields.push_back(DataField{0, name, DataType::String(), std::nullopt, std::nullopt});
    record->fields.emplace_back(name, CdcJsonValueText(value));
  }
  return Status::OK();
}

Status AbstractJsonRecordParser::AddRecord(const Json& row, std::string_view path, RowKind kind,
                                           const Target& target,
                                           std::vector<RichCdcMultiplexRecord>* out) {
  if (!row.is_object()) return WrongType(row, path, "object");
  RichCdcMultiplexRecord record;
  record.database = target.database;
  record.table = target.table;
  auto schema = std::make_shared<CdcSchema>();
  schema->primary_keys = target.primary_keys;
  record.record.kind = kind;
  SLUICE_RETURN_NOT_OK(ExtractRowData(row, path, schema.get(), &record.record));
  record.schema = std::move(schema);
  out->push_back(std::move(record));
  return Status::OK();
}

Json AbstractJsonRecordParser::MergeOldRecord(const Json& data, const Json& old) {
  Json merged = data;
  for (const auto& [name, value] : old.items()) merged[name] = value;
  return merged;
}

Result<const Json*> AbstractJsonRecordParser::Required(const Json& object, std::string_view key,
                                                       std::string_view path,
                                                       std::string_view condition) {
  const Json* member = FindMember(object, key);
  if (member == nullptr || member->is_null()) {
    std::string message = "missing field '" + std::string(path) + "'";
    if (!condition.empty()) message += " (required " + std::string(condition) + ")";
    return Status::Corruption(std::move(message));
  }
  return member;
}

Result<std::string> AbstractJsonRecordParser::OptionalText(const Json& object, std::string_view key,
                                                           std::string_view path) {
  const Json* member = FindMember(object, key);
  if (member == nullptr || member->is_null()) return std::string();
  if (member->is_object() || member->is_array()) return WrongType(*member, path, "string");
  return *CdcJsonValueText(*member);
}

Result<std::string> AbstractJsonRecordParser::RequiredText(const Json& object, std::string_view key,
                                                           std::string_view path) {
  SLUICE_ASSIGN_OR_RETURN(const Json* member, Required(object, key, path));
  if (member->is_object() || member->is_array()) return WrongType(*member, path, "string");
  return *CdcJsonValueText(*member);
}

Result<std::vector<std::string>> AbstractJsonRecordParser::OptionalNames(const Json& object,
                                                                         std::string_view key,
                                                                         std::string_view path) {
  std::vector<std::string> names;
  const Json* member = FindMember(object, key);
  if (member == nullptr || member->is_null()) return names;
  if (!member->is_array()) return WrongType(*member, path, "array");
  for (size_t i = 0; i < member->size(); ++i) {
    const Json& name = (*member)[i];
    if (!name.is_string()) return WrongType(name, JsonIndexPath(path, i), "string");
    names.push_back(name.get<std::string>());
  }
  return names;
}

}  // namespace sluice
