// libFuzzer target: the input is a Kafka message value (byte 0 selects whether the rest is also
// its key), fed to the parser of every CDC format. Any status is fine; a crash, leak, hang or
// sanitizer report is a finding.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/cdc/record_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  sluice::SourceMessage message;
  message.value = text;
  if ((data[0] & 1) != 0) message.key = text;
  sluice::TypeMapping mapping;
  if ((data[0] & 2) != 0) mapping.Add(sluice::TypeMappingMode::kToString);
  for (std::string_view format :
       {"canal-json", "debezium-json", "maxwell-json", "ogg-json", "aws-dms-json", "json"}) {
    auto parser = sluice::NewRecordParser(format, mapping);
    if (!parser.ok()) return 0;
    std::vector<sluice::RichCdcMultiplexRecord> records;
    // Any input may be refused; the target looks for crashes and leaks, not for errors. Every
    // record a parse hands out carries a schema.
    (*parser)->Parse(message, &records).IgnoreError();
    for (const sluice::RichCdcMultiplexRecord& record : records) {
      if (record.schema == nullptr) __builtin_trap();
    }
  }
  return 0;
}
