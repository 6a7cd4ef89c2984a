// SqliteJdbcConnection: a JDBC catalog's connection to a SQLite database file (Debian's
// libsqlite3), for `jdbc:sqlite:PATH` as Java's sqlite-jdbc opens it: the file is created when
// missing, and a writer that finds the file locked by another process (Java's catalog, another
// Sluice) waits up to the driver property `busy_timeout` (milliseconds, default 3000 as in
// sqlite-jdbc) before it fails. Transactions begin IMMEDIATE: they take the write lock at once,
// so that two of them never deadlock upgrading from a read.
//
// Thread safety: as JdbcConnection (one thread at a time).
#pragma once

#include <map>
#include <memory>
#include <string>

#include "sluice/catalog/jdbc/jdbc_connection.h"
#include "sluice/catalog/jdbc/jdbc_uri.h"

struct sqlite3;

namespace sluice {

class SqliteJdbcConnection : public JdbcConnection {
 public:
  // IOError naming the masked uri when the file cannot be opened; InvalidArgument naming a bad
  // `busy_timeout`.
  static Result<std::unique_ptr<JdbcConnection>> Open(
      const JdbcUri& uri, const std::map<std::string, std::string>& properties);
  ~SqliteJdbcConnection() override;

  Result<int64_t> Execute(std::string_view sql, const std::vector<std::string>& params) override;
  Result<std::vector<JdbcRow>> Query(std::string_view sql,
                                     const std::vector<std::string>& params) override;
  Status Begin() override;
  Status Commit() override;
  Status Rollback() override;
  bool IsValid() override { return true; }
  Status Ping() override { return Status::OK(); }  // a file: nothing to lose

 private:
  SqliteJdbcConnection(sqlite3* db, std::string masked_uri)
      : db_(db), masked_uri_(std::move(masked_uri)) {}
  // Runs `sql`; appends its rows to `rows` when not null.
  Status Run(std::string_view sql, const std::vector<std::string>& params,
             std::vector<JdbcRow>* rows);
  Status Error(int code, std::string_view sql) const;

  sqlite3* db_;
  std::string masked_uri_;
};

}  // namespace sluice
