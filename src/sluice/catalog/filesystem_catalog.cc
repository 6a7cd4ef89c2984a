#include "sluice/catalog/filesystem_catalog.h"

#include <algorithm>
#include <utility>

#include "sluice/meta/file_paths.h"

namespace sluice {

namespace {

constexpr std::string_view kDatabaseSuffix = ".db";
constexpr std::string_view kBranchSuffix = "$branch_";

std::string BaseName(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

FilesystemCatalog::FilesystemCatalog(std::shared_ptr<FileIO> io, std::string warehouse)
    : io_(std::move(io)), warehouse_(StripFileScheme(warehouse)) {
  while (warehouse_.size() > 1 && warehouse_.back() == '/') warehouse_.pop_back();
}

Result<std::vector<std::string>> FilesystemCatalog::ListDatabases() const {
  auto entries = io_->ListDir(warehouse_);
  if (!entries.ok()) {
    if (entries.status().IsNotFound()) {
      return Status::NotFound("warehouse " + warehouse_ + " does not exist");
    }
    return entries.status().WithContext("listing warehouse " + warehouse_);
  }
  std::vector<std::string> databases;
  for (const auto& entry : *entries) {
    std::string name = BaseName(entry.path);
    if (!entry.is_dir || name.size() <= kDatabaseSuffix.size() ||
        !name.ends_with(kDatabaseSuffix)) {
      continue;
    }
    databases.push_back(name.substr(0, name.size() - kDatabaseSuffix.size()));
  }
  std::sort(databases.begin(), databases.end());
  return databases;
}

Result<std::vector<std::string>> FilesystemCatalog::ListTables(std::string_view database) const {
  const std::string dir =
      JoinPath(warehouse_, std::string(database) + std::string(kDatabaseSuffix));
  auto entries = io_->ListDir(dir);
  if (!entries.ok()) {
    if (entries.status().IsNotFound()) {
      return Status::NotFound("database '" + std::string(database) +
                              "' does not exist in warehouse " + warehouse_);
    }
    return entries.status().WithContext("listing database " + dir);
  }
  std::vector<std::string> tables;
  for (const auto& entry : *entries) {
    if (!entry.is_dir) continue;
    SLUICE_ASSIGN_OR_RETURN(bool has_schema, io_->Exists(SchemaDir(entry.path)));
    if (has_schema) tables.push_back(BaseName(entry.path));
  }
  std::sort(tables.begin(), tables.end());
  return tables;
}

std::string FilesystemCatalog::TablePath(std::string_view database, std::string_view table) const {
  return JoinPath(JoinPath(warehouse_, std::string(database) + std::string(kDatabaseSuffix)),
                  table);
}

Result<std::shared_ptr<FileStoreTable>> FilesystemCatalog::LoadTable(
    std::string_view identifier, DynamicOptions dynamic_options) const {
  const size_t dot = identifier.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == identifier.size()) {
    return Status::InvalidArgument("table identifier '" + std::string(identifier) +
                                   "' is not of the form db.table");
  }
  std::string_view database = identifier.substr(0, dot);
  std::string_view table = identifier.substr(dot + 1);
  std::string_view branch = kMainBranch;
  const size_t suffix = table.find(kBranchSuffix);
  if (suffix != std::string_view::npos) {
    branch = table.substr(suffix + kBranchSuffix.size());
    table = table.substr(0, suffix);
    if (branch.empty() || table.empty()) {
      return Status::InvalidArgument("table identifier '" + std::string(identifier) +
                                     "' has an empty table or branch name");
    }
  }
  return LoadTable(database, table, branch, std::move(dynamic_options));
}

Result<std::shared_ptr<FileStoreTable>> FilesystemCatalog::LoadTable(
    std::string_view database, std::string_view table, std::string_view branch,
    DynamicOptions dynamic_options) const {
  const std::string path = TablePath(database, table);
  SLUICE_ASSIGN_OR_RETURN(bool exists, io_->Exists(SchemaDir(path)));
  if (!exists) {
    return Status::NotFound("table " + std::string(database) + "." + std::string(table) +
                            " does not exist in warehouse " + warehouse_);
  }
  return FileStoreTable::Open(io_, path, branch, std::move(dynamic_options));
}

Result<std::shared_ptr<FileStoreTable>> LoadTableFromPath(std::shared_ptr<FileIO> io,
                                                          std::string folder,
                                                          std::string_view branch,
                                                          DynamicOptions dynamic_options) {
  folder = StripFileScheme(folder);
  while (folder.size() > 1 && folder.back() == '/') folder.pop_back();
  SLUICE_ASSIGN_OR_RETURN(bool exists, io->Exists(SchemaDir(folder)));
  if (!exists) return Status::NotFound("no table in folder " + folder + " (no schema/ directory)");
  return FileStoreTable::Open(std::move(io), std::move(folder), branch, std::move(dynamic_options));
}

}  // namespace sluice
