// AbstractJsonRecordParser: what the JSON formats share (Java AbstractJsonRecordParser and
// AbstractRecordParser): reading the message value, skipping tombstones, turning a row object
// into a record, and the field lookups whose errors name the field.
//
// A format implements ExtractRecords (which rows a message holds and their kinds) and, when the
// format carries types, ExtractRowData (the default gives every column STRING and its value as
// text, as Java's parsers do for untyped formats).
//
// Thread safety: a parser is used by one thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sluice/base/json_fwd.h"
#include "sluice/cdc/record_parser.h"

namespace sluice {

class AbstractJsonRecordParser : public RecordParser {
 public:
  // A message without a value (a Kafka tombstone) gives no records; errors carry the format name.
  // A format may read common messages faster first, falling back to this (debezium-json).
  Status Parse(const SourceMessage& message, std::vector<RichCdcMultiplexRecord>* out) override;

 protected:
  // Where the records of one message go: their table and its primary keys.
  struct Target {
    std::string database;
    std::string table;
    std::vector<std::string> primary_keys;
  };

  AbstractJsonRecordParser(std::string_view format, const TypeMapping& type_mapping);

  // Appends the records of `root`, the message value, a JSON object.
  virtual Status ExtractRecords(const SourceMessage& message, const Json& root,
                                std::vector<RichCdcMultiplexRecord>* out) = 0;

  // The columns and values of `row` (a JSON object named `path` in errors).
  virtual Status ExtractRowData(const Json& row, std::string_view path, CdcSchema* schema,
                                CdcRecord* record);

  // Appends a record of `kind` made from `row` (checked to be an object) for `target`.
  Status AddRecord(const Json& row, std::string_view path, RowKind kind, const Target& target,
                   std::vector<RichCdcMultiplexRecord>* out);

  // `data` with the members of `old` (the changed columns' former values) written over it: the
  // before-image of formats that send only what changed.
  static Json MergeOldRecord(const Json& data, const Json& old);

  // Member `key` of `object`; Corruption "missing field '<path>'" when absent or null (Java's
  // getAndCheck). `condition`, when given, says when the field is required: "when 'type' is
  // 'UPDATE'".
  static Result<const Json*> Required(const Json& object, std::string_view key,
                                      std::string_view path, std::string_view condition = {});
  // The text of member `key` (a string, number or boolean); empty when absent or null.
  static Result<std::string> OptionalText(const Json& object, std::string_view key,
                                          std::string_view path);
  // The required member `key` as text.
  static Result<std::string> RequiredText(const Json& object, std::string_view key,
                                          std::string_view path);
  // The names in array member `key`; empty when absent or null.
  static Result<std::vector<std::string>> OptionalNames(const Json& object, std::string_view key,
                                                        std::string_view path);

  const TypeMapping& type_mapping() const { return type_mapping_; }

 private:
  const std::string format_;
  const TypeMapping type_mapping_;
};

}  // namespace sluice
