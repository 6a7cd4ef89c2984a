// libFuzzer target: the input is a sequence of replication stream frames, each preceded by a
// 2-byte big-endian length, as a START_REPLICATION stream carries them (XLogData wrapping a
// pgoutput message, or a primary keepalive). Every frame is decoded, and the pgoutput message
// of each XLogData; the text of each tuple value goes through PostgresValueText as each of a
// set of column types (arrays, bytea, bit strings, timestamptz). Any status is fine; a crash,
// leak, hang or sanitizer report is a finding.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "sluice/cdc/postgres/pgoutput.h"
#include "sluice/cdc/postgres/postgres_type_utils.h"

namespace {

void Values(const sluice::PgTuple& tuple) {
  static const sluice::PostgresType kTypes[] = {
      {"_int4", false, -1},      {"_text", false, -1},       {"bytea", false, -1},
      {"bit", false, 1},         {"bit", false, 12},         {"varbit", false, 40},
      {"timestamptz", false, 3}, {"_numeric", false, 655366}};
  sluice::TypeMapping mapping;
  for (const auto& value : tuple.values) {
    if (!value) continue;
    for (const sluice::PostgresType& type : kTypes) {
      auto data_type = sluice::PostgresTypeToDataType(type, mapping);
      if (data_type.ok()) (void)sluice::PostgresValueText(type, **data_type, *value);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  while (input.size() >= 2) {
    const size_t length = (static_cast<uint8_t>(input[0]) << 8) | static_cast<uint8_t>(input[1]);
    input.remove_prefix(2);
    std::string_view frame = input.substr(0, length);
    input.remove_prefix(frame.size());
    auto decoded = sluice::DecodeReplicationFrame(frame);
    if (!decoded.ok()) continue;
    const auto* xlog = std::get_if<sluice::PgXLogData>(&*decoded);
    if (xlog == nullptr) continue;
    auto message = sluice::DecodePgOutput(xlog->payload);
    if (!message.ok()) continue;
    if (const auto* change = std::get_if<sluice::PgChange>(&*message)) {
      if (change->old_tuple) Values(*change->old_tuple);
      if (change->new_tuple) Values(*change->new_tuple);
    }
  }
  return 0;
}
