// Catalog: the databases and tables of a warehouse directory (a filesystem catalog:
// `<warehouse>/<db>.db/<table>/`), the way engines find tables by name.
//
// Thread safety: immutable; share freely.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/base/result.h"
#include "sluice/fs/file_io.h"
#include "sluice/table.h"

namespace sluice {

class FilesystemCatalog;

class Catalog {
 public:
  // A filesystem catalog over `warehouse` (local files unless `io` is given).
  static Catalog Filesystem(std::string warehouse, std::shared_ptr<FileIO> io = nullptr);

  // Sorted names. NotFound naming the warehouse / database when it does not exist.
  Result<std::vector<std::string>> ListDatabases() const;
  Result<std::vector<std::string>> ListTables(std::string_view database) const;

  // `db.table`. InvalidArgument for a malformed identifier; NotFound naming `db.table` and the
  // warehouse when there is no such table.
  Result<Table> GetTable(std::string_view identifier) const;

 private:
  explicit Catalog(std::shared_ptr<const FilesystemCatalog> catalog)
      : catalog_(std::move(catalog)) {}

  std::shared_ptr<const FilesystemCatalog> catalog_;
};

}  // namespace sluice
