#include "sluice/lsm/sorted_run.h"

#include <algorithm>

#include "sluice/row/binary_row.h"

namespace sluice {

Result<LevelFilePtr> LevelFile::Make(DataFileMeta meta, const DataType& key_type) {
  Result<ValueList> min_key = DecodeSerializedBinaryRow(meta.min_key, key_type);
  if (!min_key.ok()) {
    return Status::Corruption("data file " + meta.file_name +
                              ": min key: " + min_key.status().ToString());
  }
  Result<ValueList> max_key = DecodeSerializedBinaryRow(meta.max_key, key_type);
  if (!max_key.ok()) {
    return Status::Corruption("data file " + meta.file_name +
                              ": max key: " + max_key.status().ToString());
  }
  auto file = std::make_shared<LevelFile>();
  file->meta = std::move(meta);
  file->min_key = std::move(min_key).value();
  file->max_key = std::move(max_key).value();
  return LevelFilePtr(std::move(file));
}

SortedRun::SortedRun(std::vector<LevelFilePtr> files) : files_(std::move(files)) {
  for (const LevelFilePtr& file : files_) total_size_ += file->meta.file_size;
}

Result<SortedRun> SortedRun::FromUnsorted(std::vector<LevelFilePtr> files,
                                          const KeyValueMergeOrder& order) {
  std::stable_sort(files.begin(), files.end(), [&](const LevelFilePtr& a, const LevelFilePtr& b) {
    return order.CompareKeys(a->min_key, b->min_key) < 0;
  });
  for (size_t i = 1; i < files.size(); ++i) {
    if (order.CompareKeys(files[i]->min_key, files[i - 1]->max_key) <= 0) {
      return Status::Corruption("data files " + files[i - 1]->meta.file_name + " and " +
                                files[i]->meta.file_name +
                                " of one level have overlapping key ranges");
    }
  }
  return SortedRun(std::move(files));
}

std::vector<DataFileMeta> FileMetas(const std::vector<LevelFilePtr>& files) {
  std::vector<DataFileMeta> metas;
  metas.reserve(files.size());
  for (const LevelFilePtr& file : files) metas.push_back(file->meta);
  return metas;
}

}  // namespace sluice
