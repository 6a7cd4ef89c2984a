// Tags through the public API (Java Table.createTag / replaceTag / renameTag / deleteTags and the
// create_tag_from_timestamp and expire_tags procedures). Every function works on the branch of
// `table` (Table::OnBranch for another). Tag files are written as Java writes them
// (`tag/tag-<name>`: the snapshot JSON, plus `tagCreateTime` and `tagTimeRetained` when the tag
// has a retention), each in one atomic file operation.
//
// Thread safety: functions; see the notes of each.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/result.h"
#include "sluice/table.h"

namespace sluice {

struct CreateTagOptions {
  // The snapshot to tag (a snapshot file, or an expired snapshot another tag keeps); default the
  // latest.
  std::optional<int64_t> snapshot_id;
  // How long the tag lives, in millis; default the table's `tag.default-time-retained`, and
  // none (kept until deleted) when that is unset.
  std::optional<int64_t> time_retained_millis;
  bool ignore_if_exists = false;
};

// Creates tag `name`; returns the tagged snapshot id. AlreadyExists naming the tag unless
// ignore_if_exists; NotFound naming the snapshot; InvalidArgument for a blank name or a table
// without snapshots.
Result<int64_t> CreateTag(const Table& table, std::string_view name,
                          const CreateTagOptions& options = {});
// Points the existing tag `name` at another snapshot (default the latest); NotFound when the tag
// does not exist.
Result<int64_t> ReplaceTag(const Table& table, std::string_view name,
                           const CreateTagOptions& options = {});
// Tags the first snapshot committed at or after `timestamp_millis`; returns its id.
Result<int64_t> CreateTagFromTimestamp(const Table& table, std::string_view name,
                                       int64_t timestamp_millis,
                                       std::optional<int64_t> time_retained_millis = {});
// Deletes the tags (NotFound naming the first missing one; those before it are deleted). Data
// files only an expired tagged snapshot used stay until remove_orphan_files.
Status DeleteTags(const Table& table, const std::vector<std::string>& names);
// NotFound when `from` does not exist; AlreadyExists when `to` does.
Status RenameTag(const Table& table, std::string_view from, std::string_view to);
// Deletes the tags whose retention has passed, and with `older_than_millis` those created
// before it; returns their names.
Result<std::vector<std::string>> ExpireTags(const Table& table,
                                            std::optional<int64_t> older_than_millis = {});

}  // namespace sluice
