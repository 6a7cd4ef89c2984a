#include "sluice/meta/branch_manager.h"

#include <algorithm>

#include "sluice/meta/file_paths.h"

namespace sluice {

BranchManager::BranchManager(std::shared_ptr<FileIO> io, std::string table_path)
    : io_(std::move(io)), table_path_(std::move(table_path)) {}

Result<std::vector<std::string>> BranchManager::ListBranches() const {
  Result<std::vector<FileStatus>> entries = io_->ListDir(BranchDir(table_path_));
  if (!entries.ok()) {
    if (entries.status().IsNotFound()) return std::vector<std::string>{};
    return entries.status();
  }
  std::vector<std::string> names;
  for (const FileStatus& entry : *entries) {
    if (!entry.is_dir) continue;
    std::string_view name = entry.path;
    if (size_t slash = name.rfind('/'); slash != std::string_view::npos) {
      name.remove_prefix(slash + 1);
    }
    if (name.substr(0, kBranchPrefix.size()) != kBranchPrefix) continue;
    names.emplace_back(name.substr(kBranchPrefix.size()));
  }
  std::sort(names.begin(), names.end());
  return names;
}

Result<bool> BranchManager::BranchExists(std::string_view branch) const {
  const std::string normalized = NormalizeBranch(branch);
  if (IsMainBranch(normalized)) return true;
  return io_->Exists(BranchPath(table_path_, normalized));
}

}  // namespace sluice
