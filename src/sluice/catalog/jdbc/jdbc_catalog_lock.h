// JdbcCatalogLock: the lock of a table in a JDBC catalog (Java JdbcCatalogLock): a row
// `<catalog-key>.<database>.<table>` in the distributed lock table
// (jdbc_distributed_lock_dialect.h). Taking it tries at once, then again after pauses that
// double from 100 ms up to `lock-check-max-sleep`, until `lock-acquire-timeout` has passed, as
// Java does; the row expires after `lock-acquire-timeout` (in whole seconds), so a holder that
// died blocks the others that long at most. Java's catalogs and commits on the same database and
// catalog key take the same rows.
//
// Thread safety: thread-safe.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "sluice/catalog/jdbc/jdbc_client_pool.h"
#include "sluice/catalog/jdbc/jdbc_distributed_lock_dialect.h"
#include "sluice/table/catalog_lock.h"

namespace sluice {

class JdbcCatalogLock : public CatalogLock {
 public:
  JdbcCatalogLock(std::shared_ptr<JdbcClientPool> connections, std::string catalog_key,
                  JdbcDistributedLockDialect dialect, std::chrono::milliseconds check_max_sleep,
                  std::chrono::milliseconds acquire_timeout)
      : connections_(std::move(connections)),
        catalog_key_(std::move(catalog_key)),
        dialect_(std::move(dialect)),
        check_max_sleep_(check_max_sleep),
        acquire_timeout_(acquire_timeout) {}

  // IOError naming the lock, the (masked) uri and the time waited when it is not acquired in
  // time; errors of the database name the uri. When `fn` succeeded but the release failed, the
  // release's error says so.
  Status RunWithLock(std::string_view database, std::string_view object_name,
                     const std::function<Status()>& fn) const override;

 private:
  // One try: clears the lock's row when it expired, then inserts it. False when another holds
  // it.
  Result<bool> TryAcquire(const std::string& lock_id) const;

  std::shared_ptr<JdbcClientPool> connections_;
  std::string catalog_key_;
  JdbcDistributedLockDialect dialect_;
  std::chrono::milliseconds check_max_sleep_;
  std::chrono::milliseconds acquire_timeout_;
};

}  // namespace sluice
