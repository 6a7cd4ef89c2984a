// Levels: the data files of one primary-key bucket arranged as an LSM tree (Java
// mergetree.Levels). Level 0 holds files that may overlap, each file its own sorted run, newest
// first; every level 1..max_level() holds one sorted run.
//
// The order of level 0 is Java's: larger max sequence number first, then smaller min sequence
// number, then older creation time, then file name, so that two writers' files with equal
// sequence numbers keep a stable order.
//
// Thread safety: not thread-safe; owned by one compact manager.
#pragma once

#include <cstdint>
#include <vector>

#include "sluice/data_type.h"
#include "sluice/lsm/sequence_comparator.h"
#include "sluice/lsm/sorted_run.h"
#include "sluice/result.h"

namespace sluice {

class Levels {
 public:
  // `key_type`: ROW of the trimmed primary key fields (min/max keys of the files). The tree has
  // max(num_levels, highest level of `files` + 1) levels; InvalidArgument when that is below 2.
  // Corruption when a file's keys do not decode or files of one level overlap.
  static Result<Levels> Make(DataTypePtr key_type, const std::vector<DataFileMeta>& files,
                             int num_levels);
  // The same for files whose keys are decoded already.
  static Result<Levels> Make(DataTypePtr key_type, std::vector<LevelFilePtr> files, int num_levels);

  // Removes `before` (by file name, from the level each names) and adds `after` (at its level).
  // InvalidArgument when a level is beyond max_level(); Corruption as Make.
  Status Update(const std::vector<DataFileMeta>& before, const std::vector<DataFileMeta>& after);
  Status Update(const std::vector<DataFileMeta>& before, std::vector<LevelFilePtr> after);

  // Level 0, newest first.
  const std::vector<LevelFilePtr>& level0() const { return level0_; }
  // REQUIRES: 1 <= level <= max_level().
  const SortedRun& RunOfLevel(int level) const { return levels_[level - 1]; }
  int number_of_levels() const { return static_cast<int>(levels_.size()) + 1; }
  int max_level() const { return static_cast<int>(levels_.size()); }

  // Level-0 files plus non-empty higher levels.
  int NumberOfSortedRuns() const;
  // The highest level that holds a file, or -1 when the tree is empty.
  int NonEmptyHighestLevel() const;
  int64_t TotalFileSize() const;
  // Every file, in sorted-run order (level 0 newest first, then levels upward).
  std::vector<DataFileMeta> AllFiles() const;
  // Level 0 one run per file, then each non-empty level.
  std::vector<LevelSortedRun> LevelSortedRuns() const;

  const KeyValueMergeOrder& key_order() const { return key_order_; }
  const DataTypePtr& key_type() const { return key_type_; }

  // Decodes the keys of `meta` with this tree's key type.
  Result<LevelFilePtr> Decode(DataFileMeta meta) const;

 private:
  Levels(DataTypePtr key_type, int restored_levels);
  Status UpdateLevel(int level, const std::vector<DataFileMeta>& before,
                     std::vector<LevelFilePtr> after);

  DataTypePtr key_type_;
  KeyValueMergeOrder key_order_;
  std::vector<LevelFilePtr> level0_;
  std::vector<SortedRun> levels_;  // levels 1..max_level()
};

}  // namespace sluice
