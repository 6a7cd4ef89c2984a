// RecordParser: turns the messages of a CDC source into change records, one parser per format
// with Java's names (Java org.apache.paimon.flink.action.cdc.format): `canal-json`,
// `debezium-json`, `maxwell-json`, `ogg-json`, `aws-dms-json`, `json`.
//
// A message gives zero or more records: an insert one (+I), a delete one (-D), an update two
// (-U with the old values where the format has them, then +U), as Java's parsers do; DDL,
// heartbeat and transaction messages and tombstones give none. A message that is not what its
// format says is a Corruption status saying what is wrong (the caller adds topic, partition and
// offset); the parser is usable afterwards.
//
// Thread safety: a parser is used by one thread.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "sluice/cdc/cdc_record.h"
#include "sluice/cdc/source_message.h"
#include "sluice/cdc/type_mapping.h"
#include "sluice/result.h"

namespace sluice {

class RecordParser {
 public:
  virtual ~RecordParser() = default;

  // Appends the records of `message` to `out`.
  virtual Status Parse(const SourceMessage& message, std::vector<RichCdcMultiplexRecord>* out) = 0;
};

// The parser of `format` (`value.format` of `--kafka_conf`). InvalidArgument naming an unknown
// format and the known ones.
Result<std::unique_ptr<RecordParser>> NewRecordParser(std::string_view format,
                                                      const TypeMapping& type_mapping);

}  // namespace sluice
