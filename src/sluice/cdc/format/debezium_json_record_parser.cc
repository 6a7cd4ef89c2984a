#include "sluice/cdc/format/debezium_json_record_parser.h"

#include <algorithm>
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

// Sets `slot` to the text the document gives a plain scalar (CdcJsonValueText): integers are
// kept as numbers, so "-0" reads "0"; other numbers as written; null is nullopt.
void SetPlainValueText(const PlainJson::Node& node, std::optional<std::string>* slot) {
  if (node.kind == PlainJson::Kind::kNull) {
    slot->reset();
  } else if (node.kind == PlainJson::Kind::kInteger && node.text == "-0") {
    slot->emplace("0");
  } else {
    slot->emplace(node.text);
  }
}

bool IsNull(const PlainJson& json, int64_t node) {
  return node < 0 || json.node(static_cast<uint32_t>(node)).kind == PlainJson::Kind::kNull;
}

bool IsObject(const PlainJson& json, int64_t node) {
  return node >= 0 && json.node(static_cast<uint32_t>(node)).kind == PlainJson::Kind::kObject;
}

// Members `db` and `table` of the plain object `object` as OptionalText reads them: empty when
// absent or null; false for a value the fast path leaves to the document (not a string). One
// pass over the members; a key given twice answers its last value, as in the document.
bool PlainSourceNames(const PlainJson& json, uint32_t object, std::string* db, std::string* table) {
  int64_t db_node = -1;
  int64_t table_node = -1;
  for (uint32_t i = object + 1; i < json.node(object).end; i = json.node(i + 1).end) {
    const std::string_view key = json.node(i).text;
    if (key == "db") {
      db_node = i + 1;
    } else if (key == "table") {
      table_node = i + 1;
    }
  }
  for (auto [node, out] : {std::pair{db_node, db}, std::pair{table_node, table}}) {
    if (IsNull(json, node)) {
      out->clear();
      continue;
    }
    const PlainJson::Node& value = json.node(static_cast<uint32_t>(node));
    if (value.kind != PlainJson::Kind::kString) return false;
    out->assign(value.text);
  }
  return true;
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

Status DebeziumJsonRecordParser::Parse(const SourceMessage& message,
                                       std::vector<RichCdcMultiplexRecord>* out) {
  if (message.value && ParsePlain(message, out)) return Status::OK();
  return AbstractJsonRecordParser::Parse(message, out);
}

bool DebeziumJsonRecordParser::ParsePlain(const SourceMessage& message,
                                          std::vector<RichCdcMultiplexRecord>* out) {
  const PlainJson& json = value_json_;
  if (!value_json_.Scan(*message.value) || json.node(0).kind != PlainJson::Kind::kObject) {
    return false;
  }
  // The members used, in one pass; a key given twice answers its last value, as in the document.
  int64_t op_node = -1;
  int64_t source = -1;
  int64_t before = -1;
  int64_t after = -1;
  int64_t pk_names = -1;
  for (uint32_t i = 1; i < json.node(0).end; i = json.node(i + 1).end) {
    const std::string_view key = json.node(i).text;
    if (key == "op") {
      op_node = i + 1;
    } else if (key == "source") {
      source = i + 1;
    } else if (key == "before") {
      before = i + 1;
    } else if (key == "after") {
      after = i + 1;
    } else if (key == "pkNames") {
      pk_names = i + 1;
    } else if (key == "schema") {
      // The envelope takes the document's path.
      return false;
    }
  }
  if (!IsNull(json, pk_names)) return false;
  if (op_node < 0 || json.node(static_cast<uint32_t>(op_node)).kind != PlainJson::Kind::kString) {
    return false;
  }
  const std::string_view op = json.node(static_cast<uint32_t>(op_node)).text;
  if (op == "t" || op == "m") return true;
  if (op != "c" && op != "r" && op != "u" && op != "d") return false;

  Target& target = plain_target_;
  target.database.clear();
  target.table.clear();
  target.primary_keys.clear();
  if (!IsNull(json, source)) {
    if (!IsObject(json, source)) return false;
    const auto object = static_cast<uint32_t>(source);
    if (!PlainSourceNames(json, object, &target.database, &target.table)) return false;
  }
  if (message.key && !message.key->empty()) {
    if (!key_json_.Scan(*message.key)) {
      target.primary_keys = KeyFieldNames(message);
    } else if (key_json_.node(0).kind == PlainJson::Kind::kObject) {
      int64_t fields = 0;
      const int64_t payload = key_json_.Find(0, "payload");
      if (payload >= 0 && key_json_.Find(0, "schema") >= 0) fields = payload;
      if (IsObject(key_json_, fields)) {
        const auto object = static_cast<uint32_t>(fields);
        for (uint32_t i = object + 1; i < key_json_.node(object).end;
             i = key_json_.node(i + 1).end) {
          const std::string_view name = key_json_.node(i).text;
          // A name given twice is one member of the document.
          if (std::find(target.primary_keys.begin(), target.primary_keys.end(), name) ==
              target.primary_keys.end()) {
            target.primary_keys.emplace_back(name);
          }
        }
      }
    }
  }

  CdcRecord after_row;
  CdcRecord before_row;
  if (op == "c" || op == "r") {
    if (!IsObject(json, after) || !PlainRow(static_cast<uint32_t>(after), &after_row)) {
      return false;
    }
    AddPlainRecord(std::move(after_row), RowKind::kInsert, target, out);
    return true;
  }
  if (!IsObject(json, before) || !PlainRow(static_cast<uint32_t>(before), &before_row)) {
    return false;
  }
  if (op == "d") {
    AddPlainRecord(std::move(before_row), RowKind::kDelete, target, out);
    return true;
  }
  if (!IsObject(json, after) || !PlainRow(static_cast<uint32_t>(after), &after_row)) {
    return false;
  }
  // The row as it was: `after` with `before`'s columns written over it (MergeOldRecord); when
  // `before` has `after`'s columns in its order (a full row image), that is `before` itself.
  const bool same_columns =
      before_row.fields.size() == after_row.fields.size() &&
      std::equal(before_row.fields.begin(), before_row.fields.end(), after_row.fields.begin(),
                 [](const auto& a, const auto& b) { return a.first == b.first; });
  if (same_columns) {
    AddPlainRecord(std::move(before_row), RowKind::kDelete, target, out);
    // The same columns: the same schema.
    AddPlainRecord(std::move(after_row), RowKind::kInsert, target, out, out->back().schema);
    return true;
  }
  CdcRecord old_row = after_row;
  for (auto& [name, value] : before_row.fields) {
    std::optional<std::string>* slot = nullptr;
    for (auto& [old_name, old_value] : old_row.fields) {
      if (old_name == name) slot = &old_value;
    }
    if (slot != nullptr) {
      *slot = std::move(value);
    } else {
      old_row.fields.emplace_back(std::move(name), std::move(value));
    }
  }
  AddPlainRecord(std::move(old_row), RowKind::kDelete, target, out);
  AddPlainRecord(std::move(after_row), RowKind::kInsert, target, out);
  return true;
}

bool DebeziumJsonRecordParser::PlainRow(uint32_t row, CdcRecord* record) const {
  const PlainJson& json = value_json_;
  record->fields.reserve(json.node(row).end - row);
  for (uint32_t i = row + 1; i < json.node(row).end; i = json.node(i + 1).end) {
    const PlainJson::Node& value = json.node(i + 1);
    if (value.kind == PlainJson::Kind::kObject || value.kind == PlainJson::Kind::kArray) {
      return false;
    }
    const std::string_view name = json.node(i).text;
    // A name given twice keeps its first place and its last value, as in the document.
    std::optional<std::string>* slot = nullptr;
    for (auto& [field, text] : record->fields) {
      if (field == name) slot = &text;
    }
    if (slot == nullptr) {
      slot = &record->fields
                  .emplace_back(std::piecewise_construct, std::forward_as_tuple(name),
                                std::forward_as_tuple())
                  .second;
    }
    SetPlainValueText(value, slot);
  }
  return true;
}

void DebeziumJsonRecordParser::AddPlainRecord(CdcRecord row, RowKind kind, const Target& target,
                                              std::vector<RichCdcMultiplexRecord>* out,
                                              std::shared_ptr<const CdcSchema> schema) {
  if (schema == nullptr) schema = PlainSchema(row, target.primary_keys);
  RichCdcMultiplexRecord& record = out->emplace_back();
  record.database = target.database;
  record.table = target.table;
  record.schema = std::move(schema);
  record.record = std::move(row);
  record.record.kind = kind;
}

std::shared_ptr<const CdcSchema> DebeziumJsonRecordParser::PlainSchema(
    const CdcRecord& row, const std::vector<std::string>& primary_keys) {
  auto fits = [&](const CdcSchema& schema) {
    if (schema.fields.size() != row.fields.size() || schema.primary_keys != primary_keys) {
      return false;
    }
    for (size_t i = 0; i < row.fields.size(); ++i) {
      if (schema.fields[i].name != row.fields[i].first) return false;
    }
    return true;
  };
  for (size_t i = 0; i < plain_schemas_.size(); ++i) {
    if (!fits(*plain_schemas_[i])) continue;
    std::rotate(plain_schemas_.begin(), plain_schemas_.begin() + static_cast<ptrdiff_t>(i),
                plain_schemas_.begin() + static_cast<ptrdiff_t>(i) + 1);
    return plain_schemas_.front();
  }
  auto schema = std::make_shared<CdcSchema>();
  schema->primary_keys = primary_keys;
  schema->fields.reserve(row.fields.size());
  for (const auto& [name, value] : row.fields) {
    schema->fields.push_back(DataField{0, name, string_type_, std::nullopt, std::nullopt});
  }
  if (plain_schemas_.size() == kMaxPlainSchemas) plain_schemas_.pop_back();
  plain_schemas_.insert(plain_schemas_.begin(), std::move(schema));
  return plain_schemas_.front();
}

}  // namespace sluice
