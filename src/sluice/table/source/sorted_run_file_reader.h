// SortedRunFileReader: a SortedRunReader over data files: the files of one sorted run of a
// split, in key order, read one after another with KeyValueFileReader (the record layout of
// `value_type` under the read schema; older files evolve by field id). Feeds SortedRunMerge for
// merge-on-read (MergeSplitReader) and compaction (MergeTreeCompactRewriter).
//
// Thread safety: not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "sluice/lsm/sorted_run_reader.h"
#include "sluice/table/source/key_value_file_reader.h"

namespace sluice {

class SortedRunFileReader final : public SortedRunReader {
 public:
  // `files`: indexes of `split`'s data files that form the run, in key order. `options` apply
  // to every file; `deleted` (may be null or empty) holds, aligned with split.data_files, the
  // deleted positions of each file. The table, schema, split and `deleted` outlive the reader.
  SortedRunFileReader(const FileStoreTable& table, const TableSchema& read_schema,
                      DataTypePtr value_type, const DataSplit& split, std::vector<size_t> files,
                      KeyValueFileReader::Options options,
                      const std::vector<std::optional<std::vector<int64_t>>>* deleted = nullptr)
      : table_(table),
        read_schema_(read_schema),
        value_type_(std::move(value_type)),
        split_(split),
        files_(std::move(files)),
        options_(std::move(options)),
        deleted_(deleted) {}

  Result<bool> Next(ColumnBatch* batch) override;
  int32_t level() const override { return level_; }

 private:
  const FileStoreTable& table_;
  const TableSchema& read_schema_;
  DataTypePtr value_type_;
  const DataSplit& split_;
  std::vector<size_t> files_;
  KeyValueFileReader::Options options_;
  const std::vector<std::optional<std::vector<int64_t>>>* deleted_;

  size_t next_file_ = 0;
  std::unique_ptr<KeyValueFileReader> reader_;
  int32_t level_ = 0;
};

}  // namespace sluice
