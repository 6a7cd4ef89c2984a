// Helpers of the compaction tests: data files with sizes, levels and BIGINT key ranges.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sluice/data_type.h"
#include "sluice/lsm/sorted_run.h"
#include "sluice/row/binary_row.h"

namespace sluice::test {

inline DataTypePtr BigIntKeyType() {
  return DataType::Row({DataField{0, "k", DataType::BigInt(false), std::nullopt, std::nullopt}});
}

inline std::string SerializedKey(int64_t key) {
  Result<std::string> row = EncodeBinaryRow({Value::Int64(key)}, *BigIntKeyType());
  return SerializeBinaryRow(row.value(), 1);
}

// A data file `name` on `level` holding keys [min_key, max_key] and sequence numbers
// [min_seq, max_seq], `size` bytes, no deletes.
inline DataFileMeta FileMeta(std::string name, int level, int64_t min_key, int64_t max_key,
                             int64_t size, int64_t min_seq = 0, int64_t max_seq = 0) {
  DataFileMeta meta;
  meta.file_name = std::move(name);
  meta.file_size = size;
  meta.row_count = 1;
  meta.level = level;
  meta.min_key = SerializedKey(min_key);
  meta.max_key = SerializedKey(max_key);
  meta.min_sequence_number = min_seq;
  meta.max_sequence_number = max_seq;
  meta.delete_row_count = 0;
  return meta;
}

inline LevelFilePtr File(std::string name, int level, int64_t min_key, int64_t max_key,
                         int64_t size, int64_t min_seq = 0, int64_t max_seq = 0) {
  Result<LevelFilePtr> file = LevelFile::Make(
      FileMeta(std::move(name), level, min_key, max_key, size, min_seq, max_seq), *BigIntKeyType());
  return file.value();
}

// A run of one file of `size` bytes on `level` (what Java's UniversalCompactionTest builds).
inline LevelSortedRun SizedRun(int level, int64_t size) {
  return LevelSortedRun{level, SortedRun::FromSingle(File("f", level, 0, 0, size))};
}

inline std::vector<LevelSortedRun> Level0(const std::vector<int64_t>& sizes) {
  std::vector<LevelSortedRun> runs;
  for (int64_t size : sizes) runs.push_back(SizedRun(0, size));
  return runs;
}

inline std::vector<int64_t> Sizes(const std::vector<LevelFilePtr>& files) {
  std::vector<int64_t> sizes;
  for (const LevelFilePtr& f : files) sizes.push_back(f->meta.file_size);
  return sizes;
}

inline std::vector<std::string> Names(const std::vector<DataFileMeta>& files) {
  std::vector<std::string> names;
  for (const DataFileMeta& f : files) names.push_back(f.file_name);
  return names;
}

}  // namespace sluice::test
