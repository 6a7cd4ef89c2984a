#include "sluice/lsm/full_changelog_merge_function_wrapper.h"

#include <string>

namespace sluice {

void FullChangelogMergeFunctionWrapper::Reset() {
  merge_function_.Reset();
  top_level_.reset();
}

Status FullChangelogMergeFunctionWrapper::Add(const KeyValue& kv) {
  if (kv.level == max_level_) {
    if (top_level_) {
      return Status::Corruption("two records of one key at the max level " +
                                std::to_string(max_level_) + " of a full compaction");
    }
    top_level_ = kv;
  }
  return merge_function_.Add(kv);
}

std::optional<KeyValue> FullChangelogMergeFunctionWrapper::GetResultKeepingDeletes() {
  std::optional<KeyValue> merged = merge_function_.GetResultKeepingDeletes();
  // One record at the max level is the key unchanged since the last full compaction.
  if (merge_function_.records() == 1 && top_level_) return merged;
  SetChangelog(top_level_, merged);
  return merged;
}

}  // namespace sluice
