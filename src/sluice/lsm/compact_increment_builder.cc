#include "sluice/lsm/compact_increment_builder.h"

#include <algorithm>
#include <set>
#include <string>

namespace sluice {
namespace {

bool HasName(const std::vector<DataFileMeta>& files, const std::string& name) {
  return std::any_of(files.begin(), files.end(),
                     [&](const DataFileMeta& f) { return f.file_name == name; });
}

}  // namespace

std::vector<DataFileMeta> CompactIncrementBuilder::Add(const CompactResult& result) {
  std::set<std::string> after_names;
  for (const DataFileMeta& file : result.after) after_names.insert(file.file_name);
  std::vector<DataFileMeta> deletable;
  for (const DataFileMeta& file : result.before) {
    auto pos = std::find(after_.begin(), after_.end(), file);
    if (pos != after_.end()) {
      after_.erase(pos);
      // An intermediate file; keep it when an upgrade links it to a snapshot.
      if (!HasName(before_, file.file_name) && after_names.count(file.file_name) == 0) {
        deletable.push_back(file);
      }
    } else if (!HasName(before_, file.file_name)) {
      before_.push_back(file);
    }
  }
  after_.insert(after_.end(), result.after.begin(), result.after.end());
  changelog_.insert(changelog_.end(), result.changelog.begin(), result.changelog.end());
  if (result.deletion_file) {
    CompactDeletionFile newer = *result.deletion_file;
    if (deletion_file_) newer.MergeOlder(std::move(*deletion_file_));
    deletion_file_ = std::move(newer);
  }
  return deletable;
}

CompactIncrement CompactIncrementBuilder::Drain() {
  CompactIncrement increment;
  increment.compact_before = std::move(before_);
  increment.compact_after = std::move(after_);
  increment.changelog_files = std::move(changelog_);
  if (deletion_file_) {
    if (deletion_file_->new_file) increment.new_index_files.push_back(*deletion_file_->new_file);
    if (deletion_file_->deleted_file) {
      increment.deleted_index_files.push_back(*deletion_file_->deleted_file);
    }
  }
  before_.clear();
  after_.clear();
  changelog_.clear();
  deletion_file_.reset();
  return increment;
}

std::vector<DataFileMeta> CompactIncrementBuilder::UncommittedFiles() const {
  std::vector<DataFileMeta> files;
  for (const DataFileMeta& file : after_) {
    if (!HasName(before_, file.file_name)) files.push_back(file);
  }
  files.insert(files.end(), changelog_.begin(), changelog_.end());
  return files;
}

Status CompactIncrementBuilder::Sync(CompactManager& manager, bool blocking,
                                     const DataFileWriterFactory& files) {
  SLUICE_ASSIGN_OR_RETURN(std::optional<CompactResult> result,
                          manager.GetCompactionResult(blocking));
  if (result) files.DeleteUnreferenced(Add(*result));
  return Status::OK();
}

void CompactIncrementBuilder::Abandon(CompactManager& manager, const DataFileWriterFactory& files) {
  manager.CancelCompaction();
  files.DeleteUnreferenced(UncommittedFiles());
  if (deletion_file_ && deletion_file_->clean) deletion_file_->clean();
  deletion_file_.reset();
}

}  // namespace sluice
