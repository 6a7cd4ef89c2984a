// Helpers of the format parser tests: parse one message and print what came out compactly, so
// a test states the records it expects as text.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/cdc/record_parser.h"

namespace sluice::test {

// The records of one message of `format`.
inline Result<std::vector<RichCdcMultiplexRecord>> ParseMessage(
    std::string_view format, std::optional<std::string> value,
    std::optional<std::string> key = std::nullopt, const TypeMapping& mapping = TypeMapping()) {
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<RecordParser> parser, NewRecordParser(format, mapping));
  SourceMessage message;
  message.split = "topic-0";
  message.key = std::move(key);
  message.value = std::move(value);
  std::vector<RichCdcMultiplexRecord> records;
  SLUICE_RETURN_NOT_OK(parser->Parse(message, &records));
  return records;
}

// "+I db.t {id=1, v=NULL}".
inline std::string Describe(const RichCdcMultiplexRecord& record) {
  std::string out(RowKindShortString(record.record.kind));
  out += " " + record.database + "." + record.table + " {";
  bool first = true;
  for (const auto& [name, value] : record.record.fields) {
    if (!first) out += ", ";
    first = false;
    out += name + "=" + (value ? *value : "NULL");
  }
  return out + "}";
}

inline std::vector<std::string> Describe(const std::vector<RichCdcMultiplexRecord>& records) {
  std::vector<std::string> out;
  for (const auto& record : records) out.push_back(Describe(record));
  return out;
}

// The expected side of `EXPECT_EQ(Describe(records), Strings({...}))`.
inline std::vector<std::string> Strings(std::initializer_list<std::string_view> items) {
  return std::vector<std::string>(items.begin(), items.end());
}

// "id INT, v STRING | pk: id".
inline std::string DescribeSchema(const CdcSchema& schema) {
  std::string out;
  for (const DataField& field : schema.fields) {
    if (!out.empty()) out += ", ";
    out += field.name + " " + field.type->ToString();
  }
  out += " | pk:";
  for (const std::string& key : schema.primary_keys) out += " " + key;
  return out;
}

}  // namespace sluice::test
