// LookupLevels: "the newest record of this key at or above level N" over the data files of one
// primary-key bucket (Java mergetree.LookupLevels with LookupUtils). Each data file is looked up
// through a local lookup file built from it on first use (keys as BinaryRow bytes, values as
// below), kept in the engine's LookupFileCache.
//
//   - The runs looked in are set with SetRuns: level-0 files newest first, then levels upward
//     (Levels::LevelSortedRuns(), or the runs above a compaction's output level).
//   - Lookup(key, start_level) walks the runs whose level is >= start_level in that order; in a
//     run the one file whose key range holds the key is asked (min/max keys, no file read); the
//     first hit wins, so the answer is the newest record of the key there.
//   - A hit carries the record's key, sequence number, row kind, value row (when persisted),
//     level, and the data file name and row position (for deletion vectors).
//   - Files that leave the runs (compacted away) lose their lookup files at the next SetRuns.
//
// Lookup file values: varint64 sequence number, the RowKind byte, varint64 row position, then
// (persist_value) the value row's BinaryRow bytes.
//
// Thread safety: not thread-safe; one LookupLevels per bucket user (a compaction, a query).
// The LookupFileCache may be shared.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/batch/row_projection_encoder.h"
#include "sluice/data_type.h"
#include "sluice/io/key_value.h"
#include "sluice/lsm/lookup/lookup_file_cache.h"
#include "sluice/lsm/sequence_comparator.h"
#include "sluice/lsm/sorted_run.h"
#include "sluice/lsm/sorted_run_reader.h"
#include "sluice/meta/data_file_meta.h"
#include "sluice/result.h"

namespace sluice {

// A looked-up record and where it lives (Java PositionedKeyValue).
struct PositionedKeyValue {
  // key: the key looked up; value: empty unless the lookup files persist values; level: the
  // level of the run it was found in.
  KeyValue key_value;
  std::string file_name;
  int64_t row_position = 0;
};

// Reads every record of one data file, in file order and with no deletion vector applied (the
// n-th record read is at row position n), as batches of the record layout
// (sorted_run_reader.h). Implemented where data files are read (table/source).
using LookupFileReaderFactory =
    std::function<Result<std::unique_ptr<SortedRunReader>>(const DataFileMeta& file)>;

class LookupLevels {
 public:
  struct Options {
    // Whether lookup files keep the value row (false: sequence, kind and position only, Java
    // PersistPositionProcessor; enough for deduplicate deletion vectors and first-row).
    bool persist_value = true;
  };

  // `key_type`: ROW of the trimmed primary key fields; `record_type`: the record layout the
  // reader factory yields (value fields, `_SEQUENCE_NUMBER`, `_VALUE_KIND`); `key_columns`:
  // the key fields' indexes in it; `key_order` orders keys as the files' min/max keys are.
  // InvalidArgument when the types do not fit together.
  static Result<std::unique_ptr<LookupLevels>> Make(DataTypePtr key_type, DataTypePtr record_type,
                                                    std::vector<int> key_columns,
                                                    KeyValueMergeOrder key_order,
                                                    LookupFileReaderFactory reader_factory,
                                                    std::shared_ptr<LookupFileCache> cache,
                                                    Options options);
  ~LookupLevels();

  // The runs to look in, newest first (each run's level is that of its files). Lookup files
  // of files in the previous runs but not in these are dropped.
  void SetRuns(std::vector<SortedRun> runs);
  void SetRuns(const std::vector<LevelSortedRun>& runs);

  // The newest record of `key` (values of key_type's fields) in the runs at or above
  // `start_level`, or nullopt. Errors name the data file or the lookup file.
  Result<std::optional<PositionedKeyValue>> Lookup(const ValueList& key, int start_level);
  // The same with the key's BinaryRow bytes already encoded (RowProjectionEncoder over the key
  // columns, or EncodeBinaryRow of key_type).
  Result<std::optional<PositionedKeyValue>> Lookup(const ValueList& key, std::string_view key_bytes,
                                                   int start_level);

  // Every record of `key` in the runs at or above `start_level`, newest run first (one per run
  // at most): what a merge of the key's versions needs (merge engines that fold records).
  Result<std::vector<PositionedKeyValue>> LookupAll(const ValueList& key, int start_level);

  // The lookup file of `file`, built when not cached (exposed for tests and warm-up).
  Result<std::shared_ptr<LookupFile>> GetOrCreateLookupFile(const DataFileMeta& file);

  const std::shared_ptr<LookupFileCache>& cache() const { return cache_; }
  const DataTypePtr& key_type() const { return key_type_; }

 private:
  LookupLevels(DataTypePtr key_type, DataTypePtr record_type, DataTypePtr value_type,
               std::vector<int> key_columns, KeyValueMergeOrder key_order,
               LookupFileReaderFactory reader_factory, std::shared_ptr<LookupFileCache> cache,
               Options options);

  // Looks `key` up run by run from `start_level`, appending hits to `out`; stops at the first
  // hit unless `all`.
  Status LookupRuns(const ValueList& key, std::string_view key_bytes, int start_level, bool all,
                    std::vector<PositionedKeyValue>* out);
  // The file of `run` whose key range holds `key`, or null.
  const LevelFile* FileOf(const SortedRun& run, const ValueList& key) const;
  Result<std::shared_ptr<LookupFile>> CreateLookupFile(const DataFileMeta& file);
  Status WriteLookupFile(const DataFileMeta& file, const std::string& local_path);
  Result<PositionedKeyValue> Decode(const ValueList& key, std::string_view value,
                                    const LevelFile& file, int level) const;

  DataTypePtr key_type_;
  DataTypePtr record_type_;
  DataTypePtr value_type_;  // record_type_ without sequence and kind
  std::vector<int> key_columns_;
  KeyValueMergeOrder key_order_;
  LookupFileReaderFactory reader_factory_;
  std::shared_ptr<LookupFileCache> cache_;
  Options options_;
  RowProjectionEncoder key_encoder_;
  RowProjectionEncoder value_encoder_;
  std::vector<SortedRun> runs_;
  std::string key_bytes_;
  std::vector<PositionedKeyValue> hits_;
};

}  // namespace sluice
