// The real PostgreSQL server of the CDC tests (scripts/postgres.sh; the `postgres` ctest
// fixture): its port and SQL run through Debian's `psql` as the role the script creates.
//
// Thread safety: the functions may be called from several threads.
#pragma once

#include <string>

#include "cli/cli_test_util.h"

namespace sluice::test {

// SLUICE_POSTGRES_PORT, default 15432.
std::string PostgresPort();

// Runs `sql` as role sluice in `database` on `port` (default: PostgresPort()); stdout holds the
// rows, unaligned and without headers, with the client's errors.
CommandResult Psql(const std::string& sql, const std::string& database = "sluice",
                   const std::string& port = "");

}  // namespace sluice::test
