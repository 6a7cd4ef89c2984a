#include "sluice/meta/tag_manager.h"

#include <algorithm>

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

}  // namespace sluice
