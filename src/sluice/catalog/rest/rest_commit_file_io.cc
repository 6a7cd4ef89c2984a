#include "sluice/catalog/rest/rest_commit_file_io.h"

#include <utility>

#include "sluice/meta/file_paths.h"

namespace sluice::rest {
namespace {

// Whether `path` is SnapshotPath(branch_path, <id>) for some id.
bool IsSnapshotOf(std::string_view path, std::string_view branch_path) {
  const std::string prefix = SnapshotDir(branch_path) + "/" + std::string(kSnapshotPrefix);
  if (!path.starts_with(prefix) || path.size() == prefix.size()) return false;
  for (char c : path.substr(prefix.size())) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace

RestCommitFileIO::RestCommitFileIO(std::shared_ptr<FileIO> base, std::string table_path,
                                   Commit commit)
    : ForwardingFileIO(std::move(base)),
      table_path_(std::move(table_path)),
      commit_(std::move(commit)) {}

std::optional<std::string> RestCommitFileIO::SnapshotBranch(std::string_view path) const {
  if (IsSnapshotOf(path, table_path_)) return std::string(kMainBranch);
  const std::string branches = BranchPath(table_path_, "x");
  const std::string prefix = branches.substr(0, branches.size() - 1);  // ".../branch/branch-"
  if (!path.starts_with(prefix)) return std::nullopt;
  const std::string_view rest = path.substr(prefix.size());
  const size_t slash = rest.find('/');
  if (slash == std::string_view::npos || slash == 0) return std::nullopt;
  std::string branch(rest.substr(0, slash));
  if (!IsSnapshotOf(path, BranchPath(table_path_, branch))) return std::nullopt;
  return branch;
}

Status RestCommitFileIO::WriteFileAtomic(const std::string& path, std::string_view content,
                                         bool overwrite) {
  if (!overwrite) {
    if (std::optional<std::string> branch = SnapshotBranch(path)) {
      SLUICE_ASSIGN_OR_RETURN(bool landed, commit_(*branch, content));
      if (!landed) {
        return Status::AlreadyExists(path + ": another commit took this snapshot id");
      }
      return Status::OK();
    }
  }
  return base()->WriteFileAtomic(path, content, overwrite);
}

}  // namespace sluice::rest
