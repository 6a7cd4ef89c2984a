#include "sluice/catalog/jdbc/sqlite_jdbc_connection.h"

#include <sqlite3.h>

#include <utility>

#include "sluice/meta/option_value.h"

namespace sluice {

namespace {

constexpr int kDefaultBusyTimeoutMs = 3000;  // sqlite-jdbc's

// Finalizes a prepared statement when it goes out of scope.
struct StatementCloser {
  void operator()(sqlite3_stmt* stmt) const { sqlite3_finalize(stmt); }
};

}  // namespace

Result<std::unique_ptr<JdbcConnection>> SqliteJdbcConnection::Open(
    const JdbcUri& uri, const std::map<std::string, std::string>& properties) {
  int busy_timeout_ms = kDefaultBusyTimeoutMs;
  if (auto it = properties.find("busy_timeout"); it != properties.end()) {
    SLUICE_ASSIGN_OR_RETURN(busy_timeout_ms, ParseIntOption("jdbc.busy_timeout", it->second));
  }
  sqlite3* db = nullptr;
  const int flags =
      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX;
  const int rc = sqlite3_open_v2(uri.path.c_str(), &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close(db);
    return Status::IOError("cannot open the JDBC catalog database " + uri.masked + ": " + message);
  }
  sqlite3_extended_result_codes(db, 1);
  sqlite3_busy_timeout(db, busy_timeout_ms);
  return std::unique_ptr<JdbcConnection>(new SqliteJdbcConnection(db, uri.masked));
}

SqliteJdbcConnection::~SqliteJdbcConnection() { sqlite3_close_v2(db_); }

Status SqliteJdbcConnection::Error(int code, std::string_view sql) const {
  std::string message = "JDBC catalog database " + masked_uri_ + ": " + sqlite3_errmsg(db_) +
                        " (in: " + std::string(sql) + ")";
  if (code == SQLITE_CONSTRAINT_PRIMARYKEY || code == SQLITE_CONSTRAINT_UNIQUE) {
    return Status::AlreadyExists(std::move(message));
  }
  return Status::IOError(std::move(message));
}

Status SqliteJdbcConnection::Run(std::string_view sql, const std::vector<std::string>& params,
                                 std::vector<JdbcRow>* rows) {
  sqlite3_stmt* raw = nullptr;
  int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &raw, nullptr);
  std::unique_ptr<sqlite3_stmt, StatementCloser> stmt(raw);
  if (rc != SQLITE_OK) return Error(sqlite3_extended_errcode(db_), sql);
  if (sqlite3_bind_parameter_count(raw) != static_cast<int>(params.size())) {
    return Status::Internal("statement has " + std::to_string(sqlite3_bind_parameter_count(raw)) +
                            " parameters, " + std::to_string(params.size()) +
                            " given: " + std::string(sql));
  }
  for (size_t i = 0; i < params.size(); ++i) {
    rc = sqlite3_bind_text(raw, static_cast<int>(i + 1), params[i].data(),
                           static_cast<int>(params[i].size()), SQLITE_TRANSIENT);
    if (rc != SQLITE_OK) return Error(rc, sql);
  }
  while ((rc = sqlite3_step(raw)) == SQLITE_ROW) {
    if (rows == nullptr) continue;
    JdbcRow row;
    const int columns = sqlite3_column_count(raw);
    for (int c = 0; c < columns; ++c) {
      if (sqlite3_column_type(raw, c) == SQLITE_NULL) {
        row.emplace_back();
      } else {
        const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(raw, c));
        row.emplace_back(std::string(text, sqlite3_column_bytes(raw, c)));
      }
    }
    rows->push_back(std::move(row));
  }
  if (rc != SQLITE_DONE) return Error(sqlite3_extended_errcode(db_), sql);
  return Status::OK();
}

Result<int64_t> SqliteJdbcConnection::Execute(std::string_view sql,
                                              const std::vector<std::string>& params) {
  SLUICE_RETURN_NOT_OK(Run(sql, params, nullptr));
  return static_cast<int64_t>(sqlite3_changes(db_));
}

Result<std::vector<JdbcRow>> SqliteJdbcConnection::Query(std::string_view sql,
                                                         const std::vector<std::string>& params) {
  std::vector<JdbcRow> rows;
  SLUICE_RETURN_NOT_OK(Run(sql, params, &rows));
  return rows;
}

Status SqliteJdbcConnection::Begin() { return Run("BEGIN IMMEDIATE", {}, nullptr); }
Status SqliteJdbcConnection::Commit() { return Run("COMMIT", {}, nullptr); }
Status SqliteJdbcConnection::Rollback() { return Run("ROLLBACK", {}, nullptr); }

}  // namespace sluice
