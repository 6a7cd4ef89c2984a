#include "mariadb_test_util.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace sluice::test {

std::string MariaDbPort() {
  const char* port = std::getenv("SLUICE_MARIADB_PORT");
  return port != nullptr && *port != '\0' ? port : "13306";
}

CommandResult MariaDb(const std::string& sql, const std::string& database) {
  TempDir dir;
  const std::string sql_path = dir.path() + "/query.sql";
  const std::string err_path = dir.path() + "/stderr";
  std::ofstream(sql_path) << sql;
  CommandResult r = RunShellCommand(
      "MYSQL_PWD=sluice mariadb --no-defaults --protocol=tcp --host=127.0.0.1 --port=" +
      MariaDbPort() +
      " --user=sluice --default-character-set=utf8mb4 --batch --raw --skip-column-names " +
      database + " <'" + sql_path + "' 2>'" + err_path + "'");
  std::ifstream err(err_path);
  std::stringstream text;
  text << err.rdbuf();
  r.err = text.str();
  return r;
}

}  // namespace sluice::test
