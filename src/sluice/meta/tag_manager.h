// TagManager: lists and loads the tags of one branch of a table (Java TagManager). A tag file
// is `tag/tag-<name>`; other entries of tag/ (such as the `tag-success-file/` directory of the
// tag callback) are skipped.
//
// Thread safety: const methods are as thread-safe as the FileIO; the object is immutable.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sluice/fs/file_io.h"
#include "sluice/meta/file_paths.h"
#include "sluice/meta/tag.h"
#include "sluice/result.h"

namespace sluice {

class TagManager {
 public:
  TagManager(std::shared_ptr<FileIO> io, std::string table_path,
             std::string_view branch = kMainBranch);

  std::string tag_dir() const { return TagDir(branch_path_); }
  std::string tag_path(std::string_view name) const { return TagPath(branch_path_, name); }

  // Tag names, sorted; empty when there is no tag/ directory.
  Result<std::vector<std::string>> ListTagNames() const;
  Result<bool> TagExists(std::string_view name) const;
  // NotFound "tag '<name>' does not exist: <path>" when missing; a malformed file is a
  // Corruption naming the path and the field.
  Result<Tag> LoadTag(std::string_view name) const;
  // All tags with their names, ordered by tagged snapshot id, then name (Java tags()).
  Result<std::vector<std::pair<std::string, Tag>>> ListTags() const;

 private:
  std::shared_ptr<FileIO> io_;
  std::string table_path_;
  std::string branch_;
  std::string branch_path_;
};

}  // namespace sluice
