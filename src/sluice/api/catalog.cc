#include "sluice/catalog.h"

#include "sluice/catalog/filesystem_catalog.h"

namespace sluice {

Catalog Catalog::Filesystem(std::string warehouse, std::shared_ptr<FileIO> io) {
  if (io == nullptr) io = LocalFileIO();
  return Catalog(std::make_shared<const FilesystemCatalog>(std::move(io), std::move(warehouse)));
}

Result<std::vector<std::string>> Catalog::ListDatabases() const {
  return catalog_->ListDatabases();
}

Result<std::vector<std::string>> Catalog::ListTables(std::string_view database) const {
  return catalog_->ListTables(database);
}

Result<Table> Catalog::GetTable(std::string_view identifier) const {
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> table, catalog_->LoadTable(identifier));
  return Table(std::string(identifier), std::move(table));
}

}  // namespace sluice
