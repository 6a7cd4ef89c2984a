// MariaDbJdbcConnection: a JDBC catalog's connection to a MariaDB or MySQL server through
// MariaDB Connector/C, for `jdbc:mysql://HOST[:PORT]/DATABASE` and `jdbc:mariadb://...`. Always
// TCP, as Java's drivers connect (the C client would take "localhost" for its Unix socket).
// Properties, from the uri's query or the catalog's `jdbc.*` options: user, password and
// connectTimeout (milliseconds, as MariaDB Connector/J reads it); the others configure only
// Java's driver and are ignored.
//
// Parameters are bound on the client: each `?` becomes the value quoted and escaped by
// mysql_real_escape_string for the connection's character set (utf8mb4), which also follows
// the server's NO_BACKSLASH_ESCAPES mode. Affected rows count matched rows (CLIENT_FOUND_ROWS),
// as JDBC's executeUpdate does.
//
// Thread safety: as JdbcConnection (one thread at a time).
#pragma once

#include <map>
#include <memory>
#include <string>

#include "sluice/catalog/jdbc/jdbc_connection.h"
#include "sluice/catalog/jdbc/jdbc_uri.h"

struct st_mysql;

namespace sluice {

class MariaDbJdbcConnection : public JdbcConnection {
 public:
  // IOError naming the masked uri and the client's reason when the server refuses or is not
  // there; InvalidArgument naming a bad `connectTimeout`.
  static Result<std::unique_ptr<JdbcConnection>> Open(
      const JdbcUri& uri, const std::map<std::string, std::string>& properties);
  ~MariaDbJdbcConnection() override;

  Result<int64_t> Execute(std::string_view sql, const std::vector<std::string>& params) override;
  Result<std::vector<JdbcRow>> Query(std::string_view sql,
                                     const std::vector<std::string>& params) override;
  Status Begin() override;
  Status Commit() override;
  Status Rollback() override;
  bool IsValid() override { return !broken_; }
  Status Ping() override;

 private:
  MariaDbJdbcConnection(st_mysql* mysql, std::string masked_uri)
      : mysql_(mysql), masked_uri_(std::move(masked_uri)) {}
  Result<int64_t> Run(std::string_view sql, const std::vector<std::string>& params,
                      std::vector<JdbcRow>* rows);
  Status Error(std::string_view sql);

  st_mysql* mysql_;
  std::string masked_uri_;
  bool broken_ = false;
};

}  // namespace sluice
