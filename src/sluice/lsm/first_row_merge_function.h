// FirstRowMergeFunction: `merge-engine = first-row` (Java FirstRowMergeFunction). The first
// record of a key wins. -U/-D records are an error unless `ignore-delete` is set, which skips
// them.
//
// Thread safety: not thread-safe.
#pragma once

#include "sluice/lsm/merge_function.h"

namespace sluice {

class FirstRowMergeFunction final : public MergeFunction {
 public:
  explicit FirstRowMergeFunction(bool ignore_delete) : ignore_delete_(ignore_delete) {}

  void Reset() override {
    first_.reset();
    contains_high_level_ = false;
  }
  Status Add(const KeyValue& kv) override;
  Status Add(KeyValue&& kv) override;
  std::optional<KeyValue> GetResultKeepingDeletes() override { return first_; }
  bool picks_record() const override { return true; }
  Result<int64_t> PickRecord(const RowKind* kinds, int64_t n) const override;

  // Whether a record of the current key came from a level above 0 (the key is already
  // committed; lookup compaction uses this).
  bool contains_high_level() const { return contains_high_level_; }

 private:
  bool ignore_delete_;
  std::optional<KeyValue> first_;
  bool contains_high_level_ = false;
};

}  // namespace sluice
