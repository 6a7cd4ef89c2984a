// JdbcUri: the `uri` option of a JDBC catalog, a JDBC URL as Java's drivers take it:
//
//   jdbc:sqlite:PATH[?k=v&...]                         (sqlite-jdbc: a file, `file:` URI or
//                                                       `:memory:`)
//   jdbc:postgresql://HOST[:PORT]/DATABASE[?k=v&...]   (pgjdbc; port 5432)
//   jdbc:mysql://HOST[:PORT]/DATABASE[?k=v&...]        (MySQL / MariaDB; port 3306)
//   jdbc:mariadb://HOST[:PORT]/DATABASE[?k=v&...]
//
// The protocol is the word after `jdbc:` (Java JdbcClientPool's protocol, which also picks the
// lock dialect). Query parameters are driver properties, as the catalog's `jdbc.*` options are
// (user, password, ...); values are percent-decoded.
//
// Thread safety: a value type.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "sluice/result.h"

namespace sluice {

enum class JdbcProtocol : unsigned char { kSqlite, kPostgresql, kMysql, kMariadb };

struct JdbcUri {
  JdbcProtocol protocol = JdbcProtocol::kSqlite;
  // As written in the uri: "sqlite", "postgresql", "mysql" or "mariadb".
  std::string protocol_name;
  // SQLite: the database (everything after `jdbc:sqlite:`).
  std::string path;
  // Servers: where and which database.
  std::string host;
  int32_t port = 0;
  std::string database;
  // The query parameters.
  std::map<std::string, std::string> properties;
  // The uri with credentials masked (secret_mask.h), for errors.
  std::string masked;

  // InvalidArgument naming the (masked) uri when it is not one of the forms above, and
  // NotSupported naming the protocol for another database.
  static Result<JdbcUri> Parse(std::string_view uri);
};

}  // namespace sluice
