// MySqlTable: a source table of the binlog source as the server defines it now
// (information_schema: columns in order with their DDL types, nullability, character sets, the
// primary key), with the Paimon types Java's MySqlTypeUtils gives them (mysql_type_utils.h)
// and the CdcSchema the table's records carry.
//
// Values reach the runtime as text that CastFromCdcValueString reads into the column's Paimon
// type; MySqlTable says how a column's server text (the snapshot's text protocol) and binlog
// text become that: TINYINT(1) as BOOLEAN takes any non-zero value as true (as JDBC's
// tinyInt1isBit does), zero dates are NULL (as Debezium's), BIT(1) is "1"/"0" and BIT(n) base64
// (Paimon BINARY), SET a JSON array, TIMESTAMP the wall clock in the server time zone (the
// snapshot selects its epoch seconds, UNIX_TIMESTAMP, so that no session zone is involved),
// geometries Java's JSON of them (geometry_json.h).
//
// Thread safety: a value type.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sluice/cdc/cdc_record.h"
#include "sluice/cdc/mysql/mysql_connection.h"
#include "sluice/cdc/mysql_type_utils.h"
#include "sluice/cdc/type_mapping.h"
#include "sluice/result.h"

namespace sluice {

class TimeZone;

struct MySqlColumn {
  std::string name;
  MySqlType type;  // COLUMN_TYPE parsed: "INT UNSIGNED", length, scale, members
  // CHARACTER_SET_NAME: empty for columns without one (numbers, dates, binary strings).
  std::string charset;
  bool nullable = true;
  DataTypePtr data_type;

  bool is_unsigned() const;
  // A binary string (BINARY, VARBINARY, BLOB kinds): bytes as they are.
  bool is_binary() const;
  bool is_timestamp() const;
};

struct MySqlTable {
  std::string database;
  std::string name;
  std::vector<MySqlColumn> columns;
  std::vector<std::string> primary_keys;
  // The columns and keys the table's records carry; one object shared by them all.
  std::shared_ptr<const CdcSchema> schema;

  // "db.table".
  std::string Identifier() const { return database + "." + name; }
  // The snapshot's SELECT of the whole table, columns in order (TIMESTAMP columns as
  // UNIX_TIMESTAMP, see above).
  std::string SnapshotQuery() const;
  // Column `i`'s snapshot text (from SnapshotQuery) as its record value.
  Result<std::optional<std::string>> SnapshotValue(size_t i, std::optional<std::string> text,
                                                   const TimeZone& zone) const;
  // Column `i`'s text as the binlog decoder gives it, as its record value.
  std::optional<std::string> BinlogValue(size_t i, std::optional<std::string> text) const;
};

// The base tables whose database matches `database_pattern` and whose name matches
// `table_pattern` (whole-name regexes), sorted by database and name, system schemas excluded.
Result<std::vector<std::pair<std::string, std::string>>> ListMySqlTables(
    MySqlConnection& connection, const std::string& database_pattern,
    const std::string& table_pattern);

// Reads table `database`.`table`. NotFound when it does not exist; NotSupported naming a column
// whose type the mapping has no Paimon type for (spatial types).
Result<MySqlTable> ReadMySqlTable(MySqlConnection& connection, const std::string& database,
                                  const std::string& table, const TypeMapping& type_mapping);

}  // namespace sluice
