// PostgresJdbcConnection: a JDBC catalog's connection to a PostgreSQL server through libpq, for
// `jdbc:postgresql://HOST[:PORT]/DATABASE`. The pgjdbc properties that have a libpq equivalent
// are honoured, from the uri's query or the catalog's `jdbc.*` options: user, password,
// sslmode, sslrootcert, sslcert, sslkey, connectTimeout (seconds), ApplicationName and
// currentSchema (the search path); the others configure only Java's driver and are ignored.
//
// Thread safety: as JdbcConnection (one thread at a time).
#pragma once

#include <map>
#include <memory>
#include <string>

#include "sluice/catalog/jdbc/jdbc_connection.h"
#include "sluice/catalog/jdbc/jdbc_uri.h"

struct pg_conn;

namespace sluice {

class PostgresJdbcConnection : public JdbcConnection {
 public:
  // IOError naming the masked uri and libpq's reason when the server refuses or is not there.
  static Result<std::unique_ptr<JdbcConnection>> Open(
      const JdbcUri& uri, const std::map<std::string, std::string>& properties);
  ~PostgresJdbcConnection() override;

  Result<int64_t> Execute(std::string_view sql, const std::vector<std::string>& params) override;
  Result<std::vector<JdbcRow>> Query(std::string_view sql,
                                     const std::vector<std::string>& params) override;
  Status Begin() override;
  Status Commit() override;
  Status Rollback() override;
  bool IsValid() override;
  Status Ping() override;

 private:
  PostgresJdbcConnection(pg_conn* conn, std::string masked_uri)
      : conn_(conn), masked_uri_(std::move(masked_uri)) {}
  // Runs `sql`; appends its rows to `rows` when not null; returns the rows it changed.
  Result<int64_t> Run(std::string_view sql, const std::vector<std::string>& params,
                      std::vector<JdbcRow>* rows);

  pg_conn* conn_;
  std::string masked_uri_;
};

}  // namespace sluice
