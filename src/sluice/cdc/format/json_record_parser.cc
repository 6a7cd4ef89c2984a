#include "sluice/cdc/format/json_record_parser.h"

namespace sluice {

JsonRecordParser::JsonRecordParser(const TypeMapping& type_mapping)
    : AbstractJsonRecordParser("json", type_mapping) {}

Status JsonRecordParser::ExtractRecords(const SourceMessage& /*message*/, const Json& root,
                                        std::vector<RichCdcMultiplexRecord>* out) {
  return AddRecord(root, "", RowKind::kInsert, Target{}, out);
}

}  // namespace sluice
