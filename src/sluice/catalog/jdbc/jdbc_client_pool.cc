#include "sluice/catalog/jdbc/jdbc_client_pool.h"

#include <utility>

#include "sluice/catalog/jdbc/mariadb_jdbc_connection.h"
#include "sluice/catalog/jdbc/postgres_jdbc_connection.h"
#include "sluice/catalog/jdbc/sqlite_jdbc_connection.h"

namespace sluice {

Result<std::unique_ptr<JdbcConnection>> JdbcClientPool::Connect(
    const JdbcUri& uri, const std::map<std::string, std::string>& properties) {
  switch (uri.protocol) {
    case JdbcProtocol::kSqlite:
      return SqliteJdbcConnection::Open(uri, properties);
    case JdbcProtocol::kPostgresql:
      return PostgresJdbcConnection::Open(uri, properties);
    case JdbcProtocol::kMysql:
    case JdbcProtocol::kMariadb:
      return MariaDbJdbcConnection::Open(uri, properties);
  }
  return Status::Internal("unknown JDBC protocol of " + uri.masked);
}

Result<std::unique_ptr<JdbcConnection>> JdbcClientPool::Borrow() {
  constexpr std::chrono::seconds kPingAfterIdle{1};
  while (true) {
    Idle idle;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (idle_.empty()) break;
      idle = std::move(idle_.back());
      idle_.pop_back();
    }
    if (!idle.connection->IsValid()) continue;
    if (std::chrono::steady_clock::now() - idle.since >= kPingAfterIdle &&
        !idle.connection->Ping().ok()) {
      continue;  // the server dropped it: the next one, or a new one
    }
    return std::move(idle.connection);
  }
  return Connect(uri_, properties_);
}

void JdbcClientPool::GiveBack(std::unique_ptr<JdbcConnection> connection) {
  if (!connection->IsValid()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (idle_.size() < max_idle_) {
    idle_.push_back({std::move(connection), std::chrono::steady_clock::now()});
  }
}

Status JdbcClientPool::Run(const std::function<Status(JdbcConnection&)>& fn) {
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<JdbcConnection> connection, Borrow());
  Status st = fn(*connection);
  GiveBack(std::move(connection));
  return st;
}

Status JdbcClientPool::RunInTransaction(const std::function<Status(JdbcConnection&)>& fn) {
  return Run([&](JdbcConnection& connection) -> Status {
    SLUICE_RETURN_NOT_OK(connection.Begin());
    Status st = fn(connection);
    if (st.ok()) st = connection.Commit();
    if (!st.ok()) connection.Rollback().IgnoreError();  // the first error is the one to report
    return st;
  });
}

}  // namespace sluice
