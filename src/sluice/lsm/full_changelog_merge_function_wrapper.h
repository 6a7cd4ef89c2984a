// FullChangelogMergeFunctionWrapper: the merge of a full compaction of a
// `changelog-producer = full-compaction` table (Java FullChangelogMergeFunctionWrapper). Only a
// full compaction writes the max level, so a key's record there is its value at the last full
// compaction: the changelog compares it with the key's merged value now (see
// changelog_merge_function_wrapper.h). A key with one record is its own result; it has a
// change (+I) only when that record is not at the max level.
//
// Thread safety: not thread-safe; one instance per compaction.
#pragma once

#include "sluice/lsm/changelog_merge_function_wrapper.h"

namespace sluice {

class FullChangelogMergeFunctionWrapper final : public ChangelogMergeFunctionWrapper {
 public:
  FullChangelogMergeFunctionWrapper(std::unique_ptr<MergeFunction> merge_function, int max_level,
                                    std::optional<RecordEqualiser> equaliser)
      : ChangelogMergeFunctionWrapper(std::move(equaliser)),
        merge_function_(std::move(merge_function)),
        max_level_(max_level) {}

  void Reset() override;
  Status Add(const KeyValue& kv) override;
  std::optional<KeyValue> GetResultKeepingDeletes() override;

 private:
  ReducerMergeFunctionWrapper merge_function_;
  int max_level_;
  std::optional<KeyValue> top_level_;  // the key's record at the max level
};

}  // namespace sluice
