// CompactUnit: the files one compaction rewrites and the level it writes them to (Java
// compact.CompactUnit); CompactResult: what a compaction did (Java compact.CompactResult).
//
// Thread safety: value types.
#pragma once

#include <optional>
#include <vector>

#include "sluice/lsm/compact_deletion_file.h"
#include "sluice/lsm/sorted_run.h"
#include "sluice/meta/data_file_meta.h"

namespace sluice {

struct CompactUnit {
  int output_level = 0;
  std::vector<LevelFilePtr> files;
  // Rewrite the files one by one instead of merging them (full compaction of a bucket whose only
  // run is already the highest level; Java FileRewriteCompactTask).
  bool file_rewrite = false;

  // Every file of `runs`, in run order.
  static CompactUnit FromLevelRuns(int output_level, const std::vector<LevelSortedRun>& runs) {
    CompactUnit unit;
    unit.output_level = output_level;
    for (const LevelSortedRun& run : runs) {
      unit.files.insert(unit.files.end(), run.run.files().begin(), run.run.files().end());
    }
    return unit;
  }
};

struct CompactResult {
  // Files the compaction removed and the files it wrote in their place. An upgraded file is in
  // both: the same file name, `before` at its old level, `after` at the new one.
  std::vector<DataFileMeta> before;
  std::vector<DataFileMeta> after;
  std::vector<DataFileMeta> changelog;
  // Deletion-vector buckets: the index file written at the end of the compaction (Java
  // CompactResult.deletionFile).
  std::optional<CompactDeletionFile> deletion_file;

  void Merge(CompactResult&& other) {
    for (DataFileMeta& f : other.before) before.push_back(std::move(f));
    for (DataFileMeta& f : other.after) after.push_back(std::move(f));
    for (DataFileMeta& f : other.changelog) changelog.push_back(std::move(f));
    if (other.deletion_file) {
      if (deletion_file) other.deletion_file->MergeOlder(std::move(*deletion_file));
      deletion_file = std::move(other.deletion_file);
    }
  }
  bool empty() const {
    return before.empty() && after.empty() && changelog.empty() && !deletion_file;
  }
};

}  // namespace sluice
