// Malformed binlog input: events cut short, lengths past the end, checksums that do not match,
// rows of a table no TABLE_MAP introduced. Each is a clear error naming the event and the
// fault, never a crash or a read past the end (the binlog_event fuzz target looks for those
// over random bytes). Hand-made events start from the real ones of testdata/binlog_full.bin.
#include <gtest/gtest.h>
#include <zlib.h>

#include <string>
#include <vector>

#include "sluice/base/coding.h"
#include "sluice/cdc/mysql/binlog_cursor.h"
#include "sluice/cdc/mysql/binlog_decimal.h"
#include "sluice/cdc/mysql/binlog_event.h"
#include "sluice/cdc/mysql/binlog_json.h"
#include "sluice/cdc/mysql/binlog_reader.h"
#include "test_util.h"

namespace sluice {
namespace {

std::vector<std::string> FixtureEvents() {
  const std::string content =
      test::ReadFileOrFail(test::SourceDir() + "/tests/cdc/mysql/testdata/binlog_full.bin");
  std::vector<std::string> events;
  auto reader = BinlogFileReader::Open(content);
  EXPECT_OK(reader);
  if (!reader.ok()) return events;
  std::string_view event;
  while (true) {
    auto more = reader->Next(&event);
    EXPECT_OK(more);
    if (!more.ok() || !*more) break;
    events.emplace_back(event);
  }
  return events;
}

uint8_t TypeOf(const std::string& event) { return static_cast<uint8_t>(event[4]); }

// The index of the first event of `type`.
size_t Find(const std::vector<std::string>& events, BinlogEventType type) {
  for (size_t i = 0; i < events.size(); ++i) {
    if (TypeOf(events[i]) == static_cast<uint8_t>(type)) return i;
  }
  ADD_FAILURE() << "no event of type " << static_cast<int>(type);
  return 0;
}

// Sets the header's event_length to the size and the trailing CRC32 to the bytes before it:
// an event edited by a test is malformed only where the test means it to be.
std::string Seal(std::string event) {
  EncodeFixed32LE(reinterpret_cast<uint8_t*>(event.data() + 9),
                  static_cast<uint32_t>(event.size()));
  const uint32_t crc = static_cast<uint32_t>(
      crc32(0L, reinterpret_cast<const Bytef*>(event.data()), static_cast<uInt>(event.size() - 4)));
  EncodeFixed32LE(reinterpret_cast<uint8_t*>(event.data() + event.size() - 4), crc);
  return event;
}

// `event` without `n` bytes before its CRC32.
std::string CutBody(const std::string& event, size_t n) {
  return Seal(event.substr(0, event.size() - 4 - n) + event.substr(event.size() - 4));
}

// A decoder that has read the events before `index` (the format description, the table map).
BinlogDecoder DecoderBefore(const std::vector<std::string>& events, size_t index) {
  BinlogDecoder decoder;
  for (size_t i = 0; i < index; ++i) EXPECT_OK(decoder.Decode(events[i]));
  return decoder;
}

TEST(BinlogCorruptionTest, EventShorterThanItsHeader) {
  BinlogDecoder decoder;
  EXPECT_TRUE(test::HasError(decoder.Decode("short"), StatusCode::kCorruption,
                             {"5 bytes", "shorter than the 19-byte event header"}));
}

TEST(BinlogCorruptionTest, EventLengthDisagreesWithTheHeader) {
  const std::vector<std::string> events = FixtureEvents();
  BinlogDecoder decoder;
  EXPECT_TRUE(test::HasError(
      decoder.Decode(events[0] + "x"), StatusCode::kCorruption,
      {"FORMAT_DESCRIPTION_EVENT at log_pos 256", "the header says 252", "has 253"}));
}

TEST(BinlogCorruptionTest, ChecksumMismatch) {
  const std::vector<std::string> events = FixtureEvents();
  const size_t rows = Find(events, BinlogEventType::kWriteRowsV1);
  BinlogDecoder decoder = DecoderBefore(events, rows);
  std::string flipped = events[rows];
  flipped[30] ^= 1;
  const std::string pos =
      "log_pos " +
      std::to_string(DecodeFixed32LE(reinterpret_cast<const uint8_t*>(flipped.data() + 13)));
  EXPECT_TRUE(test::HasError(decoder.Decode(flipped), StatusCode::kCorruption,
                             {"WRITE_ROWS_EVENT_V1", pos, "CRC32 mismatch"}));

  std::string fde = events[0];
  fde[25] ^= 1;  // inside the server version
  BinlogDecoder fresh;
  EXPECT_TRUE(test::HasError(fresh.Decode(fde), StatusCode::kCorruption,
                             {"FORMAT_DESCRIPTION_EVENT", "CRC32 mismatch"}));
}

TEST(BinlogCorruptionTest, RowsOfAnUnknownTableId) {
  const std::vector<std::string> events = FixtureEvents();
  const size_t rows = Find(events, BinlogEventType::kWriteRowsV1);
  BinlogDecoder decoder = DecoderBefore(events, 1);  // the format description only
  EXPECT_TRUE(test::HasError(
      decoder.Decode(events[rows]), StatusCode::kCorruption,
      {"WRITE_ROWS_EVENT_V1", "rows of table id 18", "no TABLE_MAP event introduced"}));
  // A statement's end forgets its table maps: the next statement's rows need their own.
  BinlogDecoder full = DecoderBefore(events, rows + 1);
  EXPECT_EQ(full.table_map(18), nullptr);
}

TEST(BinlogCorruptionTest, EveryCutOfATableMapIsAnError) {
  const std::vector<std::string> events = FixtureEvents();
  const size_t map = Find(events, BinlogEventType::kTableMap);
  const size_t body = events[map].size() - 19 - 4;
  // The optional metadata block ends the event: a cut inside it may leave whole fields.
  size_t errors = 0;
  for (size_t n = 1; n <= body; ++n) {
    BinlogDecoder decoder = DecoderBefore(events, 1);
    auto event = decoder.Decode(CutBody(events[map], n));
    if (event.ok()) continue;
    EXPECT_TRUE(test::HasError(event, StatusCode::kCorruption, {"TABLE_MAP_EVENT at log_pos"}))
        << "cut " << n;
    ++errors;
  }
  EXPECT_GT(errors, body / 2);
  BinlogDecoder decoder = DecoderBefore(events, 1);
  EXPECT_TRUE(test::HasError(decoder.Decode(CutBody(events[map], body - 10)),
                             StatusCode::kCorruption,
                             {"TABLE_MAP_EVENT", "the table and database names are truncated"}));
}

TEST(BinlogCorruptionTest, ColumnCountPastTheEnd) {
  const std::vector<std::string> events = FixtureEvents();
  const size_t map = Find(events, BinlogEventType::kTableMap);
  std::string edited = events[map];
  // table id (6), flags (2), "\2bl\0", "\5t_mix\0", then the column count.
  const size_t count_offset = 19 + 8 + 4 + 7;
  ASSERT_EQ(edited[count_offset], 7);
  edited[count_offset] = static_cast<char>(200);
  BinlogDecoder decoder = DecoderBefore(events, 1);
  EXPECT_TRUE(test::HasError(decoder.Decode(Seal(edited)), StatusCode::kCorruption,
                             {"TABLE_MAP_EVENT", "column count 200", "past the end"}));
}

TEST(BinlogCorruptionTest, EveryCutOfARowsEventIsAnErrorOrFewerRows) {
  const std::vector<std::string> events = FixtureEvents();
  // The four rows of every integer type, extremes and NULLs.
  size_t rows = 0;
  for (size_t i = 0; i < events.size(); ++i) {
    if (TypeOf(events[i]) == static_cast<uint8_t>(BinlogEventType::kWriteRowsV1) &&
        events[i].size() > 100) {
      rows = i;
      break;
    }
  }
  ASSERT_GT(rows, 0u);
  BinlogDecoder whole = DecoderBefore(events, rows);
  auto event = whole.Decode(events[rows]);
  ASSERT_OK(event);
  auto all = DecodeBinlogRows(std::get<BinlogRowsEvent>(event->body), {}, nullptr);
  ASSERT_OK(all);
  const size_t body = events[rows].size() - 19 - 4;
  for (size_t n = 1; n <= body; ++n) {
    BinlogDecoder decoder = DecoderBefore(events, rows);
    auto cut = decoder.Decode(CutBody(events[rows], n));
    if (!cut.ok()) {
      EXPECT_TRUE(test::HasError(cut, StatusCode::kCorruption, {"WRITE_ROWS_EVENT_V1"}));
      continue;
    }
    auto decoded = DecodeBinlogRows(std::get<BinlogRowsEvent>(cut->body), {}, nullptr);
    if (decoded.ok()) {
      EXPECT_LT(decoded->size(), all->size()) << "cut " << n;
    } else {
      EXPECT_TRUE(test::HasError(decoded, StatusCode::kCorruption,
                                 {"WRITE_ROWS_EVENT_V1 at log_pos", "row"}))
          << "cut " << n;
    }
  }
}

TEST(BinlogCorruptionTest, FileReader) {
  EXPECT_TRUE(test::HasError(BinlogFileReader::Open("\xfe"
                                                    "bon"),
                             StatusCode::kCorruption, {"binlog magic"}));
  const std::vector<std::string> events = FixtureEvents();
  std::string file = std::string(
                         "\xfe"
                         "bin",
                         4) +
                     events[0].substr(0, 100);
  auto reader = BinlogFileReader::Open(file);
  ASSERT_OK(reader);
  std::string_view event;
  EXPECT_TRUE(test::HasError(reader->Next(&event), StatusCode::kCorruption,
                             {"event at offset 4", "claims 252 bytes", "100 are left"}));
  auto short_file = BinlogFileReader::Open(std::string("\xfe"
                                                       "bin",
                                                       4) +
                                           "0123456789");
  ASSERT_OK(short_file);
  EXPECT_TRUE(test::HasError(short_file->Next(&event), StatusCode::kCorruption,
                             {"offset 4", "fewer than its 19-byte header"}));
}

// A ROTATE as a dump starts with it (artificial, before the format description), with the
// CRC32 that a client asking for checksums gets.
TEST(BinlogCorruptionTest, ChecksumBeforeTheFormatDescription) {
  std::string rotate(19, '\0');
  rotate[4] = static_cast<char>(BinlogEventType::kRotate);
  rotate[5] = 1;      // server id
  rotate[17] = 0x20;  // LOG_EVENT_ARTIFICIAL_F
  rotate += std::string("\4\0\0\0\0\0\0\0", 8) + "binlog.000007" + "crc!";
  BinlogDecoder decoder;
  decoder.set_checksum_before_format_description(true);
  auto event = decoder.Decode(Seal(rotate));
  ASSERT_OK(event);
  EXPECT_EQ(event->header.log_pos, 0u);
  EXPECT_EQ(std::get<BinlogRotate>(event->body).next_file, "binlog.000007");
  EXPECT_EQ(std::get<BinlogRotate>(event->body).position, 4u);
  std::string bad = Seal(rotate);
  bad.back() ^= 1;
  EXPECT_TRUE(test::HasError(decoder.Decode(bad), StatusCode::kCorruption,
                             {"ROTATE_EVENT at log_pos 0", "CRC32 mismatch"}));
}

TEST(BinlogCorruptionTest, EventsThatCannotBePassedOver) {
  const std::vector<std::string> events = FixtureEvents();
  const size_t rows = Find(events, BinlogEventType::kWriteRowsV1);
  std::string compressed = events[rows];
  compressed[4] = static_cast<char>(BinlogEventType::kWriteRowsCompressedV1);
  BinlogDecoder decoder = DecoderBefore(events, rows);
  EXPECT_TRUE(test::HasError(decoder.Decode(Seal(compressed)), StatusCode::kNotSupported,
                             {"WRITE_ROWS_COMPRESSED_EVENT_V1", "log_bin_compress=OFF"}));
  std::string unknown = events[rows];
  unknown[4] = static_cast<char>(200);
  auto other = decoder.Decode(Seal(unknown));
  ASSERT_OK(other);
  EXPECT_TRUE(std::holds_alternative<BinlogOtherEvent>(other->body));
  EXPECT_EQ(other->header.type, 200);
}

std::string DecimalText(std::string_view bytes, int precision, int scale) {
  BinlogCursor in(bytes);
  std::string out;
  Status st = ReadBinlogDecimal(&in, precision, scale, &out);
  return st.ok() ? out : st.ToString();
}

TEST(BinlogCorruptionTest, Decimal) {
  EXPECT_EQ(BinlogDecimalSize(10, 2), 5u);
  EXPECT_EQ(BinlogDecimalSize(65, 30), 30u);
  EXPECT_EQ(DecimalText("\xe3", 2, 0), "99");
  EXPECT_EQ(DecimalText("\x1c", 2, 0), "-99");  // every bit inverted
  EXPECT_EQ(DecimalText(std::string("\x80\x00", 2), 2, 1), "0.0");
  EXPECT_NE(DecimalText("\xe4", 2, 0).find("Corruption: DECIMAL(2, 0) value has a group beyond"),
            std::string::npos);
  EXPECT_NE(DecimalText(std::string("\x80\x00", 2), 10, 2).find("is truncated"), std::string::npos);
  EXPECT_NE(DecimalText("\x80", 70, 2).find("not a MySQL decimal type"), std::string::npos);
}

std::string JsonText(std::string_view binary) {
  std::string out;
  Status st = AppendBinlogJson(binary, &out);
  return st.ok() ? out : st.ToString();
}

TEST(BinlogCorruptionTest, MySqlBinaryJson) {
  using namespace std::string_literals;
  EXPECT_EQ(JsonText(""), "null");
  EXPECT_EQ(JsonText("\x04\x01"s), "true");
  EXPECT_EQ(JsonText("\x05\xd6\xff"s), "-42");
  EXPECT_EQ(JsonText("\x0c\x05"
                     "a\"b\n\\"s),
            R"("a\"b\n\\")");
  // [1, "x"]: count 2, size 12, entries (int16 1 inlined) (string at 10), then the string.
  EXPECT_EQ(JsonText("\x02\x02\x00\x0c\x00\x05\x01\x00\x0c\x0a\x00\x01x"s), R"([1, "x"])");
  // {"k": true}: count 1, size 12, key entry (offset 11, length 1), value entry (true).
  EXPECT_EQ(JsonText("\x00\x01\x00\x0c\x00\x0b\x00\x01\x00\x04\x01\x00k"s), R"({"k": true})");
  // 2.5 as a double; a decimal 1.50 as an opaque NEWDECIMAL(3, 2).
  EXPECT_EQ(JsonText("\x0b\x00\x00\x00\x00\x00\x00\x04\x40"s), "2.5");
  EXPECT_EQ(JsonText("\x0f\xf6\x04\x03\x02\x81\x32"s), "1.50");

  EXPECT_NE(JsonText("\x02\x02\x00\x0c\x00\x05\x01\x00\x0c\x7f\x00\x01x"s)
                .find("Corruption: JSON value: value offset is past the end"),
            std::string::npos);
  EXPECT_NE(JsonText("\x02\xff\x00\x0c\x00"s).find("container size is past the end"),
            std::string::npos);
  EXPECT_NE(JsonText("\x02\xff\x00\x04\x00"s).find("element count is past the end"),
            std::string::npos);
  EXPECT_NE(JsonText("\x0c\x05"
                     "ab"s)
                .find("string is truncated"),
            std::string::npos);
  EXPECT_NE(JsonText("\x33"s).find("value type 51 is unknown"), std::string::npos);
  // Arrays nested past MySQL's depth: each holds the next one, right after its one entry.
  std::string nested = "\x00\x00\x04\x00"s;  // []
  for (int i = 0; i < 120; ++i) {
    const size_t size = 7 + nested.size();
    nested = "\x01\x00"s + static_cast<char>(size & 0xFF) + static_cast<char>(size >> 8) +
             "\x02\x07\x00"s + nested;
  }
  EXPECT_NE(JsonText("\x02"s + nested).find("nested deeper than 100"), std::string::npos);
}

}  // namespace
}  // namespace sluice
