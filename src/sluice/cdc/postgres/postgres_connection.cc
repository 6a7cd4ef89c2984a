#include "sluice/cdc/postgres/postgres_connection.h"

#include <libpq-fe.h>
#include <sys/select.h>

namespace sluice {

namespace {

std::string Cut(std::string_view sql) {
  constexpr size_t kShown = 160;
  std::string text(sql.substr(0, kShown));
  if (sql.size() > kShown) text += "...";
  return text;
}

}  // namespace

Result<std::unique_ptr<PostgresConnection>> PostgresConnection::Connect(
    const PostgresConnectOptions& options, bool replication) {
  const std::string address =
      options.host + ":" + std::to_string(options.port) + "/" + options.database;
  const std::string port = std::to_string(options.port);
  const std::string timeout = std::to_string(options.connect_timeout.count());
  std::vector<const char*> keys = {"host",    "port",
                                   "user",    "password",
                                   "dbname",  "connect_timeout",
                                   "options", "application_name"};
  std::vector<const char*> values = {
      options.host.c_str(),
      port.c_str(),
      options.user.c_str(),
      options.password.c_str(),
      options.database.c_str(),
      timeout.c_str(),
      "-c TimeZone=UTC -c DateStyle=ISO -c extra_float_digits=3 -c IntervalStyle=iso_8601",
      "sluice"};
  if (replication) {
    keys.push_back("replication");
    values.push_back("database");
  }
  keys.push_back(nullptr);
  values.push_back(nullptr);
  PGconn* conn = PQconnectdbParams(keys.data(), values.data(), /*expand_dbname=*/0);
  if (conn == nullptr) return Status::IOError("postgres " + address + ": out of memory");
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string message = PQerrorMessage(conn);
    while (!message.empty() && message.back() == '\n') message.pop_back();
    PQfinish(conn);
    return Status::IOError("postgres " + address + ": cannot connect as user '" + options.user +
                           "': " + message);
  }
  return std::unique_ptr<PostgresConnection>(new PostgresConnection(conn, address));
}

PostgresConnection::~PostgresConnection() { PQfinish(conn_); }

Status PostgresConnection::Error(std::string_view what) const {
  std::string message = PQerrorMessage(conn_);
  while (!message.empty() && message.back() == '\n') message.pop_back();
  return Status::IOError("postgres " + address_ + ": " + std::string(what) + ": " + message);
}

Result<std::vector<PostgresRow>> PostgresConnection::Query(std::string_view sql) {
  const std::string text(sql);
  PGresult* result = PQexec(conn_, text.c_str());
  const ExecStatusType status = PQresultStatus(result);
  if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) {
    std::string message = PQresultErrorMessage(result);
    while (!message.empty() && message.back() == '\n') message.pop_back();
    PQclear(result);
    return Status::IOError("postgres " + address_ + ": " + Cut(sql) + ": " + message);
  }
  std::vector<PostgresRow> rows;
  const int n = PQntuples(result);
  const int columns = PQnfields(result);
  rows.reserve(n);
  for (int r = 0; r < n; ++r) {
    PostgresRow& row = rows.emplace_back(columns);
    for (int c = 0; c < columns; ++c) {
      if (!PQgetisnull(result, r, c))
        row[c].emplace(PQgetvalue(result, r, c), PQgetlength(result, r, c));
    }
  }
  PQclear(result);
  return rows;
}

Status PostgresConnection::StartReplication(std::string_view command) {
  const std::string text(command);
  PGresult* result = PQexec(conn_, text.c_str());
  const ExecStatusType status = PQresultStatus(result);
  std::string message = PQresultErrorMessage(result);
  PQclear(result);
  if (status != PGRES_COPY_BOTH) {
    while (!message.empty() && message.back() == '\n') message.pop_back();
    return Status::IOError("postgres " + address_ + ": " + Cut(command) + ": " + message);
  }
  return Status::OK();
}

Result<std::optional<std::string>> PostgresConnection::ReadReplication(
    std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    char* buffer = nullptr;
    const int length = PQgetCopyData(conn_, &buffer, /*async=*/1);
    if (length > 0) {
      std::string message(buffer, static_cast<size_t>(length));
      PQfreemem(buffer);
      return std::optional<std::string>(std::move(message));
    }
    if (length == -1) return Error("the replication stream ended");
    if (length == -2) return Error("reading the replication stream");
    const auto left = deadline - std::chrono::steady_clock::now();
    if (left <= std::chrono::steady_clock::duration::zero()) return std::optional<std::string>();
    // Nothing buffered: wait for the socket, then let libpq read what arrived.
    const int socket = PQsocket(conn_);
    fd_set readable;
    FD_ZERO(&readable);
    FD_SET(socket, &readable);
    const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(left).count();
    timeval wait{static_cast<time_t>(micros / 1000000), static_cast<suseconds_t>(micros % 1000000)};
    if (select(socket + 1, &readable, nullptr, nullptr, &wait) < 0) {
      return Status::IOError("postgres " + address_ + ": waiting for the replication stream");
    }
    if (PQconsumeInput(conn_) == 0) return Error("reading the replication stream");
  }
}

Status PostgresConnection::WriteReplication(std::string_view message) {
  if (PQputCopyData(conn_, message.data(), static_cast<int>(message.size())) != 1 ||
      PQflush(conn_) != 0) {
    return Error("writing to the replication stream");
  }
  return Status::OK();
}

std::string PostgresConnection::QuoteLiteral(std::string_view text) const {
  char* quoted = PQescapeLiteral(conn_, text.data(), text.size());
  std::string out = quoted != nullptr ? quoted : "''";
  PQfreemem(quoted);
  return out;
}

std::string PostgresConnection::QuoteIdentifier(std::string_view text) const {
  char* quoted = PQescapeIdentifier(conn_, text.data(), text.size());
  std::string out = quoted != nullptr ? quoted : "\"\"";
  PQfreemem(quoted);
  return out;
}

}  // namespace sluice
