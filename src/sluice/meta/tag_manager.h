// TagManager: lists, loads and writes the tags of one branch of a table (Java TagManager). A tag
// file is `tag/tag-<name>`; other entries of tag/ (such as the `tag-success-file/` directory of
// the tag callback, or the hidden temporary files of an atomic write) are skipped.
//
// Writes are single atomic file operations, so a crash leaves either the old or the new state:
// creating and replacing a tag write the whole file to a temporary name and rename it into place
// (Java overwriteFileUtf8); renaming is one no-replace rename; deleting removes the one file.
// Deleting a tag here removes only its file; the maintenance layer's DeleteTagAndUnusedFiles
// deletes the files only it kept as well (Java's TagDeletion).
//
// Thread safety: const methods are as thread-safe as the FileIO; the object is immutable.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
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

  // Writes tag `name` for `snapshot` (Java createTag). Without `time_retained` the file is the
  // plain snapshot JSON (so readers before 0.9 read it, as Java does); with it, the Tag JSON with
  // `create_time` (a LocalDateTime array, see Tag::LocalDateTimeArray) and the retention.
  // InvalidArgument "tag name shouldn't be blank"; AlreadyExists "tag '<name>' already exists"
  // unless `ignore_if_exists` (then the existing tag stays).
  Status CreateTag(const Snapshot& snapshot, std::string_view name,
                   const std::optional<TagDuration>& time_retained,
                   const std::vector<int64_t>& create_time, bool ignore_if_exists = false) const;
  // Points the existing tag `name` at `snapshot` (Java replaceTag); NotFound when it does not
  // exist.
  Status ReplaceTag(const Snapshot& snapshot, std::string_view name,
                    const std::optional<TagDuration>& time_retained,
                    const std::vector<int64_t>& create_time) const;
  // NotFound when `from` does not exist; AlreadyExists when `to` does.
  Status RenameTag(std::string_view from, std::string_view to) const;
  // Removes the tag file; NotFound naming the tag when it does not exist.
  Status DeleteTag(std::string_view name) const;

 private:
  std::shared_ptr<FileIO> io_;
  std::string table_path_;
  std::string branch_;
  std::string branch_path_;
};

}  // namespace sluice
