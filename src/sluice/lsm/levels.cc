#include "sluice/lsm/levels.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "sluice/types/value_comparator.h"

namespace sluice {
namespace {

std::vector<DataTypePtr> FieldTypes(const DataType& row_type) {
  std::vector<DataTypePtr> types;
  for (const DataField& field : row_type.fields()) types.push_back(field.type);
  return types;
}

// Java Levels' level-0 TreeSet order: true if `a` comes before `b`.
bool Level0Before(const LevelFile& a, const LevelFile& b) {
  if (a.meta.max_sequence_number != b.meta.max_sequence_number) {
    return a.meta.max_sequence_number > b.meta.max_sequence_number;
  }
  if (a.meta.min_sequence_number != b.meta.min_sequence_number) {
    return a.meta.min_sequence_number < b.meta.min_sequence_number;
  }
  const Timestamp none{};
  const Timestamp& ta = a.meta.creation_time ? *a.meta.creation_time : none;
  const Timestamp& tb = b.meta.creation_time ? *b.meta.creation_time : none;
  int c = CompareTimestamp(ta, tb);
  if (c != 0) return c < 0;
  return a.meta.file_name < b.meta.file_name;
}

}  // namespace

Levels::Levels(DataTypePtr key_type, int restored_levels)
    : key_type_(key_type), key_order_(FieldTypes(*key_type), std::nullopt) {
  levels_.resize(static_cast<size_t>(restored_levels - 1));
}

Result<LevelFilePtr> Levels::Decode(DataFileMeta meta) const {
  return LevelFile::Make(std::move(meta), *key_type_);
}

Result<Levels> Levels::Make(DataTypePtr key_type, const std::vector<DataFileMeta>& files,
                            int num_levels) {
  std::vector<LevelFilePtr> decoded;
  decoded.reserve(files.size());
  for (const DataFileMeta& meta : files) {
    SLUICE_ASSIGN_OR_RETURN(LevelFilePtr file, LevelFile::Make(meta, *key_type));
    decoded.push_back(std::move(file));
  }
  return Make(std::move(key_type), std::move(decoded), num_levels);
}

Result<Levels> Levels::Make(DataTypePtr key_type, std::vector<LevelFilePtr> files, int num_levels) {
  int restored = num_levels;
  for (const LevelFilePtr& file : files) {
    if (file->meta.level < 0) {
      return Status::Corruption("data file " + file->meta.file_name + " has negative level " +
                                std::to_string(file->meta.level));
    }
    restored = std::max(restored, file->meta.level + 1);
  }
  if (restored < 2) {
    return Status::InvalidArgument("number of levels must be at least 2, got " +
                                   std::to_string(restored));
  }
  Levels levels(std::move(key_type), restored);
  std::map<int, std::vector<LevelFilePtr>> by_level;
  for (LevelFilePtr& file : files) by_level[file->meta.level].push_back(std::move(file));
  for (auto& [level, level_files] : by_level) {
    SLUICE_RETURN_NOT_OK(levels.UpdateLevel(level, {}, std::move(level_files)));
  }
  return levels;
}

Status Levels::Update(const std::vector<DataFileMeta>& before,
                      const std::vector<DataFileMeta>& after) {
  std::vector<LevelFilePtr> decoded;
  decoded.reserve(after.size());
  for (const DataFileMeta& meta : after) {
    SLUICE_ASSIGN_OR_RETURN(LevelFilePtr file, Decode(meta));
    decoded.push_back(std::move(file));
  }
  return Update(before, std::move(decoded));
}

Status Levels::Update(const std::vector<DataFileMeta>& before, std::vector<LevelFilePtr> after) {
  std::map<int, std::vector<DataFileMeta>> before_by_level;
  std::map<int, std::vector<LevelFilePtr>> after_by_level;
  for (const DataFileMeta& meta : before) {
    if (meta.level < 0 || meta.level > max_level()) {
      return Status::InvalidArgument("data file " + meta.file_name + " has level " +
                                     std::to_string(meta.level) + " beyond the tree's " +
                                     std::to_string(max_level()));
    }
    before_by_level[meta.level].push_back(meta);
  }
  for (LevelFilePtr& file : after) {
    if (file->meta.level < 0 || file->meta.level > max_level()) {
      return Status::InvalidArgument("data file " + file->meta.file_name + " has level " +
                                     std::to_string(file->meta.level) + " beyond the tree's " +
                                     std::to_string(max_level()));
    }
    after_by_level[file->meta.level].push_back(std::move(file));
  }
  for (int level = 0; level < number_of_levels(); ++level) {
    auto b = before_by_level.find(level);
    auto a = after_by_level.find(level);
    if (b == before_by_level.end() && a == after_by_level.end()) continue;
    SLUICE_RETURN_NOT_OK(UpdateLevel(
        level, b == before_by_level.end() ? std::vector<DataFileMeta>{} : b->second,
        a == after_by_level.end() ? std::vector<LevelFilePtr>{} : std::move(a->second)));
  }
  return Status::OK();
}

Status Levels::UpdateLevel(int level, const std::vector<DataFileMeta>& before,
                           std::vector<LevelFilePtr> after) {
  std::set<std::string> removed;
  for (const DataFileMeta& meta : before) removed.insert(meta.file_name);
  auto is_removed = [&](const LevelFilePtr& f) { return removed.count(f->meta.file_name) > 0; };
  if (level == 0) {
    std::erase_if(level0_, is_removed);
    for (LevelFilePtr& file : after) {
      auto pos = std::lower_bound(
          level0_.begin(), level0_.end(), file,
          [](const LevelFilePtr& a, const LevelFilePtr& b) { return Level0Before(*a, *b); });
      if (pos != level0_.end() && (*pos)->meta.file_name == file->meta.file_name) continue;
      level0_.insert(pos, std::move(file));
    }
    return Status::OK();
  }
  std::vector<LevelFilePtr> files = levels_[level - 1].files();
  std::erase_if(files, is_removed);
  for (LevelFilePtr& file : after) files.push_back(std::move(file));
  SLUICE_ASSIGN_OR_RETURN(levels_[level - 1],
                          SortedRun::FromUnsorted(std::move(files), key_order_));
  return Status::OK();
}

int Levels::NumberOfSortedRuns() const {
  int runs = static_cast<int>(level0_.size());
  for (const SortedRun& run : levels_) runs += run.empty() ? 0 : 1;
  return runs;
}

int Levels::NonEmptyHighestLevel() const {
  for (int i = static_cast<int>(levels_.size()) - 1; i >= 0; --i) {
    if (!levels_[i].empty()) return i + 1;
  }
  return level0_.empty() ? -1 : 0;
}

int64_t Levels::TotalFileSize() const {
  int64_t total = 0;
  for (const LevelFilePtr& file : level0_) total += file->meta.file_size;
  for (const SortedRun& run : levels_) total += run.total_size();
  return total;
}

std::vector<DataFileMeta> Levels::AllFiles() const {
  std::vector<DataFileMeta> files;
  for (const LevelSortedRun& run : LevelSortedRuns()) {
    for (const LevelFilePtr& file : run.run.files()) files.push_back(file->meta);
  }
  return files;
}

std::vector<LevelSortedRun> Levels::LevelSortedRuns() const {
  std::vector<LevelSortedRun> runs;
  for (const LevelFilePtr& file : level0_) runs.push_back({0, SortedRun::FromSingle(file)});
  for (size_t i = 0; i < levels_.size(); ++i) {
    if (!levels_[i].empty()) runs.push_back({static_cast<int>(i) + 1, levels_[i]});
  }
  return runs;
}

}  // namespace sluice
