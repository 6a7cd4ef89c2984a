// DmsRecordParser: AWS Database Migration Service's `aws-dms-json` (Java DMSRecordParser).
//
//   {"data": {"id": 1, "v": "new", "BI_id": 1, "BI_v": "old"},
//    "metadata": {"record-type": "data", "operation": "update", "schema-name": "db",
//                 "table-name": "t", ...}}
//
// Only `metadata.record-type` "data" carries rows (control and DDL records give none). load (the
// full-load phase) and insert give +I, delete -D, update -D of the before-image then +I: the
// before-image is `data` with each BI_<column> value in place of <column>, the new row `data`
// without the BI_ columns (DMS writes them with BeforeImageSettings). Every column is STRING;
// DMS names no primary keys.
//
// Thread safety: a parser is used by one thread.
#pragma once

#include "sluice/cdc/format/abstract_json_record_parser.h"

namespace sluice {

class DmsRecordParser final : public AbstractJsonRecordParser {
 public:
  explicit DmsRecordParser(const TypeMapping& type_mapping);

 protected:
  Status ExtractRecords(const SourceMessage& message, const Json& root,
                        std::vector<RichCdcMultiplexRecord>* out) override;
};

}  // namespace sluice
