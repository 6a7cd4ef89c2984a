#include "sluice/cdc/mysql/mysql_connection.h"

#include <mysql.h>
#include <sys/socket.h>

namespace sluice {

namespace {

// A statement as errors show it: its first line, cut.
std::string Cut(std::string_view sql) {
  constexpr size_t kShown = 160;
  std::string text(sql.substr(0, kShown));
  if (sql.size() > kShown) text += "...";
  return text;
}

}  // namespace

Result<std::unique_ptr<MySqlConnection>> MySqlConnection::Connect(
    const MySqlConnectOptions& options) {
  const std::string address = options.host + ":" + std::to_string(options.port);
  MYSQL* mysql = mysql_init(nullptr);
  if (mysql == nullptr) return Status::IOError("mysql " + address + ": out of memory");
  unsigned int timeout = static_cast<unsigned int>(options.connect_timeout.count());
  mysql_options(mysql, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
  mysql_options(mysql, MYSQL_SET_CHARSET_NAME, "utf8mb4");
  // The option files of the machine are not the job's configuration.
  if (mysql_real_connect(mysql, options.host.c_str(), options.user.c_str(),
                         options.password.c_str(), nullptr, static_cast<unsigned int>(options.port),
                         nullptr, 0) == nullptr) {
    Status error = Status::IOError("mysql " + address + ": cannot connect as user '" +
                                   options.user + "': " + mysql_error(mysql));
    mysql_close(mysql);
    return error;
  }
  return std::unique_ptr<MySqlConnection>(new MySqlConnection(mysql, address));
}

MySqlConnection::~MySqlConnection() { mysql_close(mysql_); }

Status MySqlConnection::LastError(std::string_view what) const {
  return Status::IOError("mysql " + address_ + ": " + std::string(what) + ": " +
                         mysql_error(mysql_) + " (error " + std::to_string(mysql_errno(mysql_)) +
                         ")");
}

Status MySqlConnection::Execute(std::string_view sql) {
  if (mysql_real_query(mysql_, sql.data(), sql.size()) != 0) return LastError(Cut(sql));
  // Statements that return rows anyway (SHOW ...) must have them read before the next one.
  MYSQL_RES* result = mysql_store_result(mysql_);
  if (result != nullptr) mysql_free_result(result);
  if (result == nullptr && mysql_field_count(mysql_) != 0) return LastError(Cut(sql));
  return Status::OK();
}

Result<std::vector<MySqlRow>> MySqlConnection::Query(std::string_view sql) {
  if (mysql_real_query(mysql_, sql.data(), sql.size()) != 0) return LastError(Cut(sql));
  MYSQL_RES* result = mysql_store_result(mysql_);
  if (result == nullptr) {
    if (mysql_field_count(mysql_) != 0) return LastError(Cut(sql));
    return std::vector<MySqlRow>{};
  }
  const unsigned int columns = mysql_num_fields(result);
  std::vector<MySqlRow> rows;
  rows.reserve(mysql_num_rows(result));
  while (MYSQL_ROW row = mysql_fetch_row(result)) {
    const unsigned long* lengths = mysql_fetch_lengths(result);
    MySqlRow& out = rows.emplace_back(columns);
    for (unsigned int i = 0; i < columns; ++i) {
      if (row[i] != nullptr) out[i].emplace(row[i], lengths[i]);
    }
  }
  mysql_free_result(result);
  return rows;
}

Result<std::unique_ptr<MySqlRowStream>> MySqlConnection::Stream(std::string_view sql) {
  if (mysql_real_query(mysql_, sql.data(), sql.size()) != 0) return LastError(Cut(sql));
  MYSQL_RES* result = mysql_use_result(mysql_);
  if (result == nullptr) return LastError(Cut(sql));
  return std::unique_ptr<MySqlRowStream>(new MySqlRowStream(this, result, Cut(sql)));
}

MySqlRowStream::~MySqlRowStream() { mysql_free_result(result_); }

Result<bool> MySqlRowStream::Next(MySqlRow* row) {
  MYSQL_ROW values = mysql_fetch_row(result_);
  if (values == nullptr) {
    if (mysql_errno(connection_->handle()) != 0) return connection_->LastError(query_);
    return false;
  }
  const unsigned int columns = mysql_num_fields(result_);
  const unsigned long* lengths = mysql_fetch_lengths(result_);
  row->resize(columns);
  for (unsigned int i = 0; i < columns; ++i) {
    if (values[i] == nullptr) {
      (*row)[i].reset();
    } else {
      (*row)[i].emplace(values[i], lengths[i]);
    }
  }
  return true;
}

std::string MySqlConnection::QuoteString(std::string_view text) const {
  std::string out(text.size() * 2 + 3, '\0');
  out[0] = '\'';
  unsigned long n = mysql_real_escape_string(mysql_, out.data() + 1, text.data(), text.size());
  out.resize(n + 1);
  out += '\'';
  return out;
}

void MySqlConnection::Interrupt() {
  my_socket socket = mysql_get_socket(mysql_);
  if (socket >= 0) ::shutdown(socket, SHUT_RDWR);
}

std::string QuoteMySqlIdentifier(std::string_view name) {
  std::string out = "`";
  for (char c : name) {
    if (c == '`') out += '`';
    out += c;
  }
  return out + "`";
}

}  // namespace sluice
