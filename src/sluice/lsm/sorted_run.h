// SortedRun: data files of one primary-key bucket whose key ranges do not overlap, in key order
// (Java mergetree.SortedRun); LevelSortedRun is a run with the LSM level it lives on.
//
// The files are held as LevelFile: the manifest record with its min/max key decoded once, so
// that ordering files by key (levels, interval partition) needs no decoding and cannot fail.
//
// Thread safety: LevelFile and SortedRun are immutable values; safe to share across threads.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "sluice/data_type.h"
#include "sluice/lsm/sequence_comparator.h"
#include "sluice/meta/data_file_meta.h"
#include "sluice/result.h"

namespace sluice {

struct LevelFile {
  DataFileMeta meta;
  // The trimmed primary key of the file's first and last record.
  ValueList min_key;
  ValueList max_key;

  // Decodes meta.min_key / meta.max_key as `key_type` (ROW of the trimmed primary key fields).
  // Corruption naming the file when a key does not decode.
  static Result<std::shared_ptr<const LevelFile>> Make(DataFileMeta meta, const DataType& key_type);
};
using LevelFilePtr = std::shared_ptr<const LevelFile>;

class SortedRun {
 public:
  SortedRun() = default;
  static SortedRun FromSingle(LevelFilePtr file) { return SortedRun({std::move(file)}); }
  // REQUIRES: `files` ordered by key, ranges not overlapping.
  static SortedRun FromSorted(std::vector<LevelFilePtr> files) {
    return SortedRun(std::move(files));
  }
  // Orders `files` by min key; Corruption when two key ranges overlap (the files cannot form one
  // run, Java SortedRun.validate).
  static Result<SortedRun> FromUnsorted(std::vector<LevelFilePtr> files,
                                        const KeyValueMergeOrder& order);

  const std::vector<LevelFilePtr>& files() const { return files_; }
  bool empty() const { return files_.empty(); }
  // Sum of the files' sizes in bytes.
  int64_t total_size() const { return total_size_; }

 private:
  explicit SortedRun(std::vector<LevelFilePtr> files);

  std::vector<LevelFilePtr> files_;
  int64_t total_size_ = 0;
};

struct LevelSortedRun {
  int level = 0;
  SortedRun run;
};

// The manifest records of `files`, in order.
std::vector<DataFileMeta> FileMetas(const std::vector<LevelFilePtr>& files);

}  // namespace sluice
