#include "sluice/catalog/jdbc/jdbc_distributed_lock_dialect.h"

namespace sluice {

JdbcDistributedLockDialect JdbcDistributedLockDialect::For(JdbcProtocol protocol,
                                                           int key_max_length) {
  const std::string table = kDistributedLocksTable;
  JdbcDistributedLockDialect dialect;
  // Java creates the table after looking it up in the database's metadata; IF NOT EXISTS is
  // that in one statement, without the race of two catalogs starting at once.
  dialect.create_table = "CREATE TABLE IF NOT EXISTS " + table + "(lock_id VARCHAR(" +
                         std::to_string(key_max_length) +
                         ") NOT NULL,acquired_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL,"
                         "expire_time_seconds BIGINT DEFAULT 0 NOT NULL,PRIMARY KEY (lock_id))";
  dialect.acquire = "INSERT INTO " + table + " (lock_id,expire_time_seconds) VALUES (?,?)";
  dialect.release = "DELETE FROM " + table + " WHERE lock_id = ?";
  std::string age;
  switch (protocol) {
    case JdbcProtocol::kSqlite:
      age = "strftime('%s', 'now') - strftime('%s', acquired_at)";
      break;
    case JdbcProtocol::kPostgresql:
      age = "EXTRACT(EPOCH FROM AGE(NOW(), acquired_at))";
      break;
    case JdbcProtocol::kMysql:
    case JdbcProtocol::kMariadb:
      age = "TIMESTAMPDIFF(SECOND, acquired_at, NOW())";
      break;
  }
  dialect.release_timed_out =
      "DELETE FROM " + table + " WHERE " + age + " > expire_time_seconds and lock_id = ?";
  return dialect;
}

}  // namespace sluice
