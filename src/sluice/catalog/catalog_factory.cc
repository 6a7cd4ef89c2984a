#include "sluice/catalog/catalog_factory.h"

#include <utility>

#include "sluice/catalog/filesystem_catalog.h"
#include "sluice/catalog/jdbc/jdbc_catalog.h"
#include "sluice/catalog/rest/rest_catalog.h"
#include "sluice/fs/file_io_factory.h"

namespace sluice {

Result<std::shared_ptr<const CatalogBackend>> CreateCatalog(
    const std::map<std::string, std::string>& options) {
  auto given = options.find("metastore");
  const std::string metastore = given == options.end() ? "filesystem" : given->second;
  // A REST catalog's warehouse is a name on its server, which may have none.
  if (metastore == "rest") {
    SLUICE_ASSIGN_OR_RETURN(auto catalog, rest::RestCatalog::Open(options));
    return std::shared_ptr<const CatalogBackend>(std::move(catalog));
  }
  if (metastore != "filesystem" && metastore != "jdbc") {
    return Status::NotSupported("catalog option metastore=" + metastore +
                                ": Sluice has the filesystem, jdbc and rest catalogs");
  }
  auto warehouse = options.find("warehouse");
  if (warehouse == options.end() || warehouse->second.empty()) {
    return Status::InvalidArgument("catalog option 'warehouse' is required");
  }
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileIO> io, FileIOForPath(warehouse->second, options));
  if (metastore == "jdbc") {
    SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<const JdbcCatalog> catalog,
                            JdbcCatalog::Open(std::move(io), warehouse->second, options));
    return std::shared_ptr<const CatalogBackend>(std::move(catalog));
  }
  return CreateFilesystemCatalog(std::move(io), warehouse->second);
}

std::shared_ptr<const CatalogBackend> CreateFilesystemCatalog(std::shared_ptr<FileIO> io,
                                                              std::string warehouse) {
  return std::make_shared<const FilesystemCatalog>(std::move(io), std::move(warehouse));
}

}  // namespace sluice
