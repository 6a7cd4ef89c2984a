#include "sluice/table/source/diff_scan.h"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace sluice {

namespace {

using BucketKey = std::pair<std::string, int32_t>;

std::set<std::string> FileNames(const DataSplit& split) {
  std::set<std::string> names;
  for (const DataFileMeta& file : split.data_files) names.insert(file.file_name);
  return names;
}

}  // namespace

Result<ScanPlan> PlanDiff(const FileStoreTable& table, const ScanOptions& base,
                          const std::optional<TableVersion>& before, const TableVersion& after) {
  if (!table.schema().is_primary_key_table()) {
    return Status::InvalidArgument("a diff of two versions of table " + table.path() +
                                   " needs a primary-key table: an append table has no keys to "
                                   "match rows by");
  }
  // Every live file of a version, level 0 included, with its deletion vectors.
  ScanOptions options = base;
  options.mode = ScanMode::kStreamFull;
  options.filter = nullptr;
  options.incremental.reset();
  options.version = after;
  SLUICE_ASSIGN_OR_RETURN(ScanPlan after_plan, PlanScan(table, options));
  std::map<BucketKey, DataSplit> before_splits;
  if (before) {
    options.version = *before;
    SLUICE_ASSIGN_OR_RETURN(ScanPlan before_plan, PlanScan(table, options));
    for (DataSplit& split : before_plan.splits) {
      BucketKey key{split.partition, split.bucket};
      before_splits.emplace(std::move(key), std::move(split));
    }
  }

  ScanPlan out;
  out.snapshot_id = after_plan.snapshot_id;
  const auto as_diff = [&](DataSplit split, DataSplit* earlier) {
    split.is_diff = true;
    split.is_streaming = false;
    split.raw_convertible = false;
    if (out.snapshot_id) split.snapshot_id = *out.snapshot_id;
    if (earlier != nullptr) {
      split.before_files = std::move(earlier->data_files);
      split.before_file_paths = std::move(earlier->data_file_paths);
      split.before_deletion_files = std::move(earlier->deletion_files);
    }
    out.splits.push_back(std::move(split));
  };
  for (DataSplit& split : after_plan.splits) {
    auto earlier = before_splits.find(BucketKey{split.partition, split.bucket});
    if (earlier == before_splits.end()) {
      as_diff(std::move(split), nullptr);
      continue;
    }
    if (FileNames(split) != FileNames(earlier->second)) as_diff(std::move(split), &earlier->second);
    before_splits.erase(earlier);
  }
  // Buckets that have no file left: everything in them was deleted.
  for (auto& [key, split] : before_splits) {
    DataSplit emptied = split;
    emptied.data_files.clear();
    emptied.data_file_paths.clear();
    emptied.deletion_files.clear();
    as_diff(std::move(emptied), &split);
  }
  return out;
}

}  // namespace sluice
