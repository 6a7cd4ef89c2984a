#include "sluice/meta/changelog_manager.h"

#include "sluice/meta/hint_file.h"

namespace sluice {

ChangelogManager::ChangelogManager(std::shared_ptr<FileIO> io, std::string table_path,
                                   std::string_view branch)
    : io_(std::move(io)), branch_path_(BranchPath(table_path, NormalizeBranch(branch))) {}

Result<std::optional<int64_t>> ChangelogManager::LatestLongLivedChangelogId() const {
  return FindLatestId(io_.get(), changelog_dir(), kChangelogPrefix);
}

Result<std::optional<int64_t>> ChangelogManager::EarliestLongLivedChangelogId() const {
  return FindEarliestId(io_.get(), changelog_dir(), kChangelogPrefix);
}

Result<bool> ChangelogManager::LongLivedChangelogExists(int64_t id) const {
  return io_->Exists(changelog_path(id));
}

Result<Snapshot> ChangelogManager::LoadChangelog(int64_t id) const {
  const std::string path = changelog_path(id);
  Result<std::string> content = io_->ReadFile(path);
  if (!content.ok()) {
    if (content.status().IsNotFound()) {
      return Status::NotFound("changelog " + std::to_string(id) + " does not exist: " + path);
    }
    return content.status();
  }
  Result<Snapshot> changelog = Snapshot::FromJson(*content);
  if (!changelog.ok()) return changelog.status().WithContext(path);
  return changelog;
}

Result<std::vector<int64_t>> ChangelogManager::ListChangelogIds() const {
  return ListVersionedIds(io_.get(), changelog_dir(), kChangelogPrefix);
}

Status ChangelogManager::CommitChangelog(const Snapshot& changelog) const {
  SLUICE_RETURN_NOT_OK(io_->MkDirs(changelog_dir()));
  return io_->WriteFileAtomic(changelog_path(changelog.id), changelog.ToJson(),
                              /*overwrite=*/true);
}

Status ChangelogManager::CommitLatestHint(int64_t id) const {
  return WriteHint(io_.get(), changelog_dir(), kLatestHint, id);
}

Status ChangelogManager::CommitEarliestHint(int64_t id) const {
  return WriteHint(io_.get(), changelog_dir(), kEarliestHint, id);
}

Status ChangelogManager::DeleteChangelog(int64_t id) const {
  return io_->Delete(changelog_path(id), /*recursive=*/false);
}

Status ChangelogManager::DeleteHints() const {
  SLUICE_RETURN_NOT_OK(io_->Delete(LatestHintPath(changelog_dir()), false));
  return io_->Delete(EarliestHintPath(changelog_dir()), false);
}

}  // namespace sluice
