#include "sluice/catalog/identifier.h"

#include <utility>

#include "sluice/meta/file_paths.h"

namespace sluice {

namespace {

constexpr std::string_view kBranchSuffix = "$branch_";

Result<std::pair<std::string_view, std::string_view>> SplitAtDot(std::string_view text) {
  const size_t dot = text.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == text.size()) {
    return Status::InvalidArgument("table identifier '" + std::string(text) +
                                   "' is not of the form db.table");
  }
  return std::make_pair(text.substr(0, dot), text.substr(dot + 1));
}

}  // namespace

Result<Identifier> Identifier::Parse(std::string_view text) {
  SLUICE_ASSIGN_OR_RETURN(auto parts, SplitAtDot(text));
  auto [database, table] = parts;
  std::string_view branch = kMainBranch;
  const size_t suffix = table.find(kBranchSuffix);
  if (suffix != std::string_view::npos) {
    branch = table.substr(suffix + kBranchSuffix.size());
    table = table.substr(0, suffix);
    if (branch.empty() || table.empty()) {
      return Status::InvalidArgument("table identifier '" + std::string(text) +
                                     "' has an empty table or branch name");
    }
  }
  return Identifier{std::string(database), std::string(table), std::string(branch)};
}

Result<Identifier> Identifier::ParseDataTable(std::string_view text, std::string_view operation) {
  SLUICE_ASSIGN_OR_RETURN(auto parts, SplitAtDot(text));
  Identifier name{std::string(parts.first), std::string(parts.second), std::string(kMainBranch)};
  if (name.table.find('$') != std::string::npos || name.database == kSystemDatabase) {
    return Status::InvalidArgument("Cannot '" + std::string(operation) +
                                   "' for system table or branch '" + std::string(text) +
                                   "', please use data table.");
  }
  SLUICE_RETURN_NOT_OK(CheckName(name.database, "database"));
  SLUICE_RETURN_NOT_OK(CheckName(name.table, "table"));
  return name;
}

Status CheckName(std::string_view name, std::string_view what) {
  if (name.empty() || name.find('/') != std::string_view::npos) {
    return Status::InvalidArgument(std::string(what) + " name '" + std::string(name) +
                                   "' is empty or contains '/'");
  }
  return Status::OK();
}

Status CheckNewDatabaseName(std::string_view database) {
  SLUICE_RETURN_NOT_OK(CheckName(database, "database"));
  if (database == kSystemDatabase || database.find('$') != std::string_view::npos) {
    return Status::InvalidArgument("Cannot create the system database '" + std::string(database) +
                                   "'");
  }
  return Status::OK();
}

}  // namespace sluice
