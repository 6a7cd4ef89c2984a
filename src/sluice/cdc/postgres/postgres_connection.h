// PostgresConnection: one libpq connection (Debian's libpq-dev) to a PostgreSQL server, plain or
// in the replication protocol (logical replication: CREATE_REPLICATION_SLOT, START_REPLICATION
// and the copy-both stream that follows). Sessions run with TimeZone UTC, DateStyle ISO and
// extra_float_digits 3, so that values print the same in a snapshot's SELECT and in pgoutput's
// text (the walsender prints them with its session's settings).
//
// Errors are IOError naming the server (host:port/database), the statement (cut) and the
// server's message; the password never appears.
//
// Thread safety: one thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/result.h"

struct pg_conn;

namespace sluice {

struct PostgresConnectOptions {
  std::string host = "127.0.0.1";
  int32_t port = 5432;
  std::string user;
  std::string password;
  std::string database;
  std::chrono::seconds connect_timeout{30};
};

// One row of a result: each value's text, nullopt for NULL.
using PostgresRow = std::vector<std::optional<std::string>>;

class PostgresConnection {
 public:
  // `replication`: a walsender connection (replication=database) for the replication commands.
  static Result<std::unique_ptr<PostgresConnection>> Connect(const PostgresConnectOptions& options,
                                                             bool replication = false);
  ~PostgresConnection();
  PostgresConnection(const PostgresConnection&) = delete;
  PostgresConnection& operator=(const PostgresConnection&) = delete;

  // Runs a statement (or a replication command) and returns its rows (none for a command).
  Result<std::vector<PostgresRow>> Query(std::string_view sql);
  Status Execute(std::string_view sql) { return Query(sql).status(); }

  // Starts the copy-both stream of START_REPLICATION `command`.
  Status StartReplication(std::string_view command);
  // The next message of the stream, waiting at most `timeout`; nullopt when none arrived in
  // time. IOError when the stream or the connection ends.
  Result<std::optional<std::string>> ReadReplication(std::chrono::milliseconds timeout);
  // Sends a message on the stream (a standby status update).
  Status WriteReplication(std::string_view message);

  // `text` as a quoted SQL literal / identifier, escaped for this connection.
  std::string QuoteLiteral(std::string_view text) const;
  std::string QuoteIdentifier(std::string_view text) const;

  // "host:port/database", for errors and logs.
  const std::string& address() const { return address_; }

 private:
  PostgresConnection(pg_conn* conn, std::string address) : conn_(conn), address_(address) {}
  Status Error(std::string_view what) const;

  pg_conn* conn_;
  std::string address_;
};

}  // namespace sluice
