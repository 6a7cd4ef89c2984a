#include "sluice/cdc/format/maxwell_record_parser.h"

#include <string>

#include "sluice/base/json_reader.h"

namespace sluice {

MaxwellRecordParser::MaxwellRecordParser(const TypeMapping& type_mapping)
    : AbstractJsonRecordParser("maxwell-json", type_mapping) {}

Status MaxwellRecordParser::ExtractRecords(const SourceMessage& /*message*/, const Json& root,
                                           std::vector<RichCdcMultiplexRecord>* out) {
  SLUICE_ASSIGN_OR_RETURN(const std::string type, RequiredText(root, "type", "type"));
  // bootstrap-insert is a row of Maxwell's snapshot; the bootstrap markers and DDL
  // ("table-create", "database-alter", ...) carry no row.
  const bool insert = type == "insert" || type == "bootstrap-insert";
  if (!insert && type != "update" && type != "delete") {
    if (type.starts_with("bootstrap-") || type.starts_with("table-") ||
        type.starts_with("database-")) {
      return Status::OK();
    }
    return Status::Corruption("field 'type': unknown record operation '" + type + "'");
  }
  SLUICE_ASSIGN_OR_RETURN(const Json* data, Required(root, "data", "data"));
  Target target;
  SLUICE_ASSIGN_OR_RETURN(target.database, OptionalText(root, "database", "database"));
  SLUICE_ASSIGN_OR_RETURN(target.table, OptionalText(root, "table", "table"));
  SLUICE_ASSIGN_OR_RETURN(target.primary_keys,
                          OptionalNames(root, "primary_key_columns", "primary_key_columns"));
  if (insert) return AddRecord(*data, "data", RowKind::kInsert, target, out);
  if (type == "delete") return AddRecord(*data, "data", RowKind::kDelete, target, out);
  SLUICE_ASSIGN_OR_RETURN(const Json* old, Required(root, "old", "old", "when 'type' is 'update'"));
  SLUICE_RETURN_NOT_OK(ExpectObject(*data, "data"));
  SLUICE_RETURN_NOT_OK(ExpectObject(*old, "old"));
  SLUICE_RETURN_NOT_OK(
      AddRecord(MergeOldRecord(*data, *old), "old", RowKind::kDelete, target, out));
  return AddRecord(*data, "data", RowKind::kInsert, target, out);
}

}  // namespace sluice
