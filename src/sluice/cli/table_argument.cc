#include "sluice/cli/table_argument.h"

#include <cstdlib>
#include <filesystem>

#include "sluice/catalog.h"

namespace sluice::cli {

namespace {

std::map<std::string, std::string>& MutableCatalogOptions() {
  static std::map<std::string, std::string> options;
  return options;
}

}  // namespace

void SetCatalogOptions(std::map<std::string, std::string> options) {
  MutableCatalogOptions() = std::move(options);
}

const std::map<std::string, std::string>& CatalogOptions() { return MutableCatalogOptions(); }

Result<Catalog> OpenWarehouse(const std::string& warehouse) {
  std::map<std::string, std::string> options = CatalogOptions();
  options["warehouse"] = warehouse;
  return Catalog::Open(options);
}

Result<Table> OpenTableFolder(const std::string& folder) {
  return Table::Open(folder, CatalogOptions());
}

Result<Table> OpenTableArgument(const std::string& table, const std::string& warehouse) {
  if (!warehouse.empty()) {
    SLUICE_ASSIGN_OR_RETURN(Catalog catalog, OpenWarehouse(warehouse));
    return catalog.GetTable(table);
  }
  const char* env = std::getenv("SLUICE_WAREHOUSE");
  std::error_code ignored;
  if (env != nullptr && *env != '\0' && !std::filesystem::is_directory(table, ignored)) {
    SLUICE_ASSIGN_OR_RETURN(Catalog catalog, OpenWarehouse(env));
    return catalog.GetTable(table);
  }
  return OpenTableFolder(table);
}

Result<std::pair<std::string, std::string>> SplitAssignment(const std::string& text,
                                                            std::string_view flag) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) {
    return Status::InvalidArgument(std::string(flag) + " expects KEY=VALUE, got '" + text + "'");
  }
  return std::make_pair(text.substr(0, eq), text.substr(eq + 1));
}

Result<std::vector<std::pair<std::string, std::string>>> ParseAssignments(
    const std::vector<std::string>& items, std::string_view flag) {
  std::vector<std::pair<std::string, std::string>> spec;
  for (const std::string& item : items) {
    SLUICE_ASSIGN_OR_RETURN(auto assignment, SplitAssignment(item, flag));
    spec.push_back(std::move(assignment));
  }
  return spec;
}

}  // namespace sluice::cli
