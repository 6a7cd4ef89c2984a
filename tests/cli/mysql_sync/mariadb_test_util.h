// The real MariaDB server of the CDC tests (scripts/mariadb.sh; the `mariadb` ctest fixture):
// its port and SQL run through Debian's `mariadb` client as the user the script creates.
//
// Thread safety: the functions may be called from several threads.
#pragma once

#include <string>

#include "cli/cli_test_util.h"

namespace sluice::test {

// SLUICE_MARIADB_PORT, default 13306.
std::string MariaDbPort();

// Runs `sql` as user sluice (in `database` when given); stdout holds the result rows
// (tab-separated, unescaped, no header), `err` the client's errors.
CommandResult MariaDb(const std::string& sql, const std::string& database = "");

}  // namespace sluice::test
