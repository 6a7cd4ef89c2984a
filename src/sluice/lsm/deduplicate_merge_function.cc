#include "sluice/lsm/deduplicate_merge_function.h"

#include <utility>

namespace sluice {

Status DeduplicateMergeFunction::Add(const KeyValue& kv) {
  if (ignore_delete_ && IsRetract(kv.kind)) return Status::OK();
  latest_ = kv;
  return Status::OK();
}

Status DeduplicateMergeFunction::Add(KeyValue&& kv) {
  if (ignore_delete_ && IsRetract(kv.kind)) return Status::OK();
  latest_ = std::move(kv);
  return Status::OK();
}

Result<int64_t> DeduplicateMergeFunction::PickRecord(const RowKind* kinds, int64_t n) const {
  if (!ignore_delete_) return n - 1;
  for (int64_t i = n - 1; i >= 0; --i) {
    if (!IsRetract(kinds[i])) return i;
  }
  return -1;
}

}  // namespace sluice
