// SortedRunMergeReader: the records of the sorted runs of one compaction section, merged in
// merge order (key, then `sequence.field` values, then sequence number: Java SortMergeReader
// with a min-heap), as KeyValues. Each run's files are read one after another with
// KeyValueFileReader under the table's current schema (older files evolve by field id).
//
// Thread safety: not thread-safe; one reader per compaction.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sluice/base/result.h"
#include "sluice/io/key_value.h"
#include "sluice/lsm/sequence_comparator.h"
#include "sluice/lsm/sorted_run.h"

namespace sluice {

class FileStoreTable;
class TableSchema;

class SortedRunMergeReader {
 public:
  // `bucket_path`: where files without an external path live; `partition`: the serialized
  // partition row of the bucket.
  static Result<std::unique_ptr<SortedRunMergeReader>> Open(
      const FileStoreTable& table, std::shared_ptr<const TableSchema> schema,
      const std::string& partition, const std::string& bucket_path,
      const std::vector<SortedRun>& runs, const KeyValueMergeOrder* order);
  ~SortedRunMergeReader();

  // The next record in merge order into `*kv`; false at the end. Errors name the data file.
  Result<bool> Next(KeyValue* kv);

 private:
  struct RunCursor;
  SortedRunMergeReader() = default;
  Result<bool> Advance(RunCursor* run);

  const KeyValueMergeOrder* order_ = nullptr;
  std::vector<std::unique_ptr<RunCursor>> runs_;
  std::vector<RunCursor*> heap_;
};

}  // namespace sluice
