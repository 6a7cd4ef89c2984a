#include "sluice/cdc/format/dms_record_parser.h"

#include <string>
#include <string_view>

#include "sluice/base/json_reader.h"

namespace sluice {

namespace {

constexpr std::string_view kBeforePrefix = "BI_";

}  // namespace

DmsRecordParser::DmsRecordParser(const TypeMapping& type_mapping)
    : AbstractJsonRecordParser("aws-dms-json", type_mapping) {}

Status DmsRecordParser::ExtractRecords(const SourceMessage& /*message*/, const Json& root,
                                       std::vector<RichCdcMultiplexRecord>* out) {
  SLUICE_ASSIGN_OR_RETURN(const Json* metadata, Required(root, "metadata", "metadata"));
  SLUICE_RETURN_NOT_OK(ExpectObject(*metadata, "metadata"));
  SLUICE_ASSIGN_OR_RETURN(const std::string record_type,
                          RequiredText(*metadata, "record-type", "metadata.record-type"));
  if (record_type != "data") return Status::OK();

  SLUICE_ASSIGN_OR_RETURN(const Json* data, Required(root, "data", "data"));
  SLUICE_ASSIGN_OR_RETURN(const std::string op,
                          RequiredText(*metadata, "operation", "metadata.operation"));
  Target target;
  SLUICE_ASSIGN_OR_RETURN(target.database,
                          RequiredText(*metadata, "schema-name", "metadata.schema-name"));
  SLUICE_ASSIGN_OR_RETURN(target.table,
                          RequiredText(*metadata, "table-name", "metadata.table-name"));
  if (op == "load" || op == "insert")
    return AddRecord(*data, "data", RowKind::kInsert, target, out);
  if (op == "delete") return AddRecord(*data, "data", RowKind::kDelete, target, out);
  if (op != "update") {
    return Status::Corruption("field 'metadata.operation': unknown record operation '" + op + "'");
  }
  SLUICE_RETURN_NOT_OK(ExpectObject(*data, "data"));
  Json after = Json::object();
  Json before = Json::object();
  for (const auto& [name, value] : data->items()) {
    if (!std::string_view(name).starts_with(kBeforePrefix)) {
      after[name] = value;
      before[name] = value;
    }
  }
  for (const auto& [name, value] : data->items()) {
    if (std::string_view(name).starts_with(kBeforePrefix)) {
      before[name.substr(kBeforePrefix.size())] = value;
    }
  }
  SLUICE_RETURN_NOT_OK(AddRecord(before, "data", RowKind::kDelete, target, out));
  return AddRecord(after, "data", RowKind::kInsert, target, out);
}

}  // namespace sluice
