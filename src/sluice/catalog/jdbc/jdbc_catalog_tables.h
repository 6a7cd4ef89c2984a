// JdbcCatalogTables: the tables a JDBC catalog keeps in its database, and the statements on
// them, as Java's JdbcUtils defines them (same names, columns and keys, so that Java's and
// Sluice's catalogs share one database):
//
//   paimon_tables(catalog_key, database_name, table_name)               the tables
//   paimon_database_properties(catalog_key, database_name,
//                              property_key, property_value)            the databases
//   paimon_table_properties(catalog_key, database_name, table_name,
//                           property_key, property_value)               the table options
//
// Every row carries the `catalog-key` of the catalog that wrote it; catalogs with different
// keys share the tables without seeing each other's rows. A database exists while it has a
// table or a property (Java writes `exists` = `true` and `location` at creation).
//
// On MariaDB / MySQL the database's character set must keep paimon_table_properties' key (four
// VARCHAR(255)) within InnoDB's 3,072 bytes, utf8mb3 or latin1: in utf8mb4 the server refuses
// the table, for Java's catalog as for Sluice's.
//
// Thread safety: pure functions over the connection given.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/catalog/jdbc/jdbc_connection.h"
#include "sluice/result.h"

namespace sluice {

namespace jdbc_tables {

// The CREATE TABLE IF NOT EXISTS statements of the three tables.
const std::vector<std::string>& CreateStatements();

Result<bool> DatabaseExists(JdbcConnection& connection, const std::string& key,
                            const std::string& database);
// Distinct, sorted.
Result<std::vector<std::string>> ListDatabases(JdbcConnection& connection, const std::string& key);
// Sorted.
Result<std::vector<std::string>> ListTables(JdbcConnection& connection, const std::string& key,
                                            const std::string& database);
Result<bool> TableExists(JdbcConnection& connection, const std::string& key,
                         const std::string& database, const std::string& table);

// AlreadyExists (from the database) when a property of the database is there already.
Status InsertDatabaseProperties(JdbcConnection& connection, const std::string& key,
                                const std::string& database,
                                const std::map<std::string, std::string>& properties);
// Deletes the database's rows in all three tables.
Status DeleteDatabase(JdbcConnection& connection, const std::string& key,
                      const std::string& database);

// AlreadyExists (from the database) when the table's row is there already.
Status InsertTable(JdbcConnection& connection, const std::string& key, const std::string& database,
                   const std::string& table);
// Deletes the table's row; returns how many there were (0 or 1).
Result<int64_t> DeleteTable(JdbcConnection& connection, const std::string& key,
                            const std::string& database, const std::string& table);
// Moves the table's row and its properties to `to_database`.`to_table`; returns how many table
// rows moved (0 when there is none). AlreadyExists when the target's row is there already.
Result<int64_t> RenameTable(JdbcConnection& connection, const std::string& key,
                            const std::string& from_database, const std::string& from_table,
                            const std::string& to_database, const std::string& to_table);

// Replaces the table's properties with `properties` (none: deleted).
Status ReplaceTableProperties(JdbcConnection& connection, const std::string& key,
                              const std::string& database, const std::string& table,
                              const std::map<std::string, std::string>& properties);

}  // namespace jdbc_tables

}  // namespace sluice
