// FilesystemCatalog: the tables of a warehouse directory (Java FileSystemCatalog):
//
//   <warehouse>/<database>.db/<table>/schema/schema-<id> ...
//
// A database is a directory named `<name>.db`; a table is a directory inside one that holds a
// schema/ directory. Tables load by identifier `db.table` (optionally `db.table$branch_<name>`,
// Java's branch suffix) or directly by their folder.
//
// Thread safety: thread-safe (immutable; FileIO is thread-safe).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/base/result.h"
#include "sluice/fs/file_io.h"
#include "sluice/table/file_store_table.h"

namespace sluice {

class FilesystemCatalog {
 public:
  FilesystemCatalog(std::shared_ptr<FileIO> io, std::string warehouse);

  const std::string& warehouse() const { return warehouse_; }

  // Database names, sorted. NotFound naming the warehouse when it does not exist.
  Result<std::vector<std::string>> ListDatabases() const;
  // Table names of `database`, sorted. NotFound naming the database when it does not exist.
  Result<std::vector<std::string>> ListTables(std::string_view database) const;
  // `<warehouse>/<database>.db/<table>`.
  std::string TablePath(std::string_view database, std::string_view table) const;

  // Loads `db.table` or `db.table$branch_<name>`. InvalidArgument for a malformed identifier;
  // NotFound naming `db.table` and the warehouse when there is no such table.
  Result<std::shared_ptr<FileStoreTable>> LoadTable(std::string_view identifier,
                                                    DynamicOptions dynamic_options = {}) const;
  Result<std::shared_ptr<FileStoreTable>> LoadTable(std::string_view database,
                                                    std::string_view table, std::string_view branch,
                                                    DynamicOptions dynamic_options = {}) const;

 private:
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
