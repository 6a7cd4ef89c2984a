// CanalRecordParser: Alibaba Canal's `canal-json` (Java CanalRecordParser).
//
//   {"data": [{"id": "1", "v": "a"}], "old": [{"v": "b"}], "type": "UPDATE", "isDdl": false,
//    "database": "db", "table": "t", "pkNames": ["id"], "mysqlType": {"id": "int", ...}}
//
// One message holds the rows of one statement. INSERT and ROW (a snapshot row) give +I per row,
// DELETE -D, and UPDATE -D with the row as it was (the row with `old`'s changed columns written
// over it) then +I: Java emits no -U/+U for canal. DDL messages (`isDdl`) give none. Columns
// take their types from `mysqlType` (mysql_type_utils.h) when the message has it, the values of
// ENUM and SET columns (canal sends the index, the bit set) become their members; without
// `mysqlType` every column is STRING.
//
// Thread safety: a parser is used by one thread.
#pragma once

#include "sluice/cdc/format/abstract_json_record_parser.h"

namespace sluice {

class CanalRecordParser final : public AbstractJsonRecordParser {
 public:
  explicit CanalRecordParser(const TypeMapping& type_mapping);

 protected:
  Status ExtractRecords(const SourceMessage& message, const Json& root,
                        std::vector<RichCdcMultiplexRecord>* out) override;
  Status ExtractRowData(const Json& row, std::string_view path, CdcSchema* schema,
                        CdcRecord* record) override;

 private:
  // The message's `mysqlType`, or nullptr; set while its rows are extracted.
  const Json* mysql_types_ = nullptr;
};

}  // namespace sluice
