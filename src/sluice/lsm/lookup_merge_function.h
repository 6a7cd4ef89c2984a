// LookupMergeFunction: the merge engine of a table that needs lookup (Java LookupMergeFunction;
// CoreOptions.needLookup: `changelog-producer = lookup`, deletion vectors, `force-lookup`),
// for the engines that fold records (partial-update, aggregation). Lookup compaction merges the
// key's value from above into every record it writes above level 0, so each such record holds
// its key's whole value as of its sequence number, and the records of higher levels are older
// versions of it: a key's result is its record of the lowest level above 0 folded with its
// records at level 0 and below (not compacted yet), in merge order, by the wrapped engine.
// Java reads, compacts and looks up such tables this way; folding every version instead would
// count the older ones again (a sum twice).
//
// Deduplicate and first-row are not wrapped (as in Java for first-row): the newest (first)
// record of the lowest level is the one they pick from all versions anyway.
//
// Thread safety: not thread-safe.
#pragma once

#include <memory>
#include <vector>

#include "sluice/lsm/merge_function.h"

namespace sluice {

class LookupMergeFunction final : public MergeFunction {
 public:
  explicit LookupMergeFunction(std::unique_ptr<MergeFunction> wrapped)
      : wrapped_(std::move(wrapped)) {}

  void Reset() override;
  Status Add(const KeyValue& kv) override;
  std::optional<KeyValue> GetResultKeepingDeletes() override {
    return wrapped_->GetResultKeepingDeletes();
  }

 private:
  std::unique_ptr<MergeFunction> wrapped_;
  // The level of the record above level 0 folded so far (0: none yet).
  int32_t high_level_ = 0;
  // The key's records at level 0 and below so far, to fold again when a record of a lower level
  // above 0 comes after them (it replaces the one folded).
  std::vector<KeyValue> low_;
};

}  // namespace sluice
