// libFuzzer target: the input is a mode byte, then a binlog file (the "\xfebin" magic is added
// when the bytes lack it), as MariaDB or MySQL writes it: a format description, table maps,
// rows. Every event goes through one BinlogDecoder, and the rows of each ROWS event are decoded
// twice: from the event's own metadata alone, and with column formats the mode byte picks.
// Any status is fine; a crash, leak, hang, sanitizer report or an image of the wrong width is
// a finding.
//
// Mode byte: bit 0 reseals each event (its event_length and CRC32 set to what it holds), so
// that mutations reach past the checksum; bit 1 says events before the format description
// carry a CRC32; bit 2 makes the formats unsigned; bits 3-4 pick their charset; bit 5 gives
// them ENUM / SET members; bit 6 shows TIMESTAMPs in Europe/Berlin.
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/base/coding.h"
#include "sluice/cdc/mysql/binlog_event.h"
#include "sluice/cdc/mysql/binlog_reader.h"

namespace {

void Reseal(std::string* event) {
  if (event->size() < sluice::kBinlogEventHeaderSize + sluice::kBinlogChecksumSize) return;
  auto* bytes = reinterpret_cast<uint8_t*>(event->data());
  sluice::EncodeFixed32LE(bytes + 9, static_cast<uint32_t>(event->size()));
  const uInt covered = static_cast<uInt>(event->size() - sluice::kBinlogChecksumSize);
  sluice::EncodeFixed32LE(bytes + covered, static_cast<uint32_t>(crc32(0L, bytes, covered)));
}

void CheckWidth(const std::vector<sluice::BinlogRow>& rows, size_t columns) {
  for (const sluice::BinlogRow& row : rows) {
    if ((!row.before.empty() && row.before.size() != columns) ||
        (!row.after.empty() && row.after.size() != columns)) {
      __builtin_trap();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t mode = data[0];
  std::string content(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (content.compare(0, 4,
                      "\xfe"
                      "bin",
                      4) != 0)
    content.insert(0,
                   "\xfe"
                   "bin",
                   4);
  auto reader = sluice::BinlogFileReader::Open(content);
  if (!reader.ok()) __builtin_trap();  // the magic is there

  std::shared_ptr<const sluice::TimeZone> zone;
  if ((mode & 64) != 0) {
    auto berlin = sluice::TimeZone::Load("Europe/Berlin");
    if (berlin.ok()) zone = *berlin;
  }
  sluice::BinlogDecoder decoder;
  decoder.set_checksum_before_format_description((mode & 2) != 0);
  std::string_view bytes;
  for (int events = 0; events < 10000; ++events) {
    auto more = reader->Next(&bytes);
    if (!more.ok() || !*more) break;
    std::string event(bytes);
    if ((mode & 1) != 0) Reseal(&event);
    auto decoded = decoder.Decode(event);
    if (!decoded.ok()) continue;
    const auto* rows = std::get_if<sluice::BinlogRowsEvent>(&decoded->body);
    if (rows == nullptr || rows->table == nullptr) continue;
    const size_t columns = rows->table->columns.size();
    auto own = sluice::DecodeBinlogRows(*rows, {}, zone.get());
    if (own.ok()) CheckWidth(*own, columns);
    sluice::BinlogColumnFormat format;
    format.is_unsigned = (mode & 4) != 0;
    format.charset = static_cast<sluice::BinlogCharset>((mode >> 3) % 3);
    if ((mode & 32) != 0) format.members = {"a", "b\"\\", "\xc3\xa9", ""};
    const std::vector<sluice::BinlogColumnFormat> formats(columns, format);
    auto given = sluice::DecodeBinlogRows(*rows, formats, zone.get());
    if (given.ok()) CheckWidth(*given, columns);
  }
  return 0;
}
