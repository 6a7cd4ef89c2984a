// JdbcCatalog: a catalog whose databases and tables are rows in a database reached through a
// JDBC URL (Java JdbcCatalog, Paimon 1.4.2's layout: jdbc_catalog_tables.h), while each table's
// schema, snapshot and data files stay in the warehouse at `<warehouse>/<database>.db/<table>`,
// written by the filesystem catalog's code (FilesystemCatalog). Java's JdbcCatalog and Sluice's
// on the same database, catalog key and warehouse see the same tables.
//
// What each operation does, in Java's order:
//   CreateDatabase   inserts the database's properties (`exists`, `location`); no folder.
//   CreateTable      (under the lock) writes schema-0 in the table's folder, then inserts the
//                    table's row and properties; a schema-0 already there (another creator
//                    won) is AlreadyExists.
//   AlterTable       (under the lock) commits the next schema, then replaces the properties.
//   RenameTable      (under the lock of the source) moves the row and properties, then the
//                    folder; a failed folder move moves the rows back.
//   DropTable        (under the lock) deletes the row and properties, then the folder
//                    (FilesystemCatalog's crash-safe drop).
//   DropDatabase     cascade drops each table as above, then deletes the database's rows.
// Java takes the lock for create and alter only; Sluice also for rename and drop, so that a
// commit racing them (which holds the same lock) lands before the folder moves or fails after
// it (FileStoreTable::RunWithCatalogLock) instead of writing into a moved folder.
//
// The lock (`lock.enabled`, jdbc_catalog_lock.h) is also set on every table this catalog loads:
// its commits create their snapshot under it, as Java's commits through a JDBC catalog do.
//
// Errors name the table or database, the catalog key and the uri (password masked).
//
// Java on SQLite: Java 1.4.2's JdbcCatalog, opened on a SQLite file whose catalog tables exist,
// leaves the ResultSet of its table lookup open, which holds the file's shared lock: from then
// on every write to the file by anyone (lock rows, new tables) fails with SQLITE_BUSY until that
// Java catalog closes. Sharing a SQLite catalog with Java works when Java's catalog is the one
// that creates the file's tables and stays the only Java catalog on it (the interop test does
// so); a server database has no such limit.
//
// Thread safety: thread-safe (the connection pool is).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/catalog/catalog_backend.h"
#include "sluice/catalog/filesystem_catalog.h"
#include "sluice/catalog/jdbc/jdbc_catalog_options.h"
#include "sluice/catalog/jdbc/jdbc_client_pool.h"
#include "sluice/fs/file_io.h"
#include "sluice/table/catalog_lock.h"

namespace sluice {

class JdbcCatalog : public CatalogBackend {
 public:
  // Opens the catalog of `options` (jdbc_catalog_options.h) over the warehouse `warehouse`
  // (through `io`): connects, and creates the catalog's tables (and the lock table when
  // lock.enabled) when they are missing, as Java does. Errors name the option or the uri.
  static Result<std::shared_ptr<const JdbcCatalog>> Open(
      std::shared_ptr<FileIO> io, std::string warehouse,
      const std::map<std::string, std::string>& options);

  const std::string& warehouse() const override { return files_.warehouse(); }
  const JdbcCatalogOptions& options() const { return options_; }
  // The lock of this catalog's tables; null unless lock.enabled.
  const std::shared_ptr<const CatalogLock>& lock() const { return lock_; }

  Result<std::vector<std::string>> ListDatabases() const override;
  Result<std::vector<std::string>> ListTables(std::string_view database) const override;
  std::string DatabasePath(std::string_view database) const override {
    return files_.DatabasePath(database);
  }

  Status CreateDatabase(std::string_view database, bool ignore_if_exists) const override;
  Status DropDatabase(std::string_view database, bool ignore_if_not_exists,
                      bool cascade) const override;

  Status CreateTable(std::string_view identifier, const NewTableSpec& spec,
                     bool ignore_if_exists) const override;
  Status DropTable(std::string_view identifier, bool ignore_if_not_exists) const override;
  Result<TableSchema> AlterTable(std::string_view identifier,
                                 const std::vector<SchemaChange>& changes) const override;
  Status RenameTable(std::string_view from, std::string_view to,
                     bool ignore_if_not_exists) const override;

  using CatalogBackend::LoadTable;
  Result<std::shared_ptr<FileStoreTable>> LoadTable(std::string_view database,
                                                    std::string_view table, std::string_view branch,
                                                    DynamicOptions dynamic_options) const override;

  // What crashed drops left in the warehouse (FilesystemCatalog::PurgeDropped).
  Result<std::vector<std::string>> PurgeDropped(bool dry_run) const override {
    return files_.PurgeDropped(dry_run);
  }

 private:
  JdbcCatalog(std::shared_ptr<FileIO> io, std::string warehouse, JdbcCatalogOptions options,
              std::shared_ptr<JdbcClientPool> connections, std::shared_ptr<const CatalogLock> lock);

  // "JDBC catalog '<key>' at <masked uri>", for errors.
  std::string Describe() const;
  // Runs `fn` under the lock of `database`.`table` when lock.enabled.
  Status RunWithLock(const std::string& database, const std::string& table,
                     const std::function<Status()>& fn) const;
  Result<bool> DatabaseExists(const std::string& database) const;
  Result<bool> TableExists(const std::string& database, const std::string& table) const;
  Status CheckDatabaseExists(const std::string& database) const;
  // The properties Java keeps for a table (sync-all-properties): its options and keys.
  std::map<std::string, std::string> TableProperties(const TableSchema& schema) const;

  std::shared_ptr<FileIO> io_;
  FilesystemCatalog files_;
  JdbcCatalogOptions options_;
  std::shared_ptr<JdbcClientPool> connections_;
  std::shared_ptr<const CatalogLock> lock_;
};

}  // namespace sluice
