#include "sluice/cli/table_argument.h"

#include <cstdlib>
#include <filesystem>

#include "sluice/catalog.h"

namespace sluice::cli {

Result<Table> OpenTableArgument(const std::string& table, const std::string& warehouse) {
  if (!warehouse.empty()) return Catalog::Filesystem(warehouse).GetTable(table);
  const char* env = std::getenv("SLUICE_WAREHOUSE");
  std::error_code ignored;
  if (env != nullptr && *env != '\0' && !std::filesystem::is_directory(table, ignored)) {
    return Catalog::Filesystem(env).GetTable(table);
  }
  return Table::Open(table);
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
