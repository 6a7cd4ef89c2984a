// JdbcClientPool: the connections of a JDBC catalog to its database (Java JdbcClientPool): a
// caller borrows one for a call and gives it back; up to `client-pool-size` idle ones stay
// open, more are opened while many threads call at once. A connection that broke (the server
// closed it) is dropped instead of given back, and the next call opens a new one. One idle for
// a second or more is pinged before it is lent (Java validates every connection it lends): a
// server restarted or an idle timeout (MariaDB's wait_timeout) since its last use costs a new
// connection, not a failed call.
//
// Thread safety: thread-safe.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "sluice/catalog/jdbc/jdbc_connection.h"
#include "sluice/catalog/jdbc/jdbc_uri.h"
#include "sluice/result.h"

namespace sluice {

class JdbcClientPool {
 public:
  JdbcClientPool(JdbcUri uri, std::map<std::string, std::string> properties, size_t max_idle)
      : uri_(std::move(uri)), properties_(std::move(properties)), max_idle_(max_idle) {}

  const JdbcUri& uri() const { return uri_; }

  // Runs `fn` on a connection. Errors of connecting name the masked uri.
  Status Run(const std::function<Status(JdbcConnection&)>& fn);
  // Runs `fn` in a transaction: committed when `fn` succeeds, rolled back when it fails (its
  // error is returned).
  Status RunInTransaction(const std::function<Status(JdbcConnection&)>& fn);

  // Run and RunInTransaction for a function with a value.
  template <typename T>
  Result<T> Call(const std::function<Result<T>(JdbcConnection&)>& fn) {
    std::optional<Result<T>> out;
    Status st = Run([&](JdbcConnection& connection) {
      out.emplace(fn(connection));
      return out->status();
    });
    if (!out) return st;
    return std::move(*out);
  }
  template <typename T>
  Result<T> CallInTransaction(const std::function<Result<T>(JdbcConnection&)>& fn) {
    std::optional<Result<T>> out;
    Status st = RunInTransaction([&](JdbcConnection& connection) {
      out.emplace(fn(connection));
      return out->status();
    });
    if (!st.ok()) return st;  // a failed commit fails the call
    return std::move(*out);
  }

  // Opens a connection to `uri` with the driver `properties` (the protocol's implementation).
  static Result<std::unique_ptr<JdbcConnection>> Connect(
      const JdbcUri& uri, const std::map<std::string, std::string>& properties);

 private:
  struct Idle {
    std::unique_ptr<JdbcConnection> connection;
    std::chrono::steady_clock::time_point since;
  };

  Result<std::unique_ptr<JdbcConnection>> Borrow();
  void GiveBack(std::unique_ptr<JdbcConnection> connection);

  const JdbcUri uri_;
  const std::map<std::string, std::string> properties_;
  const size_t max_idle_;
  std::mutex mutex_;
  std::vector<Idle> idle_;
};

}  // namespace sluice
