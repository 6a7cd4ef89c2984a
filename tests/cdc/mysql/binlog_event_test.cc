// The binlog event decoder on binlog files that MariaDB 10.11 wrote (testdata/, made by
// make_binlog_fixtures.sh from binlog_fixture*.sql): the rows expected below are what the
// server's SELECT returns for the same rows (the script prints it), as the text each value's
// Paimon type reads.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sluice/cdc/cdc_value_cast.h"
#include "sluice/cdc/mysql/binlog_event.h"
#include "sluice/cdc/mysql/binlog_reader.h"
#include "sluice/cdc/mysql_type_utils.h"
#include "test_util.h"

namespace sluice {
namespace {

using Image = std::vector<std::optional<std::string>>;
const std::optional<std::string> N;  // SQL NULL, or a column the image does not hold

std::string Fixture(const std::string& name) {
  return test::ReadFileOrFail(test::SourceDir() + "/tests/cdc/mysql/testdata/" + name);
}

// One decoded ROWS event row, with its table.
struct Change {
  std::string table;
  BinlogRowsKind kind;
  Image before;
  Image after;
};

// The caller's formats per table (information_schema.COLUMNS: COLUMN_TYPE, CHARACTER_SET_NAME).
using Formats = std::map<std::string, std::vector<BinlogColumnFormat>>;

// Every event of `file`, decoded; the rows of every ROWS event (`errors` gets the status of
// those that fail, by table).
struct Decoded {
  std::vector<BinlogEvent> events;
  std::vector<Change> changes;
  std::map<std::string, Status> errors;
};

Decoded DecodeFile(const std::string& content, const Formats& formats = {},
                   const TimeZone* zone = nullptr) {
  Decoded out;
  auto reader = BinlogFileReader::Open(content);
  EXPECT_OK(reader);
  if (!reader.ok()) return out;
  BinlogDecoder decoder;
  std::string_view bytes;
  while (true) {
    auto more = reader->Next(&bytes);
    EXPECT_OK(more);
    if (!more.ok() || !*more) break;
    auto event = decoder.Decode(bytes);
    EXPECT_OK(event) << "at " << reader->position();
    if (!event.ok()) break;
    if (const auto* rows = std::get_if<BinlogRowsEvent>(&event->body)) {
      const std::string table = rows->table != nullptr ? rows->table->table : "";
      const auto it = formats.find(table);
      auto decoded = DecodeBinlogRows(
          *rows,
          it == formats.end() ? std::span<const BinlogColumnFormat>() : std::span(it->second),
          zone);
      if (!decoded.ok()) {
        out.errors.emplace(table, decoded.status());
      } else {
        for (BinlogRow& row : *decoded) {
          out.changes.push_back({table, rows->kind, std::move(row.before), std::move(row.after)});
        }
      }
    }
    out.events.push_back(std::move(*event));
  }
  return out;
}

std::vector<Change> ChangesOf(const Decoded& decoded, const std::string& table) {
  std::vector<Change> out;
  for (const Change& c : decoded.changes) {
    if (c.table == table) out.push_back(c);
  }
  return out;
}

std::vector<BinlogColumnFormat> FormatsOf(
    const std::vector<std::pair<std::string, std::string>>& columns) {
  std::vector<BinlogColumnFormat> out;
  for (const auto& [type, charset] : columns) {
    auto parsed = ParseMySqlType(type);
    EXPECT_OK(parsed) << type;
    out.push_back(BinlogColumnFormatOf(parsed.ok() ? *parsed : MySqlType{}, charset));
  }
  return out;
}

// The COLUMN_TYPE of every column of the fixture's tables, as information_schema gives it.
const std::map<std::string, std::vector<std::string>>& ColumnTypes() {
  static const auto* types = new std::map<std::string, std::vector<std::string>>{
      {"t_int",
       {"int(11)", "tinyint(4)", "tinyint(3) unsigned", "smallint(6)", "smallint(5) unsigned",
        "mediumint(9)", "mediumint(8) unsigned", "int(11)", "int(10) unsigned", "bigint(20)",
        "bigint(20) unsigned", "tinyint(1)", "bit(1)", "bit(12)", "year(4)"}},
      {"t_num",
       {"int(11)", "decimal(10,2)", "decimal(65,30)", "decimal(10,4) unsigned", "float", "double",
        "varchar(10)"}},
      {"t_time",
       {"int(11)", "date", "datetime", "datetime(3)", "datetime(6)", "timestamp(6)", "time(3)",
        "time"}},
      {"t_str", {"int(11)",
                 "char(10)",
                 "char(10)",
                 "varchar(300)",
                 "varchar(20)",
                 "tinytext",
                 "text",
                 "mediumtext",
                 "longtext",
                 "binary(4)",
                 "varbinary(20)",
                 "tinyblob",
                 "blob",
                 "mediumblob",
                 "longblob",
                 "enum('a','b','c')",
                 "set('x','y','z')",
                 "enum('é','ß')",
                 "longtext",
                 "char(255)"}},
      {"t_mix",
       {"year(4)", "bit(3)", "int(10) unsigned", "enum('p','q')", "varchar(5)", "set('m','n')",
        "text"}},
      {"t_geo", {"int(11)", "point", "varchar(5)"}},
  };
  return *types;
}

const Image kIntMin = {"1",        "-128", "0",           "-32768", "0",
                       "-8388608", "0",    "-2147483648", "0",      "-9223372036854775808",
                       "0",        "0",    "0",           "AAA=",   "1901"};

TEST(BinlogEventTest, ReadsTheEventsOfAMariaDbBinlog) {
  const Decoded decoded = DecodeFile(Fixture("binlog_full.bin"));
  ASSERT_GT(decoded.events.size(), 10u);
  const auto& fde = std::get<BinlogFormatDescription>(decoded.events[0].body);
  EXPECT_EQ(fde.binlog_version, 4);
  EXPECT_NE(fde.server_version.find("10.11"), std::string::npos) << fde.server_version;
  EXPECT_EQ(fde.checksum_alg, 1);  // CRC32, verified on every event after it

  std::vector<BinlogGtid> gtids;
  std::vector<BinlogQuery> queries;
  size_t xids = 0;
  for (const BinlogEvent& event : decoded.events) {
    if (const auto* gtid = std::get_if<BinlogGtid>(&event.body)) gtids.push_back(*gtid);
    if (const auto* query = std::get_if<BinlogQuery>(&event.body)) queries.push_back(*query);
    if (std::holds_alternative<BinlogXid>(event.body)) ++xids;
  }
  ASSERT_FALSE(gtids.empty());
  EXPECT_EQ(gtids[0].domain_id, 0u);
  EXPECT_EQ(gtids[0].server_id, 1u);
  EXPECT_TRUE(gtids[0].standalone());  // CREATE DATABASE: no BEGIN / COMMIT
  EXPECT_FALSE(gtids.back().standalone());
  for (size_t i = 1; i < gtids.size(); ++i) EXPECT_EQ(gtids[i].seq_no, gtids[i - 1].seq_no + 1);
  ASSERT_FALSE(queries.empty());
  EXPECT_EQ(queries[0].database, "bl");
  EXPECT_EQ(queries[0].sql, "CREATE DATABASE bl");
  EXPECT_EQ(queries.back().sql, "ALTER TABLE t_num ADD COLUMN extra VARCHAR(10) DEFAULT 'dflt'");
  EXPECT_EQ(xids, 11u);  // one per DML transaction
  const auto& gtid_list = std::get<BinlogGtidList>(decoded.events[1].body);
  ASSERT_EQ(gtid_list.gtids.size(), 1u);
  EXPECT_EQ(gtid_list.gtids[0].seq_no + 1, gtids[0].seq_no);
  const auto& rotate = std::get<BinlogRotate>(decoded.events.back().body);
  EXPECT_EQ(rotate.position, 4u);
  EXPECT_EQ(rotate.next_file.substr(0, 7), "binlog.");
  EXPECT_TRUE(decoded.errors.empty());
}

TEST(BinlogEventTest, TableMapCarriesTheFullRowMetadata) {
  const Decoded decoded = DecodeFile(Fixture("binlog_full.bin"));
  std::map<std::string, std::shared_ptr<const BinlogTableMap>> tables;
  for (const BinlogEvent& event : decoded.events) {
    if (const auto* t = std::get_if<std::shared_ptr<const BinlogTableMap>>(&event.body)) {
      tables[(*t)->table] = *t;
    }
  }
  ASSERT_EQ(tables.size(), 6u);
  const BinlogTableMap& mix = *tables.at("t_mix");
  EXPECT_EQ(mix.database, "bl");
  EXPECT_EQ(mix.primary_key, (std::vector<uint32_t>{2, 0}));
  ASSERT_EQ(mix.columns.size(), 7u);
  // MariaDB lists YEAR among the unsigned flags (and BIT not), ENUM / SET apart from charsets.
  EXPECT_EQ(mix.columns[0].is_unsigned, true);
  EXPECT_EQ(mix.columns[1].is_unsigned, std::nullopt);
  EXPECT_EQ(mix.columns[2].is_unsigned, true);
  EXPECT_EQ(mix.columns[3].real_type, BinlogColumnType::kEnum);
  EXPECT_EQ(mix.columns[3].collation, 45u);  // utf8mb4_general_ci
  EXPECT_EQ(mix.columns[4].collation, 8u);   // latin1_swedish_ci
  EXPECT_EQ(mix.columns[5].real_type, BinlogColumnType::kSet);
  EXPECT_EQ(mix.columns[5].members, (std::vector<std::string>{"m", "n"}));
  EXPECT_EQ(mix.columns[6].name, "t");
  EXPECT_FALSE(mix.columns[0].nullable);
  EXPECT_TRUE(mix.columns[1].nullable);

  // MariaDB counts GEOMETRY among the character columns: the latin1 column after it.
  const BinlogTableMap& geo = *tables.at("t_geo");
  EXPECT_EQ(geo.columns[1].geometry_type, 1u);  // POINT
  EXPECT_EQ(geo.columns[1].collation, kBinaryCollation);
  EXPECT_EQ(geo.columns[2].collation, 8u);

  const BinlogTableMap& str = *tables.at("t_str");
  EXPECT_EQ(str.columns[1].length, 40u);     // CHAR(10) utf8mb4
  EXPECT_EQ(str.columns[19].length, 1020u);  // CHAR(255) utf8mb4: the length folded into the type
  EXPECT_EQ(str.columns[17].members, (std::vector<std::string>{"\xe9", "\xdf"}));  // latin1
  EXPECT_EQ(str.columns[9].collation, kBinaryCollation);
  EXPECT_EQ(tables.at("t_num")->columns[2].meta, 65 << 8 | 30);
}

TEST(BinlogEventTest, RowsOfEveryTypeMatchTheServer) {
  const Decoded decoded = DecodeFile(Fixture("binlog_full.bin"));
  const std::vector<Change> ints = ChangesOf(decoded, "t_int");
  ASSERT_EQ(ints.size(), 5u);
  EXPECT_EQ(ints[0].kind, BinlogRowsKind::kWrite);
  EXPECT_TRUE(ints[0].before.empty());
  EXPECT_EQ(ints[0].after, kIntMin);
  EXPECT_EQ(ints[1].after, (Image{"2", "127", "255", "32767", "65535", "8388607", "16777215",
                                  "2147483647", "4294967295", "9223372036854775807",
                                  "18446744073709551615", "1", "1", "Cqo=", "2155"}));
  EXPECT_EQ(ints[2].after, (Image{"3", N, N, N, N, N, N, N, N, N, N, N, N, N, N}));
  EXPECT_EQ(ints[3].after, (Image{"4", "-1", "1", "-1", "1", "-1", "1", "-1", "1", "-1", "1", "127",
                                  "1", "AAE=", "0"}));
  EXPECT_EQ(ints[4].kind, BinlogRowsKind::kUpdate);
  EXPECT_EQ(ints[4].before, kIntMin);
  Image updated = kIntMin;
  updated[1] = "5";
  updated[10] = "18446744073709551614";
  EXPECT_EQ(ints[4].after, updated);

  const std::vector<Change> nums = ChangesOf(decoded, "t_num");
  ASSERT_EQ(nums.size(), 6u);
  EXPECT_EQ(nums[0].after, (Image{"1", "12345678.91",
                                  "-12345678901234567890123456789012345."
                                  "123456789012345678901234567890",
                                  "123456.7890", "3.14", "-2.718281828459045"}));
  EXPECT_EQ(nums[1].after, (Image{"2", "-0.01", "0.000000000000000000000000000001", "0.0001",
                                  "-3.4028235e+38", "1.7976931348623157e+308"}));
  EXPECT_EQ(nums[2].after, (Image{"3", N, N, N, N, N}));
  EXPECT_EQ(nums[3].after,
            (Image{"4", "0.00", "0.000000000000000000000000000000", "0.0000", "0", "0"}));
  EXPECT_EQ(nums[4].after, (Image{"5", "-99999999.99",
                                  "99999999999999999999999999999999999."
                                  "999999999999999999999999999999",
                                  "999999.9999", "1e-30", "-5e-324"}));
  // After ALTER TABLE ADD COLUMN: a new table id, seven columns.
  EXPECT_EQ(nums[5].after, (Image{"6", "1.50", N, N, N, N, "dflt"}));

  const std::vector<Change> times = ChangesOf(decoded, "t_time");
  ASSERT_EQ(times.size(), 6u);  // five rows written, one deleted
  EXPECT_EQ(times[0].after, (Image{"1", "1000-01-01", "1000-01-01 00:00:00",
                                   "1000-01-01 00:00:00.000", "1000-01-01 00:00:00.000000",
                                   "1970-01-01 00:00:01.000000", "-838:59:59.000", "-00:00:01"}));
  EXPECT_EQ(times[1].after, (Image{"2", "9999-12-31", "9999-12-31 23:59:59",
                                   "9999-12-31 23:59:59.999", "9999-12-31 23:59:59.999999",
                                   "2038-01-19 03:14:07.999999", "838:59:59.000", "12:34:56"}));
  // Zero dates are NULL (as Debezium); a negative TIME with a fraction.
  EXPECT_EQ(times[3].after, (Image{"4", N, N, N, N, N, "-00:00:00.500", "00:00:00"}));
  EXPECT_EQ(times[4].after, (Image{"5", "2024-02-29", "2024-02-29 12:34:56",
                                   "2024-02-29 12:34:56.789", "2024-02-29 12:34:56.000001",
                                   "2024-03-31 01:30:00.500000", "-01:02:03.040", "-12:00:00"}));
  EXPECT_EQ(times[5].kind, BinlogRowsKind::kDelete);
  EXPECT_EQ(times[5].before, (Image{"3", N, N, N, N, N, N, N}));
  EXPECT_TRUE(times[5].after.empty());

  const std::vector<Change> strs = ChangesOf(decoded, "t_str");
  ASSERT_EQ(strs.size(), 6u);
  const std::string e255 = [] {
    std::string s;
    for (int i = 0; i < 255; ++i) s += "é";
    return s;
  }();
  const Image str1 = {"1",
                      "abc",
                      "café",
                      "héllo 😀",
                      "Größe €",
                      "tiny",
                      "text 😀",
                      "medium",
                      "long",
                      std::string("ab\0\0", 4),
                      std::string("\x00\xff\x10", 3),
                      "",
                      "\xde\xad\xbe\xef",
                      "\x01\x02",
                      "\xff",
                      "b",
                      R"(["x","z"])",
                      "ß",
                      R"({"a": [1, 2.5, "x"], "b": null})",
                      e255};
  EXPECT_EQ(strs[0].after, str1);
  EXPECT_EQ(strs[1].after, (Image{"2", N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N}));
  EXPECT_EQ(strs[2].after, (Image{"3",  "",
                                  "",   std::string(300, 'x'),
                                  "",   "",
                                  "",   "",
                                  "",   std::string(4, '\0'),
                                  "",   "",
                                  "",   "",
                                  "",   "",
                                  "[]", "",
                                  "[]", ""}));
  EXPECT_EQ(strs[3].after, (Image{"4",
                                  " pad",
                                  "ÿ",
                                  R"("quote" \ back)",
                                  "",
                                  "",
                                  "",
                                  "",
                                  "",
                                  std::string(4, '\0'),
                                  std::string(1, '\0'),
                                  "",
                                  "",
                                  "",
                                  "",
                                  "c",
                                  R"(["x","y","z"])",
                                  "é",
                                  R"("s")",
                                  "z"}));
  EXPECT_EQ(strs[4].kind, BinlogRowsKind::kUpdate);
  EXPECT_EQ(strs[4].before, str1);
  Image str1_updated = str1;
  str1_updated[3] = "new 😀";
  str1_updated[15] = "a";
  str1_updated[16] = R"(["y"])";
  EXPECT_EQ(strs[4].after, str1_updated);
  EXPECT_EQ(strs[5].kind, BinlogRowsKind::kDelete);
  EXPECT_EQ(strs[5].before[0], "2");

  const std::vector<Change> mix = ChangesOf(decoded, "t_mix");
  ASSERT_EQ(mix.size(), 1u);
  EXPECT_EQ(mix[0].after, (Image{"2000", "BQ==", "4294967295", "q", "é", R"(["m","n"])", "ñ"}));

  // A geometry as Java's sinks write it (geometry_json.h).
  EXPECT_EQ(decoded.errors.count("t_geo"), 0u);
  const std::vector<Change> geo = ChangesOf(decoded, "t_geo");
  ASSERT_EQ(geo.size(), 1u);
  EXPECT_EQ(geo[0].after, (Image{"1", R"({"coordinates":[1,2],"type":"Point","srid":0})", "ä"}));
}

TEST(BinlogEventTest, TimestampsShowTheServerZone) {
  auto berlin = TimeZone::Load("Europe/Berlin");
  ASSERT_OK(berlin);
  const Decoded decoded = DecodeFile(Fixture("binlog_full.bin"), {}, berlin->get());
  const std::vector<Change> times = ChangesOf(decoded, "t_time");
  ASSERT_EQ(times.size(), 6u);
  EXPECT_EQ(times[0].after[5], "1970-01-01 01:00:01.000000");
  EXPECT_EQ(times[1].after[5], "2038-01-19 04:14:07.999999");
  EXPECT_EQ(times[4].after[5], "2024-03-31 03:30:00.500000");  // summer time from 01:00 UTC
  EXPECT_EQ(times[4].after[4], "2024-02-29 12:34:56.000001");  // DATETIME: no zone
}

TEST(BinlogEventTest, EveryTextCastsToTheMappedPaimonType) {
  const Decoded decoded = DecodeFile(Fixture("binlog_full.bin"));
  const TypeMapping mapping;
  size_t cast = 0;
  for (const Change& change : decoded.changes) {
    const std::vector<std::string>& types = ColumnTypes().at(change.table);
    for (const Image* image : {&change.before, &change.after}) {
      for (size_t c = 0; c < image->size(); ++c) {
        const std::optional<std::string>& text = (*image)[c];
        if (!text) continue;
        auto mysql_type = ParseMySqlType(types.at(c));
        ASSERT_OK(mysql_type) << types[c];
        auto type = MySqlTypeToDataType(*mysql_type, mapping);
        ASSERT_OK(type) << types[c];
        // Paimon's TIME holds a time of day; MySQL's TIME is a duration up to +-838 hours.
        if (mysql_type->name == "TIME" && (text->front() == '-' || text->substr(0, 3) == "838")) {
          continue;
        }
        // The binlog has TINYINT(1)'s value (MySQL takes any non-zero one as true); the BOOLEAN
        // text of 0 / 1 is the caller's to give.
        if (types[c] == "tinyint(1)" && *text != "0" && *text != "1") continue;
        auto value = CastFromCdcValueString(*text, **type);
        EXPECT_OK(value) << change.table << " column " << c << " " << types[c] << " '" << *text
                         << "'";
        ++cast;
      }
    }
  }
  EXPECT_GT(cast, 230u);
}

TEST(BinlogEventTest, MinimalMetadataTakesTheCallersFormats) {
  const std::string content = Fixture("binlog_minimal.bin");
  // Without FULL metadata the event has no ENUM / SET members: the caller must give them.
  const Decoded bare = DecodeFile(content);
  ASSERT_EQ(bare.errors.count("t_str"), 1u);
  EXPECT_TRUE(test::HasError(bare.errors.at("t_str"), StatusCode::kInvalidArgument,
                             {"`bl`.`t_str`", "column 15", "ENUM members are unknown"}));
  // MINIMAL still carries the unsigned flags and the charsets.
  const std::vector<Change> ints = ChangesOf(bare, "t_int");
  ASSERT_EQ(ints.size(), 3u);
  EXPECT_EQ(ints[0].after,
            (Image{"10", "-7", "200", "-300", "60000", "-70000", "16000000", "-5", "4000000000",
                   "-6", "18000000000000000000", "1", "1", "D/8=", "1999"}));
  // binlog_row_image=MINIMAL: the key before, the changed column after.
  EXPECT_EQ(ints[1].kind, BinlogRowsKind::kUpdate);
  EXPECT_EQ(ints[1].before, (Image{"10", N, N, N, N, N, N, N, N, N, N, N, N, N, N}));
  EXPECT_EQ(ints[1].after, (Image{N, N, N, N, N, N, N, "42", N, N, N, N, N, N, N}));
  EXPECT_EQ(ints[2].kind, BinlogRowsKind::kDelete);
  EXPECT_EQ(ints[2].before, (Image{"10", N, N, N, N, N, N, N, N, N, N, N, N, N, N}));

  Formats formats;
  std::vector<std::pair<std::string, std::string>> str_columns;
  const std::vector<std::string> charsets = {"",        "utf8mb4", "latin1",  "utf8mb4", "latin1",
                                             "utf8mb4", "utf8mb4", "utf8mb4", "utf8mb4", "",
                                             "",        "",        "",        "",        "",
                                             "utf8mb4", "utf8mb4", "latin1",  "utf8mb4", "utf8mb4"};
  for (size_t c = 0; c < charsets.size(); ++c) {
    str_columns.emplace_back(ColumnTypes().at("t_str")[c], charsets[c]);
  }
  formats["t_str"] = FormatsOf(str_columns);
  const Decoded with_formats = DecodeFile(content, formats);
  EXPECT_TRUE(with_formats.errors.empty());
  const std::vector<Change> strs = ChangesOf(with_formats, "t_str");
  ASSERT_EQ(strs.size(), 1u);
  EXPECT_EQ(strs[0].after, (Image{"10",
                                  "ü",
                                  "ü",
                                  "ü",
                                  "ü",
                                  "ü",
                                  "ü",
                                  "ü",
                                  "ü",
                                  std::string("\xff\0\0\0", 4),
                                  "\xfe",
                                  "\xfd",
                                  "\xfc",
                                  "\xfb",
                                  "\xfa",
                                  "c",
                                  R"(["y","z"])",
                                  "ß",
                                  "{}",
                                  "😀"}));

  // Formats of another column count: the caller's schema is not the event's.
  formats["t_str"].pop_back();
  const Decoded stale = DecodeFile(content, formats);
  EXPECT_TRUE(test::HasError(stale.errors.at("t_str"), StatusCode::kInvalidArgument,
                             {"19 column formats", "`bl`.`t_str`", "20 columns"}));
}

// MySQL 8's layouts (testdata/make_mysql8_binlog.py writes them by hand: no MySQL server is
// packaged in Debian): v2 rows with extra row info, binary JSON, and optional metadata whose
// lists skip YEAR (unsigned flags) and GEOMETRY (charsets), unlike MariaDB's.
TEST(BinlogEventTest, MySql8RowsV2AndBinaryJson) {
  const Decoded decoded = DecodeFile(Fixture("binlog_mysql8.bin"));
  ASSERT_EQ(decoded.events.size(), 4u);
  EXPECT_EQ(std::get<BinlogFormatDescription>(decoded.events[0].body).server_version, "8.0.36");
  const auto& table = *std::get<std::shared_ptr<const BinlogTableMap>>(decoded.events[1].body);
  EXPECT_EQ(table.columns[1].is_unsigned, std::nullopt);  // YEAR
  EXPECT_EQ(table.columns[2].is_unsigned, true);
  EXPECT_EQ(table.columns[4].collation, std::nullopt);  // GEOMETRY
  EXPECT_EQ(table.columns[5].collation, 8u);
  EXPECT_EQ(table.primary_key, (std::vector<uint32_t>{0}));
  EXPECT_TRUE(decoded.errors.empty());
  ASSERT_EQ(decoded.changes.size(), 2u);
  const Image row = {"7", "2024", "4000000000", R"({"k": [1, "x"]})", N, "é"};
  EXPECT_EQ(decoded.changes[0].kind, BinlogRowsKind::kWrite);
  EXPECT_EQ(decoded.changes[0].after, row);
  EXPECT_EQ(decoded.changes[1].kind, BinlogRowsKind::kUpdate);
  EXPECT_EQ(decoded.changes[1].before, row);
  EXPECT_EQ(decoded.changes[1].after, (Image{"7", "1901", "0", "true", N, ""}));
}

TEST(BinlogEventTest, ColumnFormatOfInformationSchema) {
  auto format = [](const std::string& type, const std::string& charset) {
    auto parsed = ParseMySqlType(type);
    EXPECT_OK(parsed);
    return BinlogColumnFormatOf(*parsed, charset);
  };
  EXPECT_TRUE(format("int(10) unsigned", "").is_unsigned);
  EXPECT_TRUE(format("bigint(20) unsigned zerofill", "").is_unsigned);
  EXPECT_FALSE(format("int(11)", "").is_unsigned);
  EXPECT_EQ(format("varchar(5)", "latin1").charset, BinlogCharset::kLatin1);
  EXPECT_EQ(format("varbinary(5)", "").charset, BinlogCharset::kBinary);
  EXPECT_EQ(format("longblob", "").charset, BinlogCharset::kBinary);
  EXPECT_EQ(format("text", "utf8mb4").charset, BinlogCharset::kUtf8);
  EXPECT_EQ(format("enum('a','b')", "utf8mb4").members, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(BinlogCharsetOfCollation(63), BinlogCharset::kBinary);
  EXPECT_EQ(BinlogCharsetOfCollation(8), BinlogCharset::kLatin1);
  EXPECT_EQ(BinlogCharsetOfCollation(45), BinlogCharset::kUtf8);
}

}  // namespace
}  // namespace sluice
