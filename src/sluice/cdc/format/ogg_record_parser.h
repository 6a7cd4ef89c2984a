// OggRecordParser: Oracle GoldenGate's `ogg-json` (Java OggRecordParser).
//
//   {"table": "SCHEMA.T", "op_type": "U", "before": {...}, "after": {...},
//    "primary_keys": ["ID"], "op_ts": "...", "current_ts": "...", "pos": "..."}
//
// I gives +I of `after`, D -D of `before`, U -D of `before` then +I of `after` (Java emits no
// -U/+U, and takes `before` as it is: GoldenGate sends full before-images when configured to,
// else only the key and changed columns). `table` is "<database>.<table>". Every column is
// STRING. T (truncate) and other operation types are rejected, as in Java.
//
// Thread safety: a parser is used by one thread.
#pragma once

#include "sluice/cdc/format/abstract_json_record_parser.h"

namespace sluice {

class OggRecordParser final : public AbstractJsonRecordParser {
 public:
  explicit OggRecordParser(const TypeMapping& type_mapping);

 protected:
  Status ExtractRecords(const SourceMessage& message, const Json& root,
                        std::vector<RichCdcMultiplexRecord>* out) override;
};

}  // namespace sluice
