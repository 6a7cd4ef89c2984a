// DeduplicateMergeFunction: `merge-engine = deduplicate` (Java DeduplicateMergeFunction). The
// last record of a key wins, whatever its kind: a -D (or -U) last removes the key from reads.
// With `ignore-delete`, -U/-D records are skipped (tables written by Paimon <= 0.7 may hold them
// despite the option).
//
// Thread safety: not thread-safe.
#pragma once

#include "sluice/lsm/merge_function.h"

namespace sluice {

class DeduplicateMergeFunction final : public MergeFunction {
 public:
  explicit DeduplicateMergeFunction(bool ignore_delete) : ignore_delete_(ignore_delete) {}

  void Reset() override { latest_.reset(); }
  Status Add(const KeyValue& kv) override;
  Status Add(KeyValue&& kv) override;
  std::optional<KeyValue> GetResultKeepingDeletes() override { return latest_; }
  bool picks_record() const override { return true; }
  Result<int64_t> PickRecord(const RowKind* kinds, int64_t n) const override;

 private:
  bool ignore_delete_;
  std::optional<KeyValue> latest_;
};

}  // namespace sluice
