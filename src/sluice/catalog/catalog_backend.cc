#include "sluice/catalog/catalog_backend.h"

#include <utility>

#include "sluice/catalog/identifier.h"

namespace sluice {

Result<std::shared_ptr<FileStoreTable>> CatalogBackend::LoadTable(
    std::string_view identifier, DynamicOptions dynamic_options) const {
  SLUICE_ASSIGN_OR_RETURN(Identifier name, Identifier::Parse(identifier));
  return LoadTable(name.database, name.table, name.branch, std::move(dynamic_options));
}

}  // namespace sluice
