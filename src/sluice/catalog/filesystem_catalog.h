// FilesystemCatalog: the tables of a warehouse directory (Java FileSystemCatalog):
//
//   <warehouse>/<database>.db/<table>/schema/schema-<id> ...
//
// A database is a directory named `<name>.db`; a table is a directory inside one that holds a
// schema/ directory. Tables load by identifier `db.table` (optionally `db.table$branch_<name>`,
// Java's branch suffix) or directly by their folder.
//
// Writes follow Java's AbstractCatalog / FileSystemCatalog: creating a table writes its
// schema-0 (schema_generation.h) after checking that the database exists and the options are ones
// Sluice can open; altering commits the next schema, refusing type changes Sluice's reader
// could not apply to older files; renaming moves the folder without replacing a target; dropping
// deletes the folder (and the table's `data-file.external-paths`). Identifiers name the main
// branch of a regular table (no `$`), as Java requires for these operations.
//
// Crash safety (SIGKILL or power loss at any point): a drop first renames the table's or
// database's folder to a hidden name in the warehouse (no overwrite, both directories synced),
// then deletes it; the table is there whole or gone, and a hidden folder a crash leaves behind
// is deleted by the next drop or orphan cleanup (PurgeDropped) and never listed, by Sluice or
// Java. A table folder
// that holds snapshots, schemas, tags, branches, changelogs or consumers but no schema (left by
// a drop of an older version or of Java, killed half-way) is refused by CreateTable and
// RenameTable, naming what it holds, and removed by DropTable. A rename is one rename.
//
// Thread safety: thread-safe (immutable; FileIO is thread-safe). Concurrent schema changes are
// serialized by the atomic claim of the next schema file.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/catalog/catalog_backend.h"
#include "sluice/fs/file_io.h"
#include "sluice/meta/schema_generation.h"
#include "sluice/result.h"
#include "sluice/table/file_store_table.h"

namespace sluice {

class FilesystemCatalog : public CatalogBackend {
 public:
  FilesystemCatalog(std::shared_ptr<FileIO> io, std::string warehouse);

  const std::string& warehouse() const override { return warehouse_; }

  // Database names, sorted. NotFound naming the warehouse when it does not exist.
  Result<std::vector<std::string>> ListDatabases() const override;
  // Table names of `database`, sorted. NotFound naming the database when it does not exist.
  Result<std::vector<std::string>> ListTables(std::string_view database) const override;
  // `<warehouse>/<database>.db/<table>`.
  std::string TablePath(std::string_view database, std::string_view table) const;
  // `<warehouse>/<database>.db`.
  std::string DatabasePath(std::string_view database) const override;

  // AlreadyExists naming the database unless `ignore_if_exists`. The warehouse is created when
  // missing. InvalidArgument for an empty name, one with '/' or '$', or the system database
  // `sys`.
  Status CreateDatabase(std::string_view database, bool ignore_if_exists = false) const override;
  // NotFound unless `ignore_if_not_exists`; InvalidArgument naming the tables when the database
  // holds some and not `cascade`.
  Status DropDatabase(std::string_view database, bool ignore_if_not_exists = false,
                      bool cascade = false) const override;

  // Creates `db.table` with schema 0 built from `spec`. NotFound when the database does not
  // exist; AlreadyExists unless `ignore_if_exists` (the existing table is then left as it is);
  // AlreadyExists naming the folder and what it holds when a dropped table left state there.
  // Errors of the schema rules name the column or option.
  Status CreateTable(std::string_view identifier, const NewTableSpec& spec,
                     bool ignore_if_exists = false) const override;
  // NotFound unless `ignore_if_not_exists`. Also removes a folder that a table dropped
  // half-way left (state but no schema).
  Status DropTable(std::string_view identifier, bool ignore_if_not_exists = false) const override;
  // Commits `changes` as the table's next schema and returns it.
  Result<TableSchema> AlterTable(std::string_view identifier,
                                 const std::vector<SchemaChange>& changes) const override;
  // Moves the table's folder: NotFound unless `ignore_if_not_exists`; AlreadyExists when the
  // target table exists.
  Status RenameTable(std::string_view from, std::string_view to,
                     bool ignore_if_not_exists = false) const override;

  using CatalogBackend::LoadTable;
  // NotFound naming `db.table` and the warehouse when there is no such table.
  Result<std::shared_ptr<FileStoreTable>> LoadTable(std::string_view database,
                                                    std::string_view table, std::string_view branch,
                                                    DynamicOptions dynamic_options) const override;

  // Deletes (unless `dry_run`) what crashed drops left in the warehouse (their folders renamed
  // away, not yet deleted; see above) and returns those folders. Every drop and the
  // remove_orphan_files procedure call it. The first deletion failure is returned after trying
  // the rest.
  Result<std::vector<std::string>> PurgeDropped(bool dry_run = false) const override;

 private:
  // Renames `folder` to a new hidden name in the warehouse, durably; returns that name.
  Result<std::string> MoveToDropped(const std::string& folder, std::string_view name) const;
  // Deletes the folder MoveToDropped returned; `what` names the table or database dropped.
  Status DeleteDropped(const std::string& dropped, const std::string& what) const;

  std::shared_ptr<FileIO> io_;
  std::string warehouse_;
};

// Loads the table stored in `folder` (no catalog). NotFound naming the folder when it holds no
// table.
Result<std::shared_ptr<FileStoreTable>> LoadTableFromPath(std::shared_ptr<FileIO> io,
                                                          std::string folder,
                                                          std::string_view branch = kMainBranch,
                                                          DynamicOptions dynamic_options = {});

}  // namespace sluice
