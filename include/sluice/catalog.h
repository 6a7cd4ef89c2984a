// Catalog: the databases and tables of a warehouse, local or on an object store, found through
// a filesystem catalog (`<warehouse>/<db>.db/<table>/`), a JDBC catalog or a REST catalog server,
// the way engines find, create, change and drop tables by name (Java Catalog). Tables are named
// `db.table`; schema files are written exactly as Java Paimon writes them (field ids, option
// order, the casts ALTER allows).
//
// Thread safety: immutable; share freely. Concurrent DDL on one table is decided by the
// filesystem (one schema file per id, created exclusively) and, with a JDBC catalog's
// `lock.enabled`, by its lock.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/result.h"
#include "sluice/schema_change.h"
#include "sluice/table.h"

namespace sluice {

class FileIO;
class CatalogBackend;

class Catalog {
 public:
  // The catalog Java's catalog options describe (CatalogFactory.createCatalog): `metastore` is
  // "filesystem" (the default), "jdbc" (Java's JdbcCatalog layout: `uri` = jdbc:sqlite:PATH,
  // jdbc:postgresql://..., jdbc:mysql://... or jdbc:mariadb://...; `jdbc.user`, `jdbc.password`,
  // `catalog-key`, `lock.enabled`) or "rest" (Paimon's REST catalog API: `uri`,
  // `token.provider` = bear, `token`); `warehouse` is a local path, "file:" or an object store
  // ("s3://bucket/path", s3a://), or for rest the server's warehouse name; the other options
  // configure the warehouse's file system (s3.endpoint, s3.access-key, s3.secret-key,
  // s3.path.style.access, s3.region, ...; credentials may also come from the environment and
  // ~/.aws). InvalidArgument naming what is missing or malformed; NotSupported for another
  // metastore or scheme.
  static Result<Catalog> Open(const std::map<std::string, std::string>& options);

  // A filesystem catalog over `warehouse`, through `io` when given, else through the file
  // system of the warehouse's scheme with no options (an object store's credentials from the
  // environment); if that cannot be set up, every call of the catalog fails with the reason.
  static Catalog Filesystem(std::string warehouse, std::shared_ptr<FileIO> io = nullptr);

  const std::string& warehouse() const;

  // Sorted names. NotFound naming the warehouse / database when it does not exist.
  Result<std::vector<std::string>> ListDatabases() const;
  Result<std::vector<std::string>> ListTables(std::string_view database) const;

  // `db.table`, or `db.table$branch_<name>`. InvalidArgument for a malformed identifier;
  // NotFound naming `db.table` and the warehouse when there is no such table.
  Result<Table> GetTable(std::string_view identifier) const;

  // AlreadyExists naming the database unless `ignore_if_exists`; the warehouse is created when
  // missing. InvalidArgument for an empty name, one holding '/' or '$', or `sys`.
  Status CreateDatabase(std::string_view database, bool ignore_if_exists = false) const;
  // NotFound unless `ignore_if_not_exists`; InvalidArgument naming the tables when the
  // database holds some and not `cascade`.
  Status DropDatabase(std::string_view database, bool ignore_if_not_exists = false,
                      bool cascade = false) const;

  // Creates `db.table` with schema 0 from `spec`. NotFound when the database does not exist;
  // AlreadyExists unless `ignore_if_exists`. Schema rule errors name the column or option.
  Status CreateTable(std::string_view identifier, const NewTableSpec& spec,
                     bool ignore_if_exists = false) const;
  // Commits `changes` as the table's next schema (Java's rules, see schema_change.h) and
  // returns the table as it is then.
  Result<Table> AlterTable(std::string_view identifier,
                           const std::vector<SchemaChange>& changes) const;
  // NotFound unless `ignore_if_not_exists`.
  Status DropTable(std::string_view identifier, bool ignore_if_not_exists = false) const;
  // NotFound unless `ignore_if_not_exists`; AlreadyExists when `to` exists.
  Status RenameTable(std::string_view from, std::string_view to,
                     bool ignore_if_not_exists = false) const;

 private:
  friend struct ApiAccess;
  explicit Catalog(std::shared_ptr<const CatalogBackend> catalog) : catalog_(std::move(catalog)) {}

  std::shared_ptr<const CatalogBackend> catalog_;
};

}  // namespace sluice
