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
  std::deque<size_t> window;
  int64_t window_size = 0;
  for (size_t i = 0; i < to_compact_.size(); ++i) {
    window.push_back(i);
    window_size += to_compact_[i].file_size;
    if (static_cast<int64_t>(window.size()) >= options_.min_file_num) {
      std::vector<DataFileMeta> picked;
      for (size_t index : window) picked.push_back(to_compact_[index]);
      // The window is consecutive; files before it keep waiting.
      to_compact_.erase(to_compact_.begin() + static_cast<std::ptrdiff_t>(window.front()),
                        to_compact_.begin() + static_cast<std::ptrdiff_t>(window.back()) + 1);
      return picked;
    }
    if (window_size >= options_.target_file_size * 2) {
      window_size -= to_compact_[window.front()].file_size;
      window.pop_front();
    }
  }
  return std::nullopt;
}

Status BucketedAppendCompactManager::TriggerCompaction(bool full_compaction) {
  if (full_compaction) {
    if (has_task()) {
      return Status::Internal(
          "a compaction is still running while a full compaction is forced; fetch its result "
          "first");
    }
    if (to_compact_.size() < kFullCompactMinFiles) return Status::OK();
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
  // Files of the unit the task did not rewrite (a full compaction's skipped ones) wait again.
  for (const DataFileMeta& file : compacting_) {
    bool rewritten =
        std::any_of(result.before.begin(), result.before.end(),
                    [&](const DataFileMeta& f) { return f.file_name == file.file_name; });
    if (!rewritten) Insert(file);
  }
  compacting_.clear();
  if (!result.after.empty() && result.after.back().file_size < options_.compaction_file_size) {
    Insert(result.after.back());
  }
  return Status::OK();
}

}  // namespace sluice
