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
// Messages without the envelope and with plain JSON (plain_json.h) take a fast path that builds
// no JSON document (issue 31); the others, and every malformed one, go through the document.
//
// Thread safety: a parser is used by one thread.
#pragma once

#include <optional>

#include "sluice/cdc/format/abstract_json_record_parser.h"
#include "sluice/cdc/format/debezium_schema.h"
#include "sluice/cdc/format/plain_json.h"

namespace sluice {

class DebeziumJsonRecordParser final : public AbstractJsonRecordParser {
 public:
  explicit DebeziumJsonRecordParser(const TypeMapping& type_mapping);

 public:
  Status Parse(const SourceMessage& message, std::vector<RichCdcMultiplexRecord>* out) override;

 protected:
  Status ExtractRecords(const SourceMessage& message, const Json& root,
                        std::vector<RichCdcMultiplexRecord>* out) override;
  Status ExtractRowData(const Json& row, std::string_view path, CdcSchema* schema,
                        CdcRecord* record) override;

 private:
  // The fast path: appends the records of a plain message without the envelope and returns
  // true; false (appending nothing) sends the message through the document instead.
  bool ParsePlain(const SourceMessage& message, std::vector<RichCdcMultiplexRecord>* out);
  // The columns of the plain object at node `row` into `record`; false when a value is an
  // object or array (left to the document's writer).
  bool PlainRow(uint32_t row, CdcRecord* record) const;
  // Appends the record of `row` (its columns STRING, as without the envelope) with `schema`,
  // or when null with PlainSchema's.
  void AddPlainRecord(CdcRecord row, RowKind kind, const Target& target,
                      std::vector<RichCdcMultiplexRecord>* out,
                      std::shared_ptr<const CdcSchema> schema = nullptr);
  // The schema of a plain record with `row`'s columns and `primary_keys`: one of the last
  // kMaxPlainSchemas handed out when one fits, so that records of one shape share it.
  std::shared_ptr<const CdcSchema> PlainSchema(const CdcRecord& row,
                                               const std::vector<std::string>& primary_keys);

  // The schema of the message being parsed, when it has one.
  std::optional<DebeziumSchema> schema_;
  // The fast path's scans of the message value and key, reused.
  PlainJson value_json_;
  PlainJson key_json_;
  // The fast path's target of the message being parsed, reused: its key list keeps its storage.
  Target plain_target_;
  const DataTypePtr string_type_ = DataType::String();
  static constexpr size_t kMaxPlainSchemas = 16;
  // Most recently used first.
  std::vector<std::shared_ptr<const CdcSchema>> plain_schemas_;
};

}  // namespace sluice
