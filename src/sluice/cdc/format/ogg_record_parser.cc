#include "sluice/cdc/format/ogg_record_parser.h"

#include <string>

namespace sluice {

OggRecordParser::OggRecordParser(const TypeMapping& type_mapping)
    : AbstractJsonRecordParser("ogg-json", type_mapping) {}

Status OggRecordParser::ExtractRecords(const SourceMessage& /*message*/, const Json& root,
                                       std::vector<RichCdcMultiplexRecord>* out) {
  SLUICE_ASSIGN_OR_RETURN(const std::string op, RequiredText(root, "op_type", "op_type"));
  if (op != "I" && op != "U" && op != "D") {
    return Status::Corruption("field 'op_type': unknown record operation '" + op + "'");
  }
  Target target;
  // "<database>.<table>" (Java Identifier.fromString): exactly one dot.
  SLUICE_ASSIGN_OR_RETURN(const std::string table, OptionalText(root, "table", "table"));
  if (!table.empty()) {
    const size_t dot = table.find('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == table.size() ||
        table.find('.', dot + 1) != std::string::npos) {
      return Status::Corruption("field 'table': '" + table +
                                "' is not of the form <database>.<table>");
    }
    target.database = table.substr(0, dot);
    target.table = table.substr(dot + 1);
  }
  SLUICE_ASSIGN_OR_RETURN(target.primary_keys, OptionalNames(root, "primary_keys", "primary_keys"));
  const std::string condition = "when 'op_type' is '" + op + "'";
  if (op == "U" || op == "D") {
    SLUICE_ASSIGN_OR_RETURN(const Json* before, Required(root, "before", "before", condition));
    SLUICE_RETURN_NOT_OK(AddRecord(*before, "before", RowKind::kDelete, target, out));
  }
  if (op == "U" || op == "I") {
    SLUICE_ASSIGN_OR_RETURN(const Json* after, Required(root, "after", "after"));
    SLUICE_RETURN_NOT_OK(AddRecord(*after, "after", RowKind::kInsert, target, out));
  }
  return Status::OK();
}

}  // namespace sluice
