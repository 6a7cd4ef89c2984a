#include "sluice/catalog/jdbc/jdbc_catalog_tables.h"

#include <algorithm>
#include <set>

namespace sluice::jdbc_tables {

namespace {

constexpr char kTables[] = "paimon_tables";
constexpr char kDatabaseProperties[] = "paimon_database_properties";
constexpr char kTableProperties[] = "paimon_table_properties";

std::string T(const char* table) { return table; }

// The first column of each row (NULLs skipped).
Result<std::vector<std::string>> FirstColumn(JdbcConnection& connection, const std::string& sql,
                                             const std::vector<std::string>& params) {
  SLUICE_ASSIGN_OR_RETURN(std::vector<JdbcRow> rows, connection.Query(sql, params));
  std::vector<std::string> out;
  for (const JdbcRow& row : rows) {
    if (!row.empty() && row[0]) out.push_back(*row[0]);
  }
  return out;
}

}  // namespace

const std::vector<std::string>& CreateStatements() {
  // Java creates each table after looking it up in the database's metadata; IF NOT EXISTS does
  // both in one statement, without the race of two catalogs starting at once.
  static const std::vector<std::string> statements = {
      "CREATE TABLE IF NOT EXISTS " + T(kTables) +
          "(catalog_key VARCHAR(255) NOT NULL,database_name VARCHAR(255) NOT NULL,table_name "
          "VARCHAR(255) NOT NULL, PRIMARY KEY (catalog_key, database_name, table_name))",
      "CREATE TABLE IF NOT EXISTS " + T(kDatabaseProperties) +
          "(catalog_key VARCHAR(255) NOT NULL,database_name VARCHAR(255) NOT NULL,property_key "
          "VARCHAR(255),property_value VARCHAR(1000),PRIMARY KEY (catalog_key, database_name, "
          "property_key))",
      "CREATE TABLE IF NOT EXISTS " + T(kTableProperties) +
          "(catalog_key VARCHAR(255) NOT NULL,database_name VARCHAR(255) NOT NULL,table_name "
          "VARCHAR(255) NOT NULL,property_key VARCHAR(255) NOT NULL,property_value "
          "VARCHAR(1000),PRIMARY KEY (catalog_key, database_name, table_name, property_key))",
  };
  return statements;
}

Result<bool> DatabaseExists(JdbcConnection& connection, const std::string& key,
                            const std::string& database) {
  SLUICE_ASSIGN_OR_RETURN(
      std::vector<JdbcRow> tables,
      connection.Query("SELECT database_name FROM " + T(kTables) +
                           " WHERE catalog_key = ? AND database_name = ? LIMIT 1",
                       {key, database}));
  if (!tables.empty()) return true;
  SLUICE_ASSIGN_OR_RETURN(
      std::vector<JdbcRow> properties,
      connection.Query("SELECT database_name FROM " + T(kDatabaseProperties) +
                           " WHERE catalog_key = ? AND database_name = ? LIMIT 1",
                       {key, database}));
  return !properties.empty();
}

Result<std::vector<std::string>> ListDatabases(JdbcConnection& connection, const std::string& key) {
  std::set<std::string> names;
  for (const char* table : {kTables, kDatabaseProperties}) {
    SLUICE_ASSIGN_OR_RETURN(
        std::vector<std::string> found,
        FirstColumn(connection,
                    "SELECT DISTINCT database_name FROM " + T(table) + " WHERE catalog_key = ?",
                    {key}));
    names.insert(found.begin(), found.end());
  }
  return std::vector<std::string>(names.begin(), names.end());
}

Result<std::vector<std::string>> ListTables(JdbcConnection& connection, const std::string& key,
                                            const std::string& database) {
  SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> tables,
                          FirstColumn(connection,
                                      "SELECT table_name FROM " + T(kTables) +
                                          " WHERE catalog_key = ? AND database_name = ?",
                                      {key, database}));
  std::sort(tables.begin(), tables.end());
  return tables;
}

Result<bool> TableExists(JdbcConnection& connection, const std::string& key,
                         const std::string& database, const std::string& table) {
  SLUICE_ASSIGN_OR_RETURN(
      std::vector<JdbcRow> rows,
      connection.Query("SELECT table_name FROM " + T(kTables) +
                           " WHERE catalog_key = ? AND database_name = ? AND table_name = ?",
                       {key, database, table}));
  return !rows.empty();
}

Status InsertDatabaseProperties(JdbcConnection& connection, const std::string& key,
                                const std::string& database,
                                const std::map<std::string, std::string>& properties) {
  if (properties.empty()) return Status::OK();
  std::string sql = "INSERT INTO " + T(kDatabaseProperties) +
                    " (catalog_key, database_name, property_key, property_value) VALUES ";
  std::vector<std::string> params;
  for (const auto& [name, value] : properties) {
    sql += params.empty() ? "(?,?,?,?)" : ", (?,?,?,?)";
    params.insert(params.end(), {key, database, name, value});
  }
  return connection.Execute(sql, params).status();
}

Status DeleteDatabase(JdbcConnection& connection, const std::string& key,
                      const std::string& database) {
  for (const char* table : {kTables, kDatabaseProperties, kTableProperties}) {
    SLUICE_RETURN_NOT_OK(
        connection
            .Execute("DELETE FROM " + T(table) + " WHERE catalog_key = ? AND database_name = ?",
                     {key, database})
            .status());
  }
  return Status::OK();
}

Status InsertTable(JdbcConnection& connection, const std::string& key, const std::string& database,
                   const std::string& table) {
  return connection
      .Execute(
          "INSERT INTO " + T(kTables) + " (catalog_key, database_name, table_name)  VALUES (?,?,?)",
          {key, database, table})
      .status();
}

Result<int64_t> DeleteTable(JdbcConnection& connection, const std::string& key,
                            const std::string& database, const std::string& table) {
  SLUICE_ASSIGN_OR_RETURN(
      int64_t deleted,
      connection.Execute("DELETE FROM " + T(kTables) +
                             " WHERE catalog_key = ? AND database_name = ? AND table_name = ? ",
                         {key, database, table}));
  SLUICE_RETURN_NOT_OK(ReplaceTableProperties(connection, key, database, table, {}));
  return deleted;
}

Result<int64_t> RenameTable(JdbcConnection& connection, const std::string& key,
                            const std::string& from_database, const std::string& from_table,
                            const std::string& to_database, const std::string& to_table) {
  int64_t moved = 0;
  for (const char* table : {kTables, kTableProperties}) {
    SLUICE_ASSIGN_OR_RETURN(
        int64_t rows,
        connection.Execute("UPDATE " + T(table) +
                               " SET database_name = ? , table_name = ?  WHERE catalog_key = ? "
                               "AND database_name = ? AND table_name = ? ",
                           {to_database, to_table, key, from_database, from_table}));
    if (table == kTables) moved = rows;
  }
  return moved;
}

Status ReplaceTableProperties(JdbcConnection& connection, const std::string& key,
                              const std::string& database, const std::string& table,
                              const std::map<std::string, std::string>& properties) {
  SLUICE_RETURN_NOT_OK(connection
                           .Execute("DELETE FROM " + T(kTableProperties) +
                                        " WHERE catalog_key = ? AND database_name = ? AND "
                                        "table_name = ?",
                                    {key, database, table})
                           .status());
  if (properties.empty()) return Status::OK();
  std::string sql =
      "INSERT INTO " + T(kTableProperties) +
      " (catalog_key, database_name, table_name, property_key, property_value) VALUES ";
  std::vector<std::string> params;
  for (const auto& [name, value] : properties) {
    sql += params.empty() ? "(?,?,?,?,?)" : ", (?,?,?,?,?)";
    params.insert(params.end(), {key, database, table, name, value});
  }
  return connection.Execute(sql, params).status();
}

}  // namespace sluice::jdbc_tables
