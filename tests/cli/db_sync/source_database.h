// The source databases of the database sync scenario tests, one dialect each: MariaDB (the
// mysql_sync_* actions) and PostgreSQL (postgres_sync_*), on the real servers of the `mariadb`
// and `postgres` fixtures or on a server of a test's own port.
//
// Thread safety: values; their functions may be called from several threads.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_test_util.h"

namespace sluice::test {

struct SourceDatabase {
  std::string name;           // "mariadb", "postgres": the parameter's name
  std::string action_prefix;  // "mysql", "postgres": the actions are <prefix>_sync_database ...
  std::string server_script;  // scripts/<x>.sh
  std::string port;           // the shared server's port

  // Runs `sql` in `database` (on `port`, default the shared server's).
  CommandResult Sql(const std::string& sql, const std::string& database,
                    const std::string& port = "") const;
  CommandResult CreateDatabase(const std::string& database) const;
  void DropDatabase(const std::string& database) const;
  // `INSERT ... SELECT` of `columns` (expressions of `n`) for n from `first` to `last`.
  std::string InsertSeries(const std::string& table, const std::string& columns, int first,
                           int last) const;
  // An insert of `values` into `table` that replaces the row of the same key `key`.
  std::string Upsert(const std::string& table, const std::string& key,
                     const std::vector<std::string>& columns,
                     const std::vector<std::string>& values) const;
  // The rows of `table` as JSON objects of `columns`, sorted as ReadRows sorts.
  std::vector<nlohmann::json> Rows(const std::string& database, const std::string& table,
                                   const std::vector<std::string>& columns,
                                   const std::string& port = "") const;
  // The --<prefix>_conf arguments reading `database` (on `port`, default the shared server's).
  std::vector<std::string> ConfArguments(const std::string& database,
                                         const std::string& port = "") const;
};

const SourceDatabase& MariaDbSource();
const SourceDatabase& PostgresSource();

}  // namespace sluice::test
