#include "sluice/lsm/lookup_merge_function.h"

namespace sluice {

void LookupMergeFunction::Reset() {
  wrapped_->Reset();
  high_level_ = 0;
  low_.clear();
}

Status LookupMergeFunction::Add(const KeyValue& kv) {
  if (kv.level <= 0) {
    low_.push_back(kv);
    return wrapped_->Add(kv);
  }
  // Java pickHighLevel keeps the first record of the lowest level.
  if (high_level_ > 0 && kv.level >= high_level_) return Status::OK();
  high_level_ = kv.level;
  // Merge order is kept: the records below level 1 seen so far come before this one.
  wrapped_->Reset();
  for (const KeyValue& low : low_) SLUICE_RETURN_NOT_OK(wrapped_->Add(low));
  return wrapped_->Add(kv);
}

}  // namespace sluice
