// MySQL column types as Paimon types (Java MySqlTypeUtils): canal-json names each column's MySQL
// type (`"mysqlType": {"v": "decimal(10,2) unsigned"}`), and the MySQL binlog source reads the
// same names from the table's DDL.
//
// The mapping (TypeMapping options in brackets):
//   BIT(1), BOOL, BOOLEAN, TINYINT(1) [unless tinyint1-not-bool] -> BOOLEAN; BIT(n) -> BINARY
//   of (n + 7) / 8 bytes; TINYINT -> TINYINT; unsigned integers widen one step (TINYINT UNSIGNED
//   -> SMALLINT, ..., INT UNSIGNED -> BIGINT) and BIGINT UNSIGNED / SERIAL -> DECIMAL(20, 0)
//   [BIGINT with bigint-unsigned-to-bigint]; YEAR -> INT; FLOAT -> FLOAT; REAL / DOUBLE -> DOUBLE;
//   DECIMAL / NUMERIC / FIXED(p, s) -> DECIMAL(p, s), STRING beyond precision 38 (no precision:
//   DECIMAL(38, 18)); DATE -> DATE; TIME -> TIME; DATETIME / TIMESTAMP(p) -> TIMESTAMP(p) (not
//   LTZ, as Java); CHAR(n) / VARCHAR(n) -> CHAR(n) / VARCHAR(n) [STRING with char-to-string];
//   TEXT kinds, JSON, ENUM and the spatial types -> STRING; LONGTEXT -> STRING [BYTES with
//   longtext-to-bytes]; BINARY / VARBINARY(n) -> VARBINARY(n); BLOB kinds -> BYTES; SET ->
//   ARRAY<STRING>. With to-string every type is STRING. decimal-no-change acts on schema
//   evolution, not here.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/cdc/type_mapping.h"
#include "sluice/data_type.h"
#include "sluice/result.h"

namespace sluice {

// A MySQL column type as written in DDL or by canal: "int(11) unsigned zerofill",
// "decimal(10,2)", "enum('a','b')".
struct MySqlType {
  // Upper case, the bracketed part removed, spaces collapsed: "INT UNSIGNED ZEROFILL".
  std::string name;
  // The bracketed numbers; 0 when absent (DECIMAL without them: 38 and 18, as Java).
  int32_t length = 0;
  int32_t scale = 0;
  // ENUM / SET: the members in order, unquoted.
  std::vector<std::string> members;
};

// Corruption naming `text` when the brackets or numbers are malformed.
Result<MySqlType> ParseMySqlType(std::string_view text);

// The Paimon type of MySQL type `name` (as MySqlType::name) with `length` / `scale` (nullopt when
// the source gives none). NotSupported naming an unknown type; InvalidArgument for a length the
// Paimon type cannot have.
Result<DataTypePtr> MySqlTypeToDataType(std::string_view name, std::optional<int32_t> length,
                                        std::optional<int32_t> scale,
                                        const TypeMapping& type_mapping);

inline Result<DataTypePtr> MySqlTypeToDataType(const MySqlType& type,
                                               const TypeMapping& type_mapping) {
  return MySqlTypeToDataType(type.name, type.length, type.scale, type_mapping);
}

bool IsMySqlEnumType(std::string_view name);
bool IsMySqlSetType(std::string_view name);
bool IsMySqlSpatialType(std::string_view name);

}  // namespace sluice
