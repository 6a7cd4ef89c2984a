#include "sluice/catalog/jdbc/mariadb_jdbc_connection.h"

#include <errmsg.h>
#include <mysql.h>
#include <mysqld_error.h>

#include <utility>

#include "sluice/catalog/jdbc/placeholders.h"
#include "sluice/meta/option_value.h"
#include "sluice/secret_mask.h"

namespace sluice {

namespace {

struct ResultCloser {
  void operator()(MYSQL_RES* result) const { mysql_free_result(result); }
};

}  // namespace

Result<std::unique_ptr<JdbcConnection>> MariaDbJdbcConnection::Open(
    const JdbcUri& uri, const std::map<std::string, std::string>& properties) {
  auto property = [&](const char* key) -> const std::string* {
    auto it = properties.find(key);
    return it == properties.end() ? nullptr : &it->second;
  };
  unsigned int timeout_s = 30;
  if (const std::string* ms = property("connectTimeout")) {
    SLUICE_ASSIGN_OR_RETURN(int32_t millis, ParseIntOption("jdbc.connectTimeout", *ms));
    timeout_s = millis <= 0 ? 0 : static_cast<unsigned int>((millis + 999) / 1000);
  }
  MYSQL* mysql = mysql_init(nullptr);
  if (mysql == nullptr) {
    return Status::IOError("cannot connect to the JDBC catalog database " + uri.masked +
                           ": out of memory");
  }
  unsigned int protocol = MYSQL_PROTOCOL_TCP;
  mysql_optionsv(mysql, MYSQL_OPT_PROTOCOL, &protocol);
  mysql_optionsv(mysql, MYSQL_OPT_CONNECT_TIMEOUT, &timeout_s);
  mysql_optionsv(mysql, MYSQL_SET_CHARSET_NAME, "utf8mb4");
  const std::string* user = property("user");
  const std::string* password = property("password");
  if (mysql_real_connect(mysql, uri.host.c_str(), user ? user->c_str() : nullptr,
                         password ? password->c_str() : nullptr,
                         uri.database.empty() ? nullptr : uri.database.c_str(),
                         static_cast<unsigned int>(uri.port), nullptr,
                         CLIENT_FOUND_ROWS) == nullptr) {
    std::string message = MaskSecrets(mysql_error(mysql));
    mysql_close(mysql);
    return Status::IOError("cannot connect to the JDBC catalog database " + uri.masked + ": " +
                           message);
  }
  return std::unique_ptr<JdbcConnection>(new MariaDbJdbcConnection(mysql, uri.masked));
}

MariaDbJdbcConnection::~MariaDbJdbcConnection() { mysql_close(mysql_); }

Status MariaDbJdbcConnection::Error(std::string_view sql) {
  const unsigned int code = mysql_errno(mysql_);
  std::string message = "JDBC catalog database " + masked_uri_ + ": " + mysql_error(mysql_) +
                        " (in: " + std::string(sql) + ")";
  if (code == CR_SERVER_GONE_ERROR || code == CR_SERVER_LOST) broken_ = true;
  if (code == ER_DUP_ENTRY) return Status::AlreadyExists(std::move(message));
  return Status::IOError(std::move(message));
}

Result<int64_t> MariaDbJdbcConnection::Run(std::string_view sql,
                                           const std::vector<std::string>& params,
                                           std::vector<JdbcRow>* rows) {
  size_t placeholders = 0;
  const std::string text = ReplacePlaceholders(
      sql,
      [&](size_t index) {
        if (index >= params.size()) return std::string("NULL");  // refused below
        const std::string& value = params[index];
        std::string escaped(value.size() * 2 + 1, '\0');
        escaped.resize(mysql_real_escape_string(mysql_, escaped.data(), value.data(),
                                                static_cast<unsigned long>(value.size())));
        return "'" + escaped + "'";
      },
      &placeholders);
  if (placeholders != params.size()) {
    return Status::Internal("statement has " + std::to_string(placeholders) + " parameters, " +
                            std::to_string(params.size()) + " given: " + std::string(sql));
  }
  if (mysql_real_query(mysql_, text.data(), static_cast<unsigned long>(text.size())) != 0) {
    return Error(sql);
  }
  std::unique_ptr<MYSQL_RES, ResultCloser> result(mysql_store_result(mysql_));
  if (result == nullptr) {
    if (mysql_field_count(mysql_) != 0) return Error(sql);
    return static_cast<int64_t>(mysql_affected_rows(mysql_));
  }
  const unsigned int columns = mysql_num_fields(result.get());
  while (MYSQL_ROW row = mysql_fetch_row(result.get())) {
    if (rows == nullptr) continue;
    const unsigned long* lengths = mysql_fetch_lengths(result.get());
    JdbcRow out;
    for (unsigned int c = 0; c < columns; ++c) {
      if (row[c] == nullptr) {
        out.emplace_back();
      } else {
        out.emplace_back(std::string(row[c], lengths[c]));
      }
    }
    rows->push_back(std::move(out));
  }
  return static_cast<int64_t>(0);
}

Status MariaDbJdbcConnection::Ping() {
  if (mysql_ping(mysql_) != 0) return Error("ping");
  return Status::OK();
}

Result<int64_t> MariaDbJdbcConnection::Execute(std::string_view sql,
                                               const std::vector<std::string>& params) {
  return Run(sql, params, nullptr);
}

Result<std::vector<JdbcRow>> MariaDbJdbcConnection::Query(std::string_view sql,
                                                          const std::vector<std::string>& params) {
  std::vector<JdbcRow> rows;
  SLUICE_RETURN_NOT_OK(Run(sql, params, &rows).status());
  return rows;
}

Status MariaDbJdbcConnection::Begin() { return Run("START TRANSACTION", {}, nullptr).status(); }
Status MariaDbJdbcConnection::Commit() { return Run("COMMIT", {}, nullptr).status(); }
Status MariaDbJdbcConnection::Rollback() { return Run("ROLLBACK", {}, nullptr).status(); }

}  // namespace sluice
