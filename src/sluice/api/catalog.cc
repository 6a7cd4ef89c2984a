#include "sluice/catalog.h"

#include "sluice/api/api_access.h"
#include "sluice/catalog/catalog_factory.h"
#include "sluice/fs/file_io_factory.h"

namespace sluice {

Result<Catalog> Catalog::Open(const std::map<std::string, std::string>& options) {
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<const CatalogBackend> catalog, CreateCatalog(options));
  return Catalog(std::move(catalog));
}

Catalog Catalog::Filesystem(std::string warehouse, std::shared_ptr<FileIO> io) {
  if (io == nullptr) io = FileIOForPathOrFailing(warehouse, {});
  return Catalog(CreateFilesystemCatalog(std::move(io), std::move(warehouse)));
}

const std::string& Catalog::warehouse() const { return catalog_->warehouse(); }

Result<std::vector<std::string>> Catalog::ListDatabases() const {
  return catalog_->ListDatabases();
}

Result<std::vector<std::string>> Catalog::ListTables(std::string_view database) const {
  return catalog_->ListTables(database);
}

Result<Table> Catalog::GetTable(std::string_view identifier) const {
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> table, catalog_->LoadTable(identifier));
  return ApiAccess::MakeTable(std::string(identifier), std::move(table));
}

Status Catalog::CreateDatabase(std::string_view database, bool ignore_if_exists) const {
  return catalog_->CreateDatabase(database, ignore_if_exists);
}

Status Catalog::DropDatabase(std::string_view database, bool ignore_if_not_exists,
                             bool cascade) const {
  return catalog_->DropDatabase(database, ignore_if_not_exists, cascade);
}

Status Catalog::CreateTable(std::string_view identifier, const NewTableSpec& spec,
                            bool ignore_if_exists) const {
  return catalog_->CreateTable(identifier, spec, ignore_if_exists);
}

Result<Table> Catalog::AlterTable(std::string_view identifier,
                                  const std::vector<SchemaChange>& changes) const {
  SLUICE_RETURN_NOT_OK(catalog_->AlterTable(identifier, changes).status());
  return GetTable(identifier);
}

Status Catalog::DropTable(std::string_view identifier, bool ignore_if_not_exists) const {
  return catalog_->DropTable(identifier, ignore_if_not_exists);
}

Status Catalog::RenameTable(std::string_view from, std::string_view to,
                            bool ignore_if_not_exists) const {
  return catalog_->RenameTable(from, to, ignore_if_not_exists);
}

}  // namespace sluice
