// One column value of a MySQL / MariaDB ROWS event as the text a CDC record carries, which
// CastFromCdcValueString (cdc_value_cast.h) turns into the value of the column's Paimon type
// (MySqlTypeToDataType, mysql_type_utils.h). The texts, by MySQL type:
//
//   integers       decimal digits, unsigned per the column (BIGINT UNSIGNED up to 2^64 - 1)
//   YEAR           1900 + the stored byte, "0" for 0000
//   FLOAT / DOUBLE the shortest text that reads back to the same float / double
//   DECIMAL        exact, with exactly `scale` fraction digits
//   DATE           "YYYY-MM-DD"; DATETIME(p) "YYYY-MM-DD HH:MM:SS[.f]" with p fraction digits
//   TIMESTAMP(p)   the instant as the wall clock of the server's time zone (as Java, which maps
//                  it to Paimon TIMESTAMP), in the DATETIME form
//   zero dates     "0000-00-00" and dates with a zero month or day: NULL (as Debezium)
//   TIME(p)        "[-]HH:MM:SS[.f]", hours up to 838
//   text kinds     the bytes of a UTF-8 charset as they are; latin1 (MySQL's latin1 is
//                  Windows-1252) converted to UTF-8
//   binary kinds   the bytes as they are; BINARY(n) padded with zero bytes to n, as SELECT
//                  returns it (the binlog drops trailing zero bytes)
//   ENUM           the member ("" for the index 0 of an invalid value)
//   SET            a JSON array of the members, in member order: ["a","c"]
//   BIT(1)         "1" / "0"; BIT(n) base64 of its (n + 7) / 8 bytes, big-endian
//   JSON           MySQL's binary JSON as JSON text (MariaDB's JSON is LONGTEXT: text)
//   GEOMETRY       Java's JSON of the value (geometry_json.h)
//   MariaDB compressed columns, pre-5.0 DECIMAL: NotSupported
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/cdc/mysql/binlog_table_map.h"
#include "sluice/cdc/mysql_type_utils.h"
#include "sluice/result.h"
#include "sluice/types/time_zone.h"

namespace sluice {

class BinlogCursor;

// How the bytes of a character column become UTF-8 text. Charsets other than latin1 and
// binary are taken as UTF-8 (utf8mb3, utf8mb4 and ascii are).
enum class BinlogCharset : uint8_t { kUtf8, kLatin1, kBinary };

BinlogCharset BinlogCharsetOfCollation(uint32_t collation);

// What decoding a column's values needs that a TABLE_MAP event without FULL row metadata
// lacks: the caller's knowledge of the column (information_schema.COLUMNS). Where the event
// carries a fact (binlog_row_metadata), the event's wins: it describes the row as written.
struct BinlogColumnFormat {
  bool is_unsigned = false;
  BinlogCharset charset = BinlogCharset::kUtf8;
  // ENUM / SET members in order, UTF-8.
  std::vector<std::string> members;
};

// The format of a column of COLUMN_TYPE `type` (ParseMySqlType of "int(10) unsigned",
// "enum('a','b')") and CHARACTER_SET_NAME `character_set_name` ("" for NULL, which BINARY,
// VARBINARY and the BLOB kinds have).
BinlogColumnFormat BinlogColumnFormatOf(const MySqlType& type, std::string_view character_set_name);

// Reads the value of `column` (not NULL: the row's null bitmap said so) at `in` and sets `out`
// to its text (nullopt for a zero date). `format` (may be null) supplies what the table map
// lacks; `server_zone` (null: UTC) shows TIMESTAMP values. Corruption for bytes that are short
// or out of range, NotSupported for the types above, InvalidArgument for ENUM / SET members
// that neither the event nor `format` gives. The message names the value, not the column.
Status ReadBinlogValue(BinlogCursor* in, const BinlogColumn& column,
                       const BinlogColumnFormat* format, const TimeZone* server_zone,
                       std::optional<std::string>* out);

}  // namespace sluice
