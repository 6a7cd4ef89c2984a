#include "sluice/catalog/jdbc/jdbc_catalog_lock.h"

#include <algorithm>
#include <thread>

namespace sluice {

Result<bool> JdbcCatalogLock::TryAcquire(const std::string& lock_id) const {
  bool acquired = false;
  SLUICE_RETURN_NOT_OK(connections_->Run([&](JdbcConnection& connection) -> Status {
    SLUICE_RETURN_NOT_OK(connection.Execute(dialect_.release_timed_out, {lock_id}).status());
    const int64_t expire_seconds = acquire_timeout_.count() / 1000;
    Result<int64_t> inserted =
        connection.Execute(dialect_.acquire, {lock_id, std::to_string(expire_seconds)});
    if (inserted.ok()) {
      acquired = *inserted > 0;
      return Status::OK();
    }
    // The row is there: another holds the lock.
    if (inserted.status().IsAlreadyExists()) return Status::OK();
    return inserted.status();
  }));
  return acquired;
}

Status JdbcCatalogLock::RunWithLock(std::string_view database, std::string_view object_name,
                                    const std::function<Status()>& fn) const {
  const std::string lock_id =
      catalog_key_ + "." + std::string(database) + "." + std::string(object_name);
  const auto start = std::chrono::steady_clock::now();
  SLUICE_ASSIGN_OR_RETURN(bool locked, TryAcquire(lock_id));
  std::chrono::milliseconds next_sleep{50};
  while (!locked) {
    next_sleep = std::min(next_sleep * 2, check_max_sleep_);
    std::this_thread::sleep_for(next_sleep);
    SLUICE_ASSIGN_OR_RETURN(locked, TryAcquire(lock_id));
    if (std::chrono::steady_clock::now() - start > acquire_timeout_) break;
  }
  if (!locked) {
    const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - start);
    return Status::IOError("could not acquire the JDBC catalog lock '" + lock_id + "' in " +
                           connections_->uri().masked + " within lock-acquire-timeout (waited " +
                           std::to_string(waited.count()) + " ms): another holds it");
  }
  Status result = fn();
  Status released = connections_->Run([&](JdbcConnection& connection) {
    return connection.Execute(dialect_.release, {lock_id}).status();
  });
  if (!released.ok() && result.ok()) {
    return released.WithContext("the operation under the JDBC catalog lock '" + lock_id +
                                "' succeeded, but releasing the lock failed (it expires after "
                                "lock-acquire-timeout)");
  }
  return result;
}

}  // namespace sluice
