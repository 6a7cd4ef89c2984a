#include "sluice/lsm/interval_partition.h"

#include <algorithm>
#include <queue>
#include <unordered_map>

namespace sluice {
namespace {

// Files of one section (sorted by min key, then max key) into runs: each file joins the run
// that ends first if it starts after that run's end, else starts a new run.
std::vector<SortedRun> PartitionSection(const std::vector<LevelFilePtr>& files,
                                        const KeyValueMergeOrder& order) {
  using Run = std::vector<LevelFilePtr>;
  auto ends_later = [&](const Run& a, const Run& b) {
    return order.CompareKeys(a.back()->max_key, b.back()->max_key) > 0;
  };
  std::priority_queue<Run, std::vector<Run>, decltype(ends_later)> queue(ends_later);
  queue.push(Run{files[0]});
  for (size_t i = 1; i < files.size(); ++i) {
    Run top = queue.top();
    queue.pop();
    if (order.CompareKeys(files[i]->min_key, top.back()->max_key) > 0) {
      top.push_back(files[i]);
    } else {
      queue.push(Run{files[i]});
    }
    queue.push(std::move(top));
  }
  std::vector<SortedRun> runs;
  while (!queue.empty()) {
    runs.push_back(SortedRun::FromSorted(queue.top()));
    queue.pop();
  }
  return runs;
}

}  // namespace

std::vector<std::vector<SortedRun>> PartitionIntervals(std::vector<LevelFilePtr> files,
                                                       const KeyValueMergeOrder& order) {
  std::stable_sort(files.begin(), files.end(), [&](const LevelFilePtr& a, const LevelFilePtr& b) {
    int c = order.CompareKeys(a->min_key, b->min_key);
    if (c == 0) c = order.CompareKeys(a->max_key, b->max_key);
    return c < 0;
  });
  std::vector<std::vector<SortedRun>> sections;
  std::vector<LevelFilePtr> section;
  const ValueList* bound = nullptr;
  for (const LevelFilePtr& file : files) {
    if (!section.empty() && order.CompareKeys(file->min_key, *bound) > 0) {
      sections.push_back(PartitionSection(section, order));
      section.clear();
      bound = nullptr;
    }
    section.push_back(file);
    if (bound == nullptr || order.CompareKeys(file->max_key, *bound) > 0) bound = &file->max_key;
  }
  if (!section.empty()) sections.push_back(PartitionSection(section, order));
  return sections;
}

Result<std::vector<std::vector<SortedRunFiles>>> IntervalPartition(
    const std::vector<DataFileMeta>& files, const DataType& key_type) {
  std::vector<DataTypePtr> key_types;
  for (const DataField& field : key_type.fields()) key_types.push_back(field.type);
  KeyValueMergeOrder order(std::move(key_types), std::nullopt);
  std::vector<LevelFilePtr> decoded;
  std::unordered_map<const LevelFile*, size_t> index;
  decoded.reserve(files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    SLUICE_ASSIGN_OR_RETURN(LevelFilePtr file, LevelFile::Make(files[i], key_type));
    index[file.get()] = i;
    decoded.push_back(std::move(file));
  }
  std::vector<std::vector<SortedRunFiles>> sections;
  for (const std::vector<SortedRun>& section : PartitionIntervals(std::move(decoded), order)) {
    std::vector<SortedRunFiles>& runs = sections.emplace_back();
    for (const SortedRun& run : section) {
      SortedRunFiles& indexes = runs.emplace_back();
      for (const LevelFilePtr& file : run.files()) indexes.push_back(index.at(file.get()));
    }
  }
  return sections;
}

}  // namespace sluice
