// JdbcDistributedLockDialect: the statements of the distributed lock table a JDBC catalog keeps
// when `lock.enabled` (Java JdbcDistributedLockDialect and its SqlLite / Mysql / Postgresql
// implementations, same table and statements):
//
//   paimon_distributed_locks(lock_id VARCHAR(<lock-key-max-length>) PRIMARY KEY,
//                            acquired_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
//                            expire_time_seconds BIGINT DEFAULT 0)
//
// Taking a lock is inserting its row (the primary key refuses a second holder); releasing it is
// deleting the row; a row older than its expiry (a holder that died) is deleted before each try.
// The database's clock dates the rows, so the processes' clocks do not matter.
//
// MariaDB: Java 1.4.2 has no dialect for the `mariadb` protocol (it refuses lock.enabled with
// jdbc:mariadb:); Sluice uses MySQL's there, the same statements on the same table, so a Sluice
// on jdbc:mariadb: and a Java on jdbc:mysql: share the lock.
//
// Thread safety: a value type.
#pragma once

#include <string>

#include "sluice/catalog/jdbc/jdbc_uri.h"

namespace sluice {

inline constexpr char kDistributedLocksTable[] = "paimon_distributed_locks";

struct JdbcDistributedLockDialect {
  // CREATE TABLE IF NOT EXISTS, with the key column `key_max_length` wide.
  std::string create_table;
  // INSERT (lock_id, expire_time_seconds); parameters: the lock id, the expiry in seconds.
  std::string acquire;
  // DELETE the lock's row; parameter: the lock id.
  std::string release;
  // DELETE the lock's row when it is older than its expiry; parameter: the lock id.
  std::string release_timed_out;

  static JdbcDistributedLockDialect For(JdbcProtocol protocol, int key_max_length);
};

}  // namespace sluice
