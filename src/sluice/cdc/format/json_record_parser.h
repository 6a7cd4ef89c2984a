// JsonRecordParser: the `json` format (Java JsonRecordParser): each message is one row, a JSON
// object of column values, inserted (+I). Every column is STRING; no table, no primary keys.
//
// Thread safety: a parser is used by one thread.
#pragma once

#include "sluice/cdc/format/abstract_json_record_parser.h"

namespace sluice {

class JsonRecordParser final : public AbstractJsonRecordParser {
 public:
  explicit JsonRecordParser(const TypeMapping& type_mapping);

 protected:
  Status ExtractRecords(const SourceMessage& message, const Json& root,
                        std::vector<RichCdcMultiplexRecord>* out) override;
};

}  // namespace sluice
