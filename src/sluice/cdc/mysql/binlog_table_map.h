// The TABLE_MAP event of MySQL / MariaDB row-based binary logging: before the rows of a table
// the server writes its database and table names and, per column, the binlog type, the type's
// metadata (lengths, precision, fractional seconds) and whether it is nullable, under a table id
// that the following ROWS events name. Since MariaDB 10.5 / MySQL 8.0.1 an optional metadata
// block follows (binlog_row_metadata = MINIMAL: unsigned flags, charsets, primary key; FULL adds
// the column names and the ENUM / SET members); older servers and MINIMAL leave those facts to
// the reader's own knowledge of the schema (BinlogColumnFormat, binlog_value.h).
//
// Thread safety: values; ParseBinlogTableMap is a pure function.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/result.h"

namespace sluice {

// Column types as the binlog writes them (MySQL's enum_field_types; MariaDB's compressed
// columns 140 / 141).
enum class BinlogColumnType : uint8_t {
  kDecimal = 0,  // pre-5.0 DECIMAL, stored as text of a length the table map does not give
  kTiny = 1,
  kShort = 2,
  kLong = 3,
  kFloat = 4,
  kDouble = 5,
  kNull = 6,
  kTimestamp = 7,
  kLongLong = 8,
  kInt24 = 9,
  kDate = 10,
  kTime = 11,
  kDateTime = 12,
  kYear = 13,
  kNewDate = 14,
  kVarchar = 15,
  kBit = 16,
  kTimestamp2 = 17,
  kDateTime2 = 18,
  kTime2 = 19,
  kVarcharCompressed = 140,
  kBlobCompressed = 141,
  kJson = 245,  // MySQL's binary JSON; MariaDB's JSON is a LONGTEXT (kBlob)
  kNewDecimal = 246,
  kEnum = 247,
  kSet = 248,
  kTinyBlob = 249,
  kMediumBlob = 250,
  kLongBlob = 251,
  kBlob = 252,
  kVarString = 253,
  kString = 254,
  kGeometry = 255,
};

// "VARCHAR", "NEWDECIMAL", ...; "type 123" for a number MySQL does not define.
std::string BinlogColumnTypeName(BinlogColumnType type);

// Collation id 63: the bytes of BINARY, VARBINARY and BLOB columns.
inline constexpr uint32_t kBinaryCollation = 63;

struct BinlogColumn {
  // As the event writes it: kString also for CHAR, BINARY, ENUM and SET.
  BinlogColumnType type = BinlogColumnType::kNull;
  // kEnum / kSet / kString for kString (from its metadata), else `type`.
  BinlogColumnType real_type = BinlogColumnType::kNull;
  // The type's metadata as MySQL's table_def keeps it: FLOAT / DOUBLE the byte size; VARCHAR /
  // VAR_STRING the maximum length in bytes; BLOB / GEOMETRY / JSON the width of the length
  // prefix (1..4); NEWDECIMAL precision << 8 | scale; BIT bytes << 8 | bits (n = 8 * bytes +
  // bits); STRING / ENUM / SET real type << 8 | length (see `length`); TIMESTAMP2 / DATETIME2
  // / TIME2 the fractional digits (0..6); 0 for the others.
  uint16_t meta = 0;
  // kString: the maximum length in bytes (MySQL folds lengths above 255 into the real type's
  // byte); kEnum / kSet: the width of the value in bytes (1..2 / 1..8).
  uint32_t length = 0;
  bool nullable = true;

  // From the optional metadata block; nullopt when the event does not carry them.
  std::optional<std::string> name;
  // Numeric columns.
  std::optional<bool> is_unsigned;
  // Character and binary columns; ENUM and SET columns (the charset of their members).
  std::optional<uint32_t> collation;
  // ENUM / SET members in the column's charset, in order (FULL metadata).
  std::optional<std::vector<std::string>> members;
  // GEOMETRY columns: 0 GEOMETRY, 1 POINT, 2 LINESTRING, 3 POLYGON, 4 MULTIPOINT, ...
  std::optional<uint32_t> geometry_type;
  // MySQL 8.0.23+ invisible columns.
  std::optional<bool> visible;
};

struct BinlogTableMap {
  uint64_t table_id = 0;
  uint16_t flags = 0;
  std::string database;
  std::string table;
  std::vector<BinlogColumn> columns;
  // Primary key column indexes in key order (SIMPLE_PRIMARY_KEY / PRIMARY_KEY_WITH_PREFIX);
  // empty when the event does not say or the table has none.
  std::vector<uint32_t> primary_key;
  // NotSupported when a column has a binlog type Sluice does not know: the event still names
  // the table (a sync that does not read it goes on), its rows cannot be decoded.
  Status rows_status;
};

// The server that wrote a binlog. Their optional metadata differs in which columns its lists
// cover: MariaDB counts YEAR among the numeric columns (its YEAR is an unsigned TINYINT) and
// GEOMETRY among the character ones (a BLOB of charset binary); MySQL counts neither.
enum class BinlogFlavor : uint8_t { kMariaDb, kMySql };

// Parses a TABLE_MAP event's post-header and body (`data`: the bytes after the common header,
// without a checksum). `table_id_width` is 6 (or 4 for binlogs whose format description gives
// this event a post-header of 6 bytes). `context` names the event in errors ("TABLE_MAP_EVENT
// at log_pos 2538"); a malformed event is Corruption naming the field.
Result<BinlogTableMap> ParseBinlogTableMap(std::string_view data, size_t table_id_width,
                                           BinlogFlavor flavor, std::string_view context);

}  // namespace sluice
