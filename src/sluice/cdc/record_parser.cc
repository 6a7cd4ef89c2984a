#include "sluice/cdc/record_parser.h"

#include <string>

#include "sluice/cdc/format/canal_record_parser.h"
#include "sluice/cdc/format/debezium_json_record_parser.h"
#include "sluice/cdc/format/dms_record_parser.h"
#include "sluice/cdc/format/json_record_parser.h"
#include "sluice/cdc/format/maxwell_record_parser.h"
#include "sluice/cdc/format/ogg_record_parser.h"

namespace sluice {

Result<std::unique_ptr<RecordParser>> NewRecordParser(std::string_view format,
                                                      const TypeMapping& type_mapping) {
  if (format == "canal-json") return std::make_unique<CanalRecordParser>(type_mapping);
  if (format == "debezium-json") return std::make_unique<DebeziumJsonRecordParser>(type_mapping);
  if (format == "maxwell-json") return std::make_unique<MaxwellRecordParser>(type_mapping);
  if (format == "ogg-json") return std::make_unique<OggRecordParser>(type_mapping);
  if (format == "aws-dms-json") return std::make_unique<DmsRecordParser>(type_mapping);
  if (format == "json") return std::make_unique<JsonRecordParser>(type_mapping);
  return Status::InvalidArgument("unknown value.format '" + std::string(format) +
                                 "'; known: canal-json, debezium-json, maxwell-json, ogg-json, "
                                 "aws-dms-json, json");
}

}  // namespace sluice
