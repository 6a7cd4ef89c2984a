// DebeziumJsonRecordParser: Debezium's `debezium-json` (Java DebeziumJsonRecordParser), with or
// without Kafka Connect's schema envelope:
//
//   {"before": null, "after": {"id": 1}, "op": "c", "source": {"db": "d", "table": "t", ...}}
//   {"schema": {...}, "payload": {"before": ..., "after": ..., "op": ..., "source": ...}}
//
// c (create) and r (snapshot read) give +I of `after`, d -D of `before`, u -D of the row as it
// was (`after` with `before`'s columns written over it) then +I of `after`: Java emits no -U/+U.
// t (truncate) and m (logical decoding message) carry no row and give none (Java fails on them).
// The database and table are `source.db` and `source.table`.
//
// Types: with the envelope, each column's Connect schema (debezium_schema.h); without it,
// STRING. Primary keys: `pkNames` when the payload has it (as Java); else, beyond Java, the
// fields of the message key when it is a JSON object (Debezium keys a message by the row's
// primary key, with or without the envelope).
//
// Thread safety: a parser is used by one thread.
#pragma once

#include <optional>

#include "sluice/cdc/format/abstract_json_record_parser.h"
#include "sluice/cdc/format/debezium_schema.h"

namespace sluice {

class DebeziumJsonRecordParser final : public AbstractJsonRecordParser {
 public:
  explicit DebeziumJsonRecordParser(const TypeMapping& type_mapping);

 protected:
  Status ExtractRecords(const SourceMessage& message, const Json& root,
                        std::vector<RichCdcMultiplexRecord>* out) override;
  Status ExtractRowData(const Json& row, std::string_view path, CdcSchema* schema,
                        CdcRecord* record) override;

 private:
  // The schema of the message being parsed, when it has one.
  std::optional<DebeziumSchema> schema_;
};

}  // namespace sluice
