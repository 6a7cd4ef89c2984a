#include "sluice/table/sink/bucketed_append_compact_manager.h"

#include <algorithm>
#include <deque>

namespace sluice {
namespace {

// Java FULL_COMPACT_MIN_FILE.
constexpr size_t kFullCompactMinFiles = 3;

Result<CompactResult> RewriteAll(const BucketedAppendCompactManager::Rewrite& rewrite,
                                 std::vector<DataFileMeta> files) {
  CompactResult result;
  SLUICE_ASSIGN_OR_RETURN(result.after, rewrite(files));
  result.before = std::move(files);
  return result;
}

}  // namespace

BucketedAppendCompactManager::BucketedAppendCompactManager(
    const std::vector<DataFileMeta>& restored, Rewrite rewrite, Options options)
    : CompactManager(options.background),
      rewrite_(std::make_shared<Rewrite>(std::move(rewrite))),
      options_(options) {
  for (const DataFileMeta& file : restored) Insert(file);
}

BucketedAppendCompactManager::~BucketedAppendCompactManager() { CancelCompaction(); }

void BucketedAppendCompactManager::Insert(DataFileMeta file) {
  auto pos = std::upper_bound(to_compact_.begin(), to_compact_.end(), file,
                              [](const DataFileMeta& a, const DataFileMeta& b) {
                                return a.min_sequence_number < b.min_sequence_number;
                              });
  to_compact_.insert(pos, std::move(file));
}

Status BucketedAppendCompactManager::AddNewFile(const DataFileMeta& file) {
  Insert(file);
  return Status::OK();
}

std::vector<DataFileMeta> BucketedAppendCompactManager::AllFiles() const {
  std::vector<DataFileMeta> files = compacting_;
  files.insert(files.end(), to_compact_.begin(), to_compact_.end());
  return files;
}

std::optional<std::vector<DataFileMeta>> BucketedAppendCompactManager::PickCompactBefore() {
  std::deque<DataFileMeta> candidates;
  int64_t total_size = 0;
  size_t next = 0;
  for (; next < to_compact_.size(); ++next) {
    candidates.push_back(std::move(to_compact_[next]));
    total_size += candidates.back().file_size;
    if (static_cast<int64_t>(candidates.size()) >= options_.min_file_num) {
      to_compact_.erase(to_compact_.begin(),
                        to_compact_.begin() + static_cast<std::ptrdiff_t>(next) + 1);
      return std::vector<DataFileMeta>(std::make_move_iterator(candidates.begin()),
                                       std::make_move_iterator(candidates.end()));
    }
    if (total_size >= options_.target_file_size * 2) {
      // Slide the window one file to the right: the oldest file is large enough alone.
      total_size -= candidates.front().file_size;
      candidates.pop_front();
    }
  }
  to_compact_.assign(std::make_move_iterator(candidates.begin()),
                     std::make_move_iterator(candidates.end()));
  return std::nullopt;
}

Status BucketedAppendCompactManager::TriggerCompaction(bool full_compaction) {
  if (full_compaction) {
    if (has_task()) {
      return Status::Internal(
          "a compaction is still running while a full compaction is forced; fetch its result "
          "first");
    }
    if (to_compact_.empty() || to_compact_.size() < kFullCompactMinFiles) return Status::OK();
    compacting_ = std::move(to_compact_);
    to_compact_.clear();
    std::vector<DataFileMeta> files = compacting_;
    const int64_t large = options_.compaction_file_size;
    std::shared_ptr<Rewrite> rewrite = rewrite_;
    Submit([files = std::move(files), large, rewrite]() mutable -> Result<CompactResult> {
      // Leading large files stay as they are.
      size_t skip = 0;
      while (skip < files.size() && files[skip].file_size >= large) ++skip;
      files.erase(files.begin(), files.begin() + static_cast<std::ptrdiff_t>(skip));
      size_t big = 0;
      for (const DataFileMeta& f : files) big += f.file_size >= large ? 1 : 0;
      const size_t small = files.size() - big;
      if (small > big && files.size() >= kFullCompactMinFiles) return RewriteAll(*rewrite, files);
      return CompactResult();
    });
    return Status::OK();
  }
  if (has_task()) return Status::OK();
  std::optional<std::vector<DataFileMeta>> picked = PickCompactBefore();
  if (!picked) return Status::OK();
  compacting_ = *picked;
  std::shared_ptr<Rewrite> rewrite = rewrite_;
  Submit([files = std::move(*picked), rewrite]() { return RewriteAll(*rewrite, files); });
  return Status::OK();
}

Status BucketedAppendCompactManager::OnResult(const CompactResult& result) {
  compacting_.clear();
  if (!result.after.empty() && result.after.back().file_size < options_.compaction_file_size) {
    Insert(result.after.back());
  }
  return Status::OK();
}

}  // namespace sluice
