// JdbcConnection: one connection to the database behind a JDBC catalog (what Java's JdbcCatalog
// reaches through java.sql.Connection): statements with `?` placeholders bound to text values
// (Java binds every catalog value with setString), and transactions. One implementation per
// protocol of the `uri` (jdbc_uri.h): SQLite, PostgreSQL, MariaDB / MySQL.
//
// Errors name the uri (its password masked) and the statement. A statement refused because it
// would duplicate a primary key is AlreadyExists, so that callers can tell a lost race (a table
// created, a lock taken by another) from a failure; other database errors are IOError.
//
// Thread safety: not thread-safe; one thread at a time (the pool, jdbc_client_pool.h, hands a
// connection to one caller).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/result.h"

namespace sluice {

// A result row: one value per column, nullopt for SQL NULL, every value as text.
using JdbcRow = std::vector<std::optional<std::string>>;

class JdbcConnection {
 public:
  virtual ~JdbcConnection() = default;

  // Runs a statement that returns no rows; returns the rows it changed (for UPDATE, the rows it
  // matched, as JDBC's executeUpdate counts them).
  virtual Result<int64_t> Execute(std::string_view sql, const std::vector<std::string>& params) = 0;
  // Runs a query; returns its rows.
  virtual Result<std::vector<JdbcRow>> Query(std::string_view sql,
                                             const std::vector<std::string>& params) = 0;

  // A transaction: Begin, then Commit or Rollback. Statements outside one commit on their own.
  virtual Status Begin() = 0;
  virtual Status Commit() = 0;
  virtual Status Rollback() = 0;

  // Whether the connection is known to be broken (an error of its link was seen); the pool
  // drops one that is.
  virtual bool IsValid() = 0;
  // A round trip to the server: an error when it no longer answers on this connection (a
  // restart, an idle timeout such as MariaDB's wait_timeout).
  virtual Status Ping() = 0;
};

}  // namespace sluice
