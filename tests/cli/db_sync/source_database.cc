#include "source_database.h"

#include <sstream>

#include "kafka_sync_test_util.h"
#include "mariadb_test_util.h"
#include "postgres_test_util.h"

namespace sluice::test {

namespace {

bool IsMariaDb(const SourceDatabase& source) { return source.name == "mariadb"; }

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i > 0 ? ", " : "") + items[i];
  return out;
}

}  // namespace

CommandResult SourceDatabase::Sql(const std::string& sql, const std::string& database,
                                  const std::string& on_port) const {
  if (!IsMariaDb(*this)) return Psql(sql, database, on_port);
  if (on_port.empty()) return MariaDb(sql, database);
  return RunShellCommand(
      "MYSQL_PWD=sluice mariadb --no-defaults --protocol=tcp "
      "--host=127.0.0.1 --port=" +
      on_port + " --user=sluice --batch --raw --skip-column-names " + database + " -e \"" + sql +
      "\" 2>&1");
}

CommandResult SourceDatabase::CreateDatabase(const std::string& database) const {
  DropDatabase(database);
  return IsMariaDb(*this) ? MariaDb("CREATE DATABASE " + database)
                          : Psql("CREATE DATABASE " + database);
}

void SourceDatabase::DropDatabase(const std::string& database) const {
  if (IsMariaDb(*this)) {
    MariaDb("DROP DATABASE IF EXISTS " + database);
    return;
  }
  Psql("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE database = '" +
       database + "'");
  Psql("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
}

std::string SourceDatabase::InsertSeries(const std::string& table, const std::string& columns,
                                         int first, int last) const {
  if (IsMariaDb(*this)) {
    return "INSERT INTO " + table + " SELECT " + columns + " FROM (SELECT seq AS n FROM seq_" +
           std::to_string(first) + "_to_" + std::to_string(last) + ") AS s;";
  }
  return "INSERT INTO " + table + " SELECT " + columns + " FROM generate_series(" +
         std::to_string(first) + ", " + std::to_string(last) + ") AS s(n);";
}

std::string SourceDatabase::Upsert(const std::string& table, const std::string& key,
                                   const std::vector<std::string>& columns,
                                   const std::vector<std::string>& values) const {
  if (IsMariaDb(*this)) return "REPLACE INTO " + table + " VALUES (" + Join(values) + ");\n";
  std::vector<std::string> sets;
  for (const std::string& column : columns) {
    if (column != key) sets.push_back(column + " = excluded." + column);
  }
  return "INSERT INTO " + table + " VALUES (" + Join(values) + ") ON CONFLICT (" + key +
         ") DO UPDATE SET " + Join(sets) + ";\n";
}

std::vector<nlohmann::json> SourceDatabase::Rows(const std::string& database,
                                                 const std::string& table,
                                                 const std::vector<std::string>& columns,
                                                 const std::string& on_port) const {
  std::vector<std::string> pairs;
  for (const std::string& column : columns) pairs.push_back("'" + column + "', " + column);
  const std::string object = IsMariaDb(*this) ? "JSON_OBJECT(" : "jsonb_build_object(";
  CommandResult r = Sql("SELECT " + object + Join(pairs) + ") FROM " + table, database, on_port);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  std::vector<nlohmann::json> rows;
  std::istringstream lines(r.out);
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.empty()) rows.push_back(nlohmann::json::parse(line));
  }
  return Sorted(std::move(rows));
}

std::vector<std::string> SourceDatabase::ConfArguments(const std::string& database,
                                                       const std::string& on_port) const {
  const std::string conf = "--" + action_prefix + "_conf";
  std::vector<std::string> args = {
      conf, "hostname=127.0.0.1",       conf, "port=" + (on_port.empty() ? port : on_port),
      conf, "username=sluice",          conf, "password=sluice",
      conf, "database-name=" + database};
  if (!IsMariaDb(*this)) {
    const std::vector<std::string> items = {"schema-name=public", "slot.name=sluice_" + database,
                                            "decoding.plugin.name=pgoutput"};
    for (const std::string& item : items) {
      args.push_back(conf);
      args.push_back(item);
    }
  }
  return args;
}

const SourceDatabase& MariaDbSource() {
  static const SourceDatabase source{"mariadb", "mysql", "scripts/mariadb.sh", MariaDbPort()};
  return source;
}

const SourceDatabase& PostgresSource() {
  static const SourceDatabase source{"postgres", "postgres", "scripts/postgres.sh", PostgresPort()};
  return source;
}

}  // namespace sluice::test
