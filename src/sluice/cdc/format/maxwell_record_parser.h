// MaxwellRecordParser: Zendesk Maxwell's `maxwell-json` (Java MaxwellRecordParser).
//
//   {"database": "db", "table": "t", "type": "update", "data": {"id": 1, "v": "a"},
//    "old": {"v": "b"}, "primary_key_columns": ["id"]}
//
// insert gives +I, delete -D, update -D with the row as it was (`data` with `old`'s changed
// columns written over it) then +I, as Java. Every column is STRING. Maxwell's other messages
// (bootstrap-start / bootstrap-complete markers, DDL in a schema topic) are not rows: Java fails
// on them; they give no records here.
//
// Thread safety: a parser is used by one thread.
#pragma once

#include "sluice/cdc/format/abstract_json_record_parser.h"

namespace sluice {

class MaxwellRecordParser final : public AbstractJsonRecordParser {
 public:
  explicit MaxwellRecordParser(const TypeMapping& type_mapping);

 protected:
  Status ExtractRecords(const SourceMessage& message, const Json& root,
                        std::vector<RichCdcMultiplexRecord>* out) override;
};

}  // namespace sluice
