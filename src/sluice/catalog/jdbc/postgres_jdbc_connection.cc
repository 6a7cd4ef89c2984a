#include "sluice/catalog/jdbc/postgres_jdbc_connection.h"

#include <libpq-fe.h>

#include <cstdlib>
#include <utility>

#include "sluice/catalog/jdbc/placeholders.h"
#include "sluice/secret_mask.h"

namespace sluice {

namespace {

// pgjdbc property -> libpq keyword, for those with the same meaning.
constexpr std::pair<std::string_view, std::string_view> kProperties[] = {
    {"user", "user"},
    {"password", "password"},
    {"sslmode", "sslmode"},
    {"sslrootcert", "sslrootcert"},
    {"sslcert", "sslcert"},
    {"sslkey", "sslkey"},
    {"connectTimeout", "connect_timeout"},
    {"ApplicationName", "application_name"},
};

constexpr std::string_view kUniqueViolation = "23505";

struct ResultCloser {
  void operator()(PGresult* result) const { PQclear(result); }
};

std::string Trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

}  // namespace

Result<std::unique_ptr<JdbcConnection>> PostgresJdbcConnection::Open(
    const JdbcUri& uri, const std::map<std::string, std::string>& properties) {
  std::vector<std::pair<std::string, std::string>> settings = {
      {"host", uri.host},
      {"port", std::to_string(uri.port)},
      {"dbname", uri.database},
      {"client_encoding", "UTF8"},
  };
  for (const auto& [property, keyword] : kProperties) {
    auto it = properties.find(std::string(property));
    if (it != properties.end()) settings.emplace_back(std::string(keyword), it->second);
  }
  if (auto it = properties.find("currentSchema"); it != properties.end()) {
    settings.emplace_back("options", "-c search_path=" + it->second);
  }
  std::vector<const char*> keys;
  std::vector<const char*> values;
  for (const auto& [key, value] : settings) {
    keys.push_back(key.c_str());
    values.push_back(value.c_str());
  }
  keys.push_back(nullptr);
  values.push_back(nullptr);
  pg_conn* conn = PQconnectdbParams(keys.data(), values.data(), /*expand_dbname=*/0);
  if (conn == nullptr) {
    return Status::IOError("cannot connect to the JDBC catalog database " + uri.masked +
                           ": out of memory");
  }
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string message = MaskSecrets(Trimmed(PQerrorMessage(conn)));
    PQfinish(conn);
    return Status::IOError("cannot connect to the JDBC catalog database " + uri.masked + ": " +
                           message);
  }
  // The server's notices ("relation ... already exists, skipping") are not errors; libpq would
  // print them on stderr.
  PQsetNoticeProcessor(
      conn, [](void*, const char*) {}, nullptr);
  return std::unique_ptr<JdbcConnection>(new PostgresJdbcConnection(conn, uri.masked));
}

PostgresJdbcConnection::~PostgresJdbcConnection() { PQfinish(conn_); }

bool PostgresJdbcConnection::IsValid() { return PQstatus(conn_) == CONNECTION_OK; }

Status PostgresJdbcConnection::Ping() { return Run("SELECT 1", {}, nullptr).status(); }

Result<int64_t> PostgresJdbcConnection::Run(std::string_view sql,
                                            const std::vector<std::string>& params,
                                            std::vector<JdbcRow>* rows) {
  const std::string text = NumberPlaceholders(sql);
  std::vector<const char*> values;
  for (const std::string& p : params) values.push_back(p.c_str());
  std::unique_ptr<PGresult, ResultCloser> result(
      PQexecParams(conn_, text.c_str(), static_cast<int>(values.size()), nullptr, values.data(),
                   nullptr, nullptr, /*resultFormat=*/0));
  const ExecStatusType status = PQresultStatus(result.get());
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    std::string message =
        "JDBC catalog database " + masked_uri_ + ": " +
        Trimmed(result ? PQresultErrorMessage(result.get()) : PQerrorMessage(conn_)) +
        " (in: " + std::string(sql) + ")";
    const char* state = result ? PQresultErrorField(result.get(), PG_DIAG_SQLSTATE) : nullptr;
    if (state != nullptr && state == kUniqueViolation) {
      return Status::AlreadyExists(std::move(message));
    }
    return Status::IOError(std::move(message));
  }
  if (rows != nullptr) {
    const int n = PQntuples(result.get());
    const int columns = PQnfields(result.get());
    for (int r = 0; r < n; ++r) {
      JdbcRow row;
      for (int c = 0; c < columns; ++c) {
        if (PQgetisnull(result.get(), r, c)) {
          row.emplace_back();
        } else {
          row.emplace_back(
              std::string(PQgetvalue(result.get(), r, c), PQgetlength(result.get(), r, c)));
        }
      }
      rows->push_back(std::move(row));
    }
  }
  const char* changed = PQcmdTuples(result.get());
  return changed != nullptr && *changed != '\0' ? std::strtoll(changed, nullptr, 10) : 0;
}

Result<int64_t> PostgresJdbcConnection::Execute(std::string_view sql,
                                                const std::vector<std::string>& params) {
  return Run(sql, params, nullptr);
}

Result<std::vector<JdbcRow>> PostgresJdbcConnection::Query(std::string_view sql,
                                                           const std::vector<std::string>& params) {
  std::vector<JdbcRow> rows;
  SLUICE_RETURN_NOT_OK(Run(sql, params, &rows).status());
  return rows;
}

Status PostgresJdbcConnection::Begin() { return Run("BEGIN", {}, nullptr).status(); }
Status PostgresJdbcConnection::Commit() { return Run("COMMIT", {}, nullptr).status(); }
Status PostgresJdbcConnection::Rollback() { return Run("ROLLBACK", {}, nullptr).status(); }

}  // namespace sluice
