// CatalogBackend: what a metastore does for a catalog (Java's Catalog interface): lists, creates,
// alters, renames and drops databases and tables, and loads tables. One implementation per
// `metastore` option (catalog_factory.h): the filesystem catalog, JDBC (jdbc/) and REST (rest/).
// The public sluice::Catalog and the actions, syncs and services that find tables by name go
// through it.
//
// Thread safety: implementations are thread-safe.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/meta/schema_generation.h"
#include "sluice/result.h"
#include "sluice/schema_change.h"
#include "sluice/table/file_store_table.h"

namespace sluice {

class CatalogBackend {
 public:
  virtual ~CatalogBackend() = default;

  // The warehouse root, without a "file:" scheme or a trailing '/'.
  virtual const std::string& warehouse() const = 0;

  // Database names, sorted. NotFound naming the warehouse when it does not exist.
  virtual Result<std::vector<std::string>> ListDatabases() const = 0;
  // Table names of `database`, sorted. NotFound naming the database when it does not exist.
  virtual Result<std::vector<std::string>> ListTables(std::string_view database) const = 0;
  // Where `database`'s own files go (a sync job's progress file).
  virtual std::string DatabasePath(std::string_view database) const = 0;

  // AlreadyExists naming the database unless `ignore_if_exists`. InvalidArgument for a name
  // CheckNewDatabaseName refuses.
  virtual Status CreateDatabase(std::string_view database, bool ignore_if_exists) const = 0;
  // NotFound unless `ignore_if_not_exists`; InvalidArgument naming the tables when the database
  // holds some and not `cascade`.
  virtual Status DropDatabase(std::string_view database, bool ignore_if_not_exists,
                              bool cascade) const = 0;

  // Creates `db.table` with schema 0 built from `spec`. NotFound when the database does not
  // exist; AlreadyExists unless `ignore_if_exists` (the existing table is then left as it is).
  // Errors of the schema rules name the column or option.
  virtual Status CreateTable(std::string_view identifier, const NewTableSpec& spec,
                             bool ignore_if_exists) const = 0;
  // NotFound unless `ignore_if_not_exists`.
  virtual Status DropTable(std::string_view identifier, bool ignore_if_not_exists) const = 0;
  // Commits `changes` as the table's next schema and returns it.
  virtual Result<TableSchema> AlterTable(std::string_view identifier,
                                         const std::vector<SchemaChange>& changes) const = 0;
  // NotFound unless `ignore_if_not_exists`; AlreadyExists when the target table exists.
  virtual Status RenameTable(std::string_view from, std::string_view to,
                             bool ignore_if_not_exists) const = 0;

  // Loads a branch of `database.table`. NotFound naming `db.table` and the catalog when there is
  // no such table.
  virtual Result<std::shared_ptr<FileStoreTable>> LoadTable(
      std::string_view database, std::string_view table, std::string_view branch,
      DynamicOptions dynamic_options) const = 0;
  // Loads `db.table` or `db.table$branch_<name>` (Identifier::Parse).
  Result<std::shared_ptr<FileStoreTable>> LoadTable(std::string_view identifier,
                                                    DynamicOptions dynamic_options = {}) const;

  // Deletes (unless `dry_run`) what crashed drops left in the warehouse and returns those
  // folders (remove_orphan_files); none for a catalog whose drops leave nothing behind.
  virtual Result<std::vector<std::string>> PurgeDropped(bool dry_run) const = 0;
};

}  // namespace sluice
