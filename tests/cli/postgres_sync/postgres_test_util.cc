#include "postgres_test_util.h"

#include <cstdlib>
#include <fstream>

namespace sluice::test {

std::string PostgresPort() {
  const char* port = std::getenv("SLUICE_POSTGRES_PORT");
  return port != nullptr && *port != '\0' ? port : "15432";
}

CommandResult Psql(const std::string& sql, const std::string& database, const std::string& port) {
  TempDir dir;
  const std::string path = dir.path() + "/query.sql";
  std::ofstream(path) << sql;
  return RunShellCommand("psql 'host=127.0.0.1 port=" + (port.empty() ? PostgresPort() : port) +
                         " user=sluice dbname=" + database + "' -v ON_ERROR_STOP=1 -AtqX -f '" +
                         path + "' 2>&1");
}

}  // namespace sluice::test
