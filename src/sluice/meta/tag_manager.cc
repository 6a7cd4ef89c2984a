#include "sluice/meta/tag_manager.h"

#include <algorithm>

#include "sluice/base/string_util.h"

namespace sluice {

TagManager::TagManager(std::shared_ptr<FileIO> io, std::string table_path, std::string_view branch)
    : io_(std::move(io)),
      table_path_(std::move(table_path)),
      branch_(NormalizeBranch(branch)),
      branch_path_(BranchPath(table_path_, branch_)) {}

Result<std::vector<std::string>> TagManager::ListTagNames() const {
  Result<std::vector<FileStatus>> entries = io_->ListDir(tag_dir());
  if (!entries.ok()) {
    if (entries.status().IsNotFound()) return std::vector<std::string>{};
    return entries.status();
  }
  std::vector<std::string> names;
  for (const FileStatus& entry : *entries) {
    if (entry.is_dir) continue;
    std::string_view name = entry.path;
    if (size_t slash = name.rfind('/'); slash != std::string_view::npos) {
      name.remove_prefix(slash + 1);
    }
    if (name.substr(0, kTagPrefix.size()) != kTagPrefix) continue;
    names.emplace_back(name.substr(kTagPrefix.size()));
  }
  std::sort(names.begin(), names.end());
  return names;
}

Result<bool> TagManager::TagExists(std::string_view name) const {
  return io_->Exists(tag_path(name));
}

Result<Tag> TagManager::LoadTag(std::string_view name) const {
  const std::string path = tag_path(name);
  Result<std::string> content = io_->ReadFile(path);
  if (!content.ok()) {
    if (content.status().IsNotFound()) {
      return Status::NotFound("tag '" + std::string(name) + "' does not exist: " + path);
    }
    return content.status();
  }
  Result<Tag> tag = Tag::FromJson(*content);
  if (!tag.ok()) return tag.status().WithContext(path);
  return tag;
}

Result<std::vector<std::pair<std::string, Tag>>> TagManager::ListTags() const {
  SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> names, ListTagNames());
  std::vector<std::pair<std::string, Tag>> tags;
  tags.reserve(names.size());
  for (std::string& name : names) {
    SLUICE_ASSIGN_OR_RETURN(Tag tag, LoadTag(name));
    tags.emplace_back(std::move(name), std::move(tag));
  }
  std::stable_sort(tags.begin(), tags.end(), [](const auto& a, const auto& b) {
    return a.second.snapshot.id < b.second.snapshot.id;
  });
  return tags;
}

namespace {

Status CheckTagName(std::string_view name, std::string_view what) {
  if (IsJavaBlank(name)) {
    return Status::InvalidArgument(std::string(what) + " shouldn't be blank");
  }
  if (name.find('/') != std::string_view::npos) {
    return Status::InvalidArgument(std::string(what) + " '" + std::string(name) +
                                   "' must not contain '/'");
  }
  return Status::OK();
}

std::string TagContent(const Snapshot& snapshot, const std::optional<TagDuration>& time_retained,
                       const std::vector<int64_t>& create_time) {
  if (!time_retained) return snapshot.ToJson();
  Tag tag;
  tag.snapshot = snapshot;
  tag.create_time = create_time;
  tag.time_retained = time_retained;
  return tag.ToJson();
}

}  // namespace

Status TagManager::CreateTag(const Snapshot& snapshot, std::string_view name,
                             const std::optional<TagDuration>& time_retained,
                             const std::vector<int64_t>& create_time, bool ignore_if_exists) const {
  SLUICE_RETURN_NOT_OK(CheckTagName(name, "tag name"));
  SLUICE_ASSIGN_OR_RETURN(bool exists, TagExists(name));
  if (exists) {
    if (ignore_if_exists) return Status::OK();
    return Status::AlreadyExists("tag '" + std::string(name) +
                                 "' already exists: " + tag_path(name));
  }
  SLUICE_RETURN_NOT_OK(io_->MkDirs(tag_dir()));
  return io_->WriteFileAtomic(tag_path(name), TagContent(snapshot, time_retained, create_time),
                              /*overwrite=*/true);
}

Status TagManager::ReplaceTag(const Snapshot& snapshot, std::string_view name,
                              const std::optional<TagDuration>& time_retained,
                              const std::vector<int64_t>& create_time) const {
  SLUICE_RETURN_NOT_OK(CheckTagName(name, "tag name"));
  SLUICE_ASSIGN_OR_RETURN(bool exists, TagExists(name));
  if (!exists) {
    return Status::NotFound("tag '" + std::string(name) + "' does not exist: " + tag_path(name));
  }
  return io_->WriteFileAtomic(tag_path(name), TagContent(snapshot, time_retained, create_time),
                              /*overwrite=*/true);
}

Status TagManager::RenameTag(std::string_view from, std::string_view to) const {
  SLUICE_RETURN_NOT_OK(CheckTagName(from, "original tag name"));
  SLUICE_RETURN_NOT_OK(CheckTagName(to, "new tag name"));
  SLUICE_ASSIGN_OR_RETURN(bool exists, TagExists(from));
  if (!exists) {
    return Status::NotFound("tag '" + std::string(from) + "' does not exist: " + tag_path(from));
  }
  Status renamed = io_->RenameNoReplace(tag_path(from), tag_path(to));
  if (renamed.IsAlreadyExists()) {
    return Status::AlreadyExists("tag '" + std::string(to) + "' already exists: " + tag_path(to));
  }
  SLUICE_RETURN_NOT_OK(renamed);
  return io_->SyncDir(tag_dir());
}

Status TagManager::DeleteTag(std::string_view name) const {
  SLUICE_RETURN_NOT_OK(CheckTagName(name, "tag name"));
  SLUICE_ASSIGN_OR_RETURN(bool exists, TagExists(name));
  if (!exists) {
    return Status::NotFound("tag '" + std::string(name) + "' does not exist: " + tag_path(name));
  }
  SLUICE_RETURN_NOT_OK(io_->Delete(tag_path(name), /*recursive=*/false));
  return io_->SyncDir(tag_dir());
}

}  // namespace sluice
