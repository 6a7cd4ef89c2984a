// BranchManager: the branches of a table (Java FileSystemBranchManager). Each branch other
// than main is a directory `branch/branch-<name>/` holding its own schema/, snapshot/, tag/
// ... directories; data files and manifests stay shared under the table root.
//
// Thread safety: const methods are as thread-safe as the FileIO; the object is immutable.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/fs/file_io.h"
#include "sluice/result.h"

namespace sluice {

class BranchManager {
 public:
  BranchManager(std::shared_ptr<FileIO> io, std::string table_path);

  // Names of the branches other than main, sorted; empty when there is no branch/ directory.
  Result<std::vector<std::string>> ListBranches() const;
  // True for "main" and for every branch directory that exists.
  Result<bool> BranchExists(std::string_view branch) const;

 private:
  std::shared_ptr<FileIO> io_;
  std::string table_path_;
};

}  // namespace sluice
