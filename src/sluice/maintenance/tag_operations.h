// Tag operations on one branch of a table, as Java's AbstractFileStoreTable does them
// (createTag, replaceTag, renameTag, deleteTags, CreateTagFromTimestampProcedure) and
// TagTimeExpire (expire_tags); the files themselves are TagManager's. Deleting a tag deletes the
// files only it kept (DeleteTagAndUnusedFiles, as Java's TagDeletion).
//
// A tag names a snapshot: the snapshot file when it exists, else (Java findSnapshot) a tag of
// the same snapshot id, so a tag can be copied from a tag whose snapshot already expired.
// Retention: an explicit one, else `tag.default-time-retained`, else none (a tag without
// retention is written as the plain snapshot JSON and never expires by time).
//
// Thread safety: functions; concurrent calls on one tag race as Java's do (last writer wins for
// create and replace, a rename or delete of a missing tag fails with NotFound).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/meta/snapshot.h"
#include "sluice/meta/tag.h"
#include "sluice/result.h"
#include "sluice/table/file_store_table.h"

namespace sluice {

// The snapshot a tag made from `snapshot_id` carries (Java findSnapshot). NotFound "cannot
// create tag because given snapshot #<id> doesn't exist".
Result<Snapshot> FindSnapshotForTag(const FileStoreTable& table, int64_t snapshot_id);

// The Tag create time of a clock reading: its wall clock in the process's zone (Java
// LocalDateTime.now(), in the JVM's zone).
std::vector<int64_t> TagCreateTimeOf(int64_t epoch_millis);
TagDuration TagDurationOfMillis(int64_t millis);

struct TagRequest {
  // The snapshot to tag; default the latest (InvalidArgument when the table has none).
  std::optional<int64_t> snapshot_id;
  // Retention; default the table's `tag.default-time-retained`.
  std::optional<int64_t> time_retained_millis;
  bool ignore_if_exists = false;
  // The clock for the tag's create time; default now.
  std::optional<int64_t> now_millis;
};

// Creates tag `name` (AlreadyExists unless ignore_if_exists) and returns the tagged snapshot.
Result<Snapshot> CreateTag(const FileStoreTable& table, std::string_view name,
                           const TagRequest& request = {});
// Points the existing tag `name` at another snapshot (NotFound when it does not exist).
Result<Snapshot> ReplaceTag(const FileStoreTable& table, std::string_view name,
                            const TagRequest& request = {});
// Tags the earliest snapshot committed at or after `timestamp_millis`, or an older tag's
// snapshot committed in between (Java CreateTagFromTimestampProcedure). NotFound "could not
// find any snapshot whose commit-time later than <t>".
Result<Snapshot> CreateTagFromTimestamp(const FileStoreTable& table, std::string_view name,
                                        int64_t timestamp_millis,
                                        std::optional<int64_t> time_retained_millis = {},
                                        std::optional<int64_t> now_millis = {});
// Deletes each tag (Java deleteTags of a comma-separated list). NotFound naming the first tag
// that does not exist; the tags before it are deleted.
Status DeleteTags(const FileStoreTable& table, const std::vector<std::string>& names);
Status RenameTag(const FileStoreTable& table, std::string_view from, std::string_view to);

struct ExpireTagsOptions {
  // Also expire tags created before this time (epoch millis), whatever their retention; tags
  // without a create time count from their file's modification time (Java TagTimeExpire).
  std::optional<int64_t> older_than_millis;
  // The clock; default now.
  std::optional<int64_t> now_millis;
};

// Deletes the tags whose retention has passed (or that are older than `older_than_millis`) and
// returns their names in tag order (Java TagTimeExpire.expire).
Result<std::vector<std::string>> ExpireTags(const FileStoreTable& table,
                                            const ExpireTagsOptions& options = {});

}  // namespace sluice
