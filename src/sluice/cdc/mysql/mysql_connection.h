// MySqlConnection: one client connection to a MySQL / MariaDB server through MariaDB
// Connector/C (Debian's libmariadb-dev), in the text protocol: what the binlog source needs to
// read table definitions, copy tables in a consistent snapshot and ask where the binlog is.
//
// Errors are IOError naming the server (host:port), the statement (cut) and the server's
// message; the password never appears.
//
// Thread safety: one thread at a time; Interrupt may be called from another thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/result.h"

struct st_mysql;
struct st_mysql_res;

namespace sluice {

struct MySqlConnectOptions {
  std::string host = "127.0.0.1";
  int32_t port = 3306;
  std::string user;
  std::string password;
  std::chrono::seconds connect_timeout{30};
};

// One row of a result: each value's text in the server's text protocol, nullopt for NULL.
using MySqlRow = std::vector<std::optional<std::string>>;

class MySqlRowStream;

class MySqlConnection {
 public:
  static Result<std::unique_ptr<MySqlConnection>> Connect(const MySqlConnectOptions& options);
  ~MySqlConnection();
  MySqlConnection(const MySqlConnection&) = delete;
  MySqlConnection& operator=(const MySqlConnection&) = delete;

  // Runs a statement that returns no rows (or whose rows are not wanted).
  Status Execute(std::string_view sql);
  // Runs a query and returns all of its rows.
  Result<std::vector<MySqlRow>> Query(std::string_view sql);

  // Runs a query whose rows are read as they arrive (a table's copy need not fit in memory).
  // The connection serves nothing else until the stream is read to its end or destroyed.
  Result<std::unique_ptr<MySqlRowStream>> Stream(std::string_view sql);

  // `text` as a quoted SQL string literal, escaped for this connection's character set.
  std::string QuoteString(std::string_view text) const;

  // Shuts the connection's socket down, so that a read blocked on another thread returns an
  // error; the connection is unusable afterwards.
  void Interrupt();

  // The raw handle, for the replication protocol (binlog_stream.h).
  st_mysql* handle() { return mysql_; }
  // "host:port", for errors and logs.
  const std::string& address() const { return address_; }
  // An IOError naming the server, `what` and the connection's last error.
  Status LastError(std::string_view what) const;

 private:
  MySqlConnection(st_mysql* mysql, std::string address) : mysql_(mysql), address_(address) {}

  st_mysql* mysql_;
  std::string address_;
};

class MySqlRowStream {
 public:
  ~MySqlRowStream();
  // The next row into `row`; false at the end. IOError naming the server and the query when
  // the connection fails midway.
  Result<bool> Next(MySqlRow* row);

 private:
  friend class MySqlConnection;
  MySqlRowStream(MySqlConnection* connection, st_mysql_res* result, std::string query)
      : connection_(connection), result_(result), query_(std::move(query)) {}

  MySqlConnection* connection_;
  st_mysql_res* result_;
  std::string query_;
};

// `name` quoted as a MySQL identifier (`a``b`).
std::string QuoteMySqlIdentifier(std::string_view name);

}  // namespace sluice
